package io.engram.services;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the command line of a child JVM whose classpath was written at build time into a resource
 * {@code META-INF/engram/<name>.classpath} of the module holding its main class.
 */
final class ChildJvm {

    private ChildJvm() {}

    static List<String> command(
            String classpathName, String mainClass, List<String> jvmOptions, List<String> args) {
        String resource = "META-INF/engram/" + classpathName + ".classpath";
        URL url = ChildJvm.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new ServiceStartException(
                    "classpath resource "
                            + resource
                            + " is missing: build the project first (./mvnw install -DskipTests)");
        }
        String dependencies;
        try (InputStream in = url.openStream()) {
            dependencies = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + url, e);
        }
        String classpath = moduleRoot(url, resource) + java.io.File.pathSeparator + dependencies;

        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classpath);
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /** The jar or classes directory that holds {@code resource}. */
    private static String moduleRoot(URL url, String resource) {
        String text = url.toString();
        try {
            if (text.startsWith("jar:")) {
                String jar = text.substring("jar:".length(), text.indexOf("!/"));
                return Path.of(new URL(jar).toURI()).toString();
            }
            Path file = Path.of(url.toURI());
            Path root = file;
            for (int i = 0; i < resource.split("/").length; i++) {
                root = root.getParent();
            }
            return root.toString();
        } catch (URISyntaxException | IOException e) {
            throw new IllegalStateException("cannot locate module of " + url, e);
        }
    }
}
