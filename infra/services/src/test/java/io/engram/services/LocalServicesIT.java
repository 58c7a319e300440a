package io.engram.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalServicesIT {

    @TempDir Path home;

    @Test
    void startsAllFourServicesOnLoopbackAndStopsThemWithoutLeavingProcesses() throws Exception {
        long before = ProcessHandle.current().descendants().count();
        LocalServices services = LocalServices.start(LocalServices.Spec.forTests(home));
        List<Long> pids;
        try {
            pids =
                    List.of(
                            services.postgres().pid(),
                            services.kafka().pid(),
                            services.openSearch().pid(),
                            services.redis().pid());
            try (Connection c = services.postgres().connect("engram");
                    ResultSet rs = c.createStatement().executeQuery("select current_database()")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("engram");
            }
            HttpResponse<String> health =
                    HttpClient.newHttpClient()
                            .send(
                                    HttpRequest.newBuilder(
                                                    URI.create(
                                                            services.openSearch().url()
                                                                    + "/_cat/plugins"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.body()).contains("org.opensearch.knn.plugin.KNNPlugin");
            assertThat(services.kafka().bootstrapServers()).startsWith("127.0.0.1:");
            assertThat(services.redis().url()).startsWith("redis://127.0.0.1:");
        } finally {
            services.close();
        }
        for (long pid : pids) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                    .as("pid %d alive after stop", pid)
                    .isFalse();
        }
        assertThat(ProcessHandle.current().descendants().count()).isLessThanOrEqualTo(before);
    }

    @Test
    void servicesDieWithTheJvmThatStartedThemEvenWhenItIsKilled() throws Exception {
        // A separate JVM starts Postgres and Redis, reports the server pids, and is then killed
        // with SIGKILL: no shutdown hook runs, only the lifeline pipes close.
        String classpath = System.getProperty("java.class.path");
        Process parent =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-cp",
                                classpath,
                                OrphanProbe.class.getName(),
                                home.toString())
                        .redirectErrorStream(true)
                        .start();
        List<Long> serverPids = OrphanProbe.readPids(parent, Duration.ofSeconds(90));
        assertThat(serverPids).hasSize(2).allMatch(pid -> ProcessHandle.of(pid).isPresent());

        parent.destroyForcibly();
        parent.waitFor(30, TimeUnit.SECONDS);

        Await.until(
                Duration.ofSeconds(30),
                () -> serverPids.stream().noneMatch(pid -> ProcessHandle.of(pid).isPresent()));
        assertThat(serverPids).noneMatch(pid -> ProcessHandle.of(pid).isPresent());
        assertThat(Files.exists(home.resolve("postgres/data/postmaster.pid"))).isFalse();
    }

    /** Main class of the JVM that is killed in the test above. */
    public static final class OrphanProbe {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            PostgresServer postgres =
                    PostgresServer.start(home.resolve("postgres"), 0, "engram", false);
            RedisServer redis = RedisServer.start(home.resolve("redis"), 0, false);
            System.out.println("PIDS " + serverPid(postgres.pid()) + " " + serverPid(redis.pid()));
            System.out.flush();
            new java.util.concurrent.CountDownLatch(1).await(); // until killed
        }

        /** The server under the watchdog shell. */
        private static long serverPid(long watchdogPid) {
            return ProcessHandle.of(watchdogPid)
                    .orElseThrow()
                    .children()
                    .filter(p -> p.info().command().map(c -> !c.endsWith("sh")).orElse(true))
                    .findFirst()
                    .orElseThrow()
                    .pid();
        }

        static List<Long> readPids(Process process, Duration timeout) throws Exception {
            InputStream in = process.getInputStream();
            StringBuilder out = new StringBuilder();
            Instant deadline = Instant.now().plus(timeout);
            while (Instant.now().isBefore(deadline)) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                out.append((char) b);
                int at = out.indexOf("PIDS ");
                if (at >= 0 && out.indexOf("\n", at) > 0) {
                    String line = out.substring(at + 5, out.indexOf("\n", at)).trim();
                    return java.util.Arrays.stream(line.split(" ")).map(Long::valueOf).toList();
                }
            }
            throw new AssertionError("probe JVM printed no pids:\n" + out);
        }
    }
}
