package io.engram.terraform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The AWS module under {@code terraform/}: formatted, valid against the real provider's schema, and
 * its own tests (a mocked provider: no account, no network) pass. Runs on a copy, so the source
 * tree gets no {@code .terraform} directory or lock file. Providers come from {@code
 * ENGRAM_TF_PLUGIN_DIR} (default {@code /opt/tf-plugins}) when that directory exists, else from the
 * registry.
 */
class TerraformModuleIT {

    private static final Path MODULE = Path.of(System.getProperty("user.dir"));

    @TempDir static Path work;

    private static Path copy;

    @BeforeAll
    static void initialise() throws Exception {
        assumeTrue(
                onPath("terraform"),
                "terraform is not on the PATH: the module under terraform/ is not checked");
        copy = work.resolve("module");
        Files.createDirectories(copy.resolve("tests"));
        try (Stream<Path> files = Files.list(MODULE)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".tf")).toList()) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        try (Stream<Path> files = Files.list(MODULE.resolve("tests"))) {
            for (Path f : files.toList()) {
                Files.copy(f, copy.resolve("tests").resolve(f.getFileName()));
            }
        }
        List<String> init = new ArrayList<>(List.of("init", "-backend=false", "-input=false"));
        Path plugins =
                Path.of(System.getenv().getOrDefault("ENGRAM_TF_PLUGIN_DIR", "/opt/tf-plugins"));
        if (Files.isDirectory(plugins)) {
            init.add("-plugin-dir=" + plugins);
        }
        Result r = terraform(copy, init);
        assertThat(r.exit()).as(r.output()).isZero();
    }

    @Test
    void isFormatted() throws Exception {
        Result r = terraform(MODULE, List.of("fmt", "-check", "-recursive", "-diff"));
        assertThat(r.exit()).as("terraform fmt -recursive terraform/\n" + r.output()).isZero();
    }

    @Test
    void isValid() throws Exception {
        Result r = terraform(copy, List.of("validate"));
        assertThat(r.exit()).as(r.output()).isZero();
    }

    @Test
    void passesItsOwnTests() throws Exception {
        Result r = terraform(copy, List.of("test"));
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).contains(" 0 failed");
    }

    private record Result(int exit, String output) {}

    private static Result terraform(Path dir, List<String> args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("terraform");
        command.add("-chdir=" + dir);
        command.addAll(args);
        command.add("-no-color");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("TF_IN_AUTOMATION", "1");
        pb.environment().put("TF_DATA_DIR", work.resolve("data").toString());
        pb.environment().put("CHECKPOINT_DISABLE", "1");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as(out).isTrue();
        return new Result(p.exitValue(), out);
    }

    private static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
