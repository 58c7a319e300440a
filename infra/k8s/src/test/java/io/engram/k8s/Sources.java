package io.engram.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the manifests must agree with, read from the project's own files: the Terraform module's
 * variables and outputs, its README's drain time, the HTTP contract, the maintenance jobs and the
 * Flink version. Each reader fails the test when the text it looks for is gone, so a change of form
 * there is noticed rather than read as "nothing".
 */
final class Sources {

    private Sources() {}

    /** The repository's root: the first directory upwards holding terraform/outputs.tf. */
    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("terraform/outputs.tf"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("repository root (with terraform/outputs.tf) above the cwd").isNotNull();
        return dir;
    }

    static String read(String relative) {
        try {
            return Files.readString(root().resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The body of a top-level HCL block, from its opening line to the first line that is "}". */
    private static String block(String text, String header) {
        int start = text.indexOf(header);
        assertThat(start).as("'%s' in the Terraform module", header).isNotNegative();
        int end = text.indexOf("\n}", start);
        assertThat(end).as("end of '%s'", header).isPositive();
        return text.substring(start, end);
    }

    /** The default of a Terraform variable whose default is a string. */
    static String variableDefault(String name) {
        String body = block(read("terraform/variables.tf"), "variable \"" + name + "\" {");
        Matcher m = Pattern.compile("\\n\\s*default\\s*=\\s*\"([^\"]*)\"").matcher(body);
        assertThat(m.find()).as("string default of variable %s", name).isTrue();
        return m.group(1);
    }

    /** The keys of the output engram_environment (the map in locals it returns). */
    static Set<String> engramEnvironmentKeys() {
        String outputs = read("terraform/outputs.tf");
        assertThat(block(outputs, "output \"engram_environment\" {"))
                .contains("local.engram_environment");
        int start = outputs.indexOf("engram_environment = {");
        assertThat(start).as("locals.engram_environment in outputs.tf").isNotNegative();
        int end = outputs.indexOf("\n  }", start);
        Matcher m =
                Pattern.compile("\\n\\s+(ENGRAM_[A-Z0-9_]+)\\s*=")
                        .matcher(outputs.substring(start, end));
        Set<String> keys = new LinkedHashSet<>();
        while (m.find()) {
            keys.add(m.group(1));
        }
        assertThat(keys).as("keys of engram_environment").isNotEmpty();
        return keys;
    }

    /** The keys of the output flink_configuration. */
    static Set<String> flinkConfigurationKeys() {
        String body = block(read("terraform/outputs.tf"), "output \"flink_configuration\" {");
        Matcher m = Pattern.compile("\"([a-z][a-z0-9.-]+)\"\\s*=").matcher(body);
        Set<String> keys = new LinkedHashSet<>();
        while (m.find()) {
            keys.add(m.group(1));
        }
        assertThat(keys).as("keys of flink_configuration").isNotEmpty();
        return keys;
    }

    /**
     * The outputs naming a Secrets Manager secret (*_secret_arn), each with the ENGRAM_* variable
     * its description says the secret fills.
     */
    static Map<String, String> secretOutputs() {
        String outputs = read("terraform/outputs.tf");
        Matcher m =
                Pattern.compile(
                                "output \"(\\w+_secret_arn)\" \\{\\s*\\n\\s*description\\s*=\\s*\"[^\"]*?(ENGRAM_[A-Z_]+)")
                        .matcher(outputs);
        Map<String, String> secrets = new LinkedHashMap<>();
        while (m.find()) {
            secrets.put(m.group(1), m.group(2));
        }
        assertThat(secrets).as("*_secret_arn outputs naming their ENGRAM_* variable").isNotEmpty();
        return secrets;
    }

    /** A string field of the output kubernetes, e.g. node_selector_key. */
    static String kubernetesOutput(String field) {
        String body = block(read("terraform/outputs.tf"), "output \"kubernetes\" {");
        Matcher m = Pattern.compile("\\n\\s*" + field + "\\s*=\\s*\"([^\"]*)\"").matcher(body);
        assertThat(m.find()).as("string field %s of output kubernetes", field).isTrue();
        return m.group(1);
    }

    /** The default of the variable a field of the output kubernetes is, e.g. namespace. */
    static String kubernetesOutputVariable(String field) {
        String body = block(read("terraform/outputs.tf"), "output \"kubernetes\" {");
        Matcher m = Pattern.compile("\\n\\s*" + field + "\\s*=\\s*var\\.(\\w+)").matcher(body);
        assertThat(m.find()).as("field %s = var.… of output kubernetes", field).isTrue();
        return variableDefault(m.group(1));
    }

    /** The description of an output. */
    static String outputDescription(String name) {
        String body = block(read("terraform/outputs.tf"), "output \"" + name + "\" {");
        Matcher m = Pattern.compile("description\\s*=\\s*\"([^\"]*)\"").matcher(body);
        assertThat(m.find()).as("description of output %s", name).isTrue();
        return m.group(1);
    }

    /** The output names of outputs.tf. */
    static List<String> outputNames() {
        Matcher m = Pattern.compile("(?m)^output \"(\\w+)\"").matcher(read("terraform/outputs.tf"));
        List<String> names = new ArrayList<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** The least terminationGracePeriodSeconds terraform/README.md asks of the serving pods. */
    static int drainSeconds() {
        Matcher m =
                Pattern.compile("terminationGracePeriodSeconds`\\s*≥\\s*(\\d+)")
                        .matcher(read("terraform/README.md"));
        assertThat(m.find())
                .as("'terminationGracePeriodSeconds` ≥ N' in terraform/README.md")
                .isTrue();
        return Integer.parseInt(m.group(1));
    }

    /** The paths of the HTTP contract (serving/src/main/resources/openapi.yaml). */
    static Set<String> openApiPaths() {
        try {
            JsonNode api =
                    new YAMLMapper().readTree(read("serving/src/main/resources/openapi.yaml"));
            Set<String> paths = new LinkedHashSet<>();
            api.path("paths").fieldNames().forEachRemaining(paths::add);
            assertThat(paths).as("paths of openapi.yaml").isNotEmpty();
            return paths;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The wire names of the daily maintenance jobs, in MaintenanceKind.DAILY's order. */
    static List<String> dailyMaintenanceJobs() {
        Matcher m =
                Pattern.compile("DAILY\\s*=\\s*\\{([A-Z_,\\s]+)\\}")
                        .matcher(
                                read(
                                        javaSource(
                                                "jobs",
                                                "io.engram.jobs.maintenance.MaintenanceKind")));
        assertThat(m.find()).as("MaintenanceKind.DAILY").isTrue();
        List<String> jobs = new ArrayList<>();
        for (String kind : m.group(1).split(",")) {
            jobs.add(kind.trim().toLowerCase(Locale.ROOT));
        }
        return jobs;
    }

    /** The relative path of a main class's source in a module. */
    static String javaSource(String module, String className) {
        return module + "/src/main/java/" + className.replace('.', '/') + ".java";
    }

    /** Whether a class has a {@code public static void main} in its module's sources. */
    static boolean hasMain(String module, String className) {
        Path file = root().resolve(javaSource(module, className));
        return Files.isRegularFile(file)
                && read(javaSource(module, className)).contains("public static void main(String[]");
    }

    /** The root pom's flink.version, e.g. 2.2.1. */
    static String flinkVersion() {
        Matcher m =
                Pattern.compile("<flink.version>([^<]+)</flink.version>").matcher(read("pom.xml"));
        assertThat(m.find()).as("flink.version in the root pom").isTrue();
        return m.group(1);
    }

    /** KEY=value lines of an env file (comments and blank lines skipped), in order. */
    static Map<String, String> envFile(Path file) {
        try {
            Map<String, String> values = new LinkedHashMap<>();
            for (String line : Files.readAllLines(file)) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int eq = line.indexOf('=');
                assertThat(eq).as("KEY=value in %s: %s", file, line).isPositive();
                values.put(line.substring(0, eq), line.substring(eq + 1));
            }
            return values;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
