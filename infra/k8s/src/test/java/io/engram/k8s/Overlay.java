package io.engram.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One overlay rendered with {@code kubectl kustomize}: its documents as parsed text and as typed
 * resources. The tree is rendered from a copy under target/ in which every {@code *.env.example}
 * stands in for the {@code *.env} a platform engineer generates, so the check does not depend on
 * what is on the machine.
 */
final class Overlay {

    static final List<String> NAMES = List.of("local", "aws");

    private static final Map<String, Overlay> RENDERED = new ConcurrentHashMap<>();

    final String name;
    final Path source;
    final List<JsonNode> documents;
    final List<Object> resources;

    private Overlay(String name, Path source, List<JsonNode> documents) {
        this.name = name;
        this.source = source;
        this.documents = documents;
        List<Object> parsed = new ArrayList<>();
        for (JsonNode doc : documents) {
            parsed.add(StrictModel.parse(doc));
        }
        this.resources = parsed;
    }

    /** The overlay, rendered once per test run. */
    static Overlay of(String name) {
        return RENDERED.computeIfAbsent(name, Overlay::render);
    }

    /** The overlay's directory in the repository. */
    static Path directory(String name) {
        return Sources.root().resolve("infra/k8s/overlays").resolve(name);
    }

    private static synchronized Overlay render(String name) {
        Path copy = copyTree();
        Path dir = copy.resolve("overlays").resolve(name);
        String yaml = kubectl(dir, "kustomize", dir.toString());
        try {
            List<JsonNode> docs = new ArrayList<>();
            List<JsonNode> all =
                    new YAMLMapper().readerFor(JsonNode.class).<JsonNode>readValues(yaml).readAll();
            for (JsonNode doc : all) {
                if (doc != null && !doc.isNull() && !doc.isEmpty()) {
                    docs.add(doc);
                }
            }
            assertThat(docs).as("documents rendered from overlay %s", name).isNotEmpty();
            return new Overlay(name, directory(name), docs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** infra/k8s/{base,overlays} copied to target/kustomize, examples standing in for env files. */
    private static synchronized Path copyTree() {
        Path k8s = Sources.root().resolve("infra/k8s");
        Path copy = k8s.resolve("target/kustomize");
        try {
            if (Files.exists(copy)) {
                try (Stream<Path> old = Files.walk(copy)) {
                    old.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
            for (String top : List.of("base", "overlays")) {
                try (Stream<Path> files = Files.walk(k8s.resolve(top))) {
                    for (Path from : files.toList()) {
                        Path to = copy.resolve(k8s.relativize(from).toString());
                        String file = from.getFileName().toString();
                        if (Files.isDirectory(from)) {
                            Files.createDirectories(to);
                        } else if (file.endsWith(".env.example")) {
                            Path env = to.resolveSibling(file.substring(0, file.length() - 8));
                            Files.copy(from, env, StandardCopyOption.REPLACE_EXISTING);
                        } else if (!file.endsWith(".env")
                                || !Files.exists(from.resolveSibling(file + ".example"))) {
                            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
                        }
                    }
                }
            }
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs kubectl and returns its standard output; fails with its error output. */
    static String kubectl(Path workDir, String... args) {
        List<String> command = new ArrayList<>(List.of("kubectl"));
        command.addAll(List.of(args));
        return run(workDir, command, null);
    }

    static String run(Path workDir, List<String> command, String stdin) {
        Process process;
        try {
            Path err = Files.createTempFile("engram-k8s", ".err");
            process =
                    new ProcessBuilder(command)
                            .directory(workDir.toFile())
                            .redirectError(err.toFile())
                            .start();
            if (stdin != null) {
                process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            process.getOutputStream().close();
            String out =
                    new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in 120 s");
            }
            String error = Files.readString(err);
            Files.delete(err);
            if (process.exitValue() != 0) {
                throw new AssertionError(
                        String.join(" ", command)
                                + " failed ("
                                + process.exitValue()
                                + "):\n"
                                + error);
            }
            return out;
        } catch (IOException e) {
            throw new AssertionError(
                    "cannot run '"
                            + command.get(0)
                            + "': "
                            + e.getMessage()
                            + ". The manifests are checked by rendering them with kubectl (1.27 or"
                            + " newer, with kustomize v5); install it and put it on the PATH.",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Every resource of a typed class. */
    <T> List<T> all(Class<T> type) {
        return resources.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The one resource of a class with a name; fails when there is none. */
    <T extends HasMetadata> T one(Class<T> type, String name) {
        return find(type, name)
                .orElseThrow(
                        () ->
                                new AssertionError(
                                        this.name + ": no " + type.getSimpleName() + " " + name));
    }

    <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
        return all(type).stream().filter(r -> r.getMetadata().getName().equals(name)).findFirst();
    }

    /** Generic resources (External Secrets Operator) of a kind. */
    List<GenericKubernetesResource> generic(String kind) {
        return all(GenericKubernetesResource.class).stream()
                .filter(r -> r.getKind().equals(kind))
                .toList();
    }

    /**
     * The ConfigMap generated as {@code base} (kustomize appends a hash of its content to the
     * name).
     */
    ConfigMap generatedConfigMap(String base) {
        List<ConfigMap> found =
                all(ConfigMap.class).stream()
                        .filter(c -> c.getMetadata().getName().matches(base + "(-[a-z0-9]{10})?"))
                        .toList();
        assertThat(found).as("%s: ConfigMap %s", name, base).hasSize(1);
        return found.get(0);
    }

    /** The settings every pod reads (ConfigMap engram-settings). */
    Map<String, String> settings() {
        return generatedConfigMap("engram-settings").getData();
    }

    @Override
    public String toString() {
        return name;
    }
}
