package io.engram.jobs.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.config.ConfigLoader;
import io.engram.config.EngramConfig;
import io.engram.events.ChatEvent;
import io.engram.events.TopicBootstrap;
import io.engram.jobs.TestStores;
import io.engram.jobs.maintenance.MaintenanceMain;
import io.engram.services.Await;
import io.engram.services.FlinkCluster;
import io.engram.services.FlinkRest;
import io.engram.services.SharedServices;
import io.engram.store.opensearch.IndexBootstrap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The jobs on a real Flink cluster: a JobManager and two TaskManagers in JVMs of their own, the
 * shaded jar uploaded and run through the REST API as a user would, checkpoints in a directory. A
 * TaskManager killed with {@code kill -9}, a stop with a savepoint and a resume from it both end
 * with exactly the rows of an uninterrupted run; maintenance runs to its end through {@code flink
 * run}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JobsOnFlinkClusterIT {

    private static final String ENTRY = ExtractionJob.class.getName();
    private static final int PARALLELISM = 2;

    /** Under target/, so the cluster's logs outlive a failed run. */
    private static Path home;

    private static FlinkCluster cluster;
    private static FlinkRest rest;
    private static String jarId;
    private static Map<String, String> secrets;
    private static Path upgradedConfig;

    @BeforeAll
    static void startCluster() throws Exception {
        home =
                Files.createTempDirectory(Files.createDirectories(Path.of("target/it")), "flink-")
                        .toAbsolutePath();
        secrets = Map.of("ENGRAM_POSTGRES_PASSWORD", SharedServices.postgres().password());
        cluster = FlinkCluster.start(home.resolve("flink"), new FlinkCluster.Spec(2, 2, secrets));
        rest = cluster.rest();
        jarId = rest.uploadJar(shadedJar());
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void aTaskManagerKilledMidStreamRestoresFromTheCheckpointWithTheRowsOfOnePass()
            throws Exception {
        Run run = Run.prepare("cluster_kill");
        List<ChatEvent> events = TwoUserStream.events();
        TestStores.produce(run.topic, events.subList(0, events.size() / 2));

        String job = startJob(run.config, Optional.empty());
        try {
            awaitMemoriesAndCheckpoint(run, job);
            TestStores.produce(run.topic, events.subList(events.size() / 2, events.size()));
            String victim = rest.taskManagersOf(job).iterator().next();
            long restartsBefore = rest.restarts(job);
            cluster.killTaskManager(victim);

            assertThat(until(Duration.ofSeconds(60), () -> rest.restarts(job) > restartsBefore))
                    .as("the job failed over after the TaskManager died")
                    .isTrue();
            rest.awaitTasksRunning(job, Duration.ofSeconds(90));
            // The REST API serves checkpoint statistics from a cache (3 s by default): the restore
            // shows there a moment after the tasks run again.
            until(Duration.ofSeconds(20), () -> rest.restoredFrom(job).isPresent());
            assertThat(rest.restoredFrom(job))
                    .as("restored from a retained checkpoint of this cluster")
                    .hasValueSatisfying(
                            p -> assertThat(p).contains(cluster.checkpoints().toString()));
            // As Kubernetes would, a new TaskManager replaces the dead one.
            cluster.addTaskManager();

            assertSameRowsAsOnePass(run, job);
        } finally {
            cancelAndWait(job);
        }
    }

    @Test
    @Order(2)
    void stoppedWithASavepointAndResumedFromItWritesTheRowsOfOnePass() throws Exception {
        Run run = Run.prepare("cluster_upgrade");
        List<ChatEvent> events = TwoUserStream.events();
        TestStores.produce(run.topic, events.subList(0, events.size() / 2));

        String first = startJob(run.config, Optional.empty());
        awaitMemoriesAndCheckpoint(run, first);
        String savepoint =
                rest.stopWithSavepoint(
                        first, cluster.savepoints().toUri().toString(), Duration.ofSeconds(60));
        rest.awaitState(first, "FINISHED", Duration.ofSeconds(30));
        // The turns that arrive during the upgrade wait in the topic.
        TestStores.produce(run.topic, events.subList(events.size() / 2, events.size()));

        String second = startJob(run.config, Optional.of(savepoint));
        try {
            assertThat(rest.restoredFrom(second)).contains(savepoint);
            assertSameRowsAsOnePass(run, second);
        } finally {
            cancelAndWait(second);
        }
        upgradedConfig = run.config;
    }

    @Test
    @Order(3)
    void maintenanceRunsToItsEndOnTheClusterThroughFlinkRun() throws Exception {
        assertThat(upgradedConfig).as("the savepoint test left memories to maintain").isNotNull();
        EngramConfig config = ConfigLoader.load(Optional.of(upgradedConfig), secrets);
        String db = config.postgres().url();
        Map<String, String> env = new java.util.HashMap<>(secrets);
        env.put(ConfigLoader.CONFIG_FILE_ENV, upgradedConfig.toString());
        for (String kind : List.of("decay", "consolidate")) {
            Path log = home.resolve("flink-run-" + kind + ".log");
            int exit =
                    cluster.flinkRun(
                            List.of(
                                    "-c",
                                    MaintenanceMain.class.getName(),
                                    shadedJar().toString(),
                                    kind,
                                    "--as-of",
                                    "2027-06-01T00:00:00Z"),
                            env,
                            log,
                            Duration.ofMinutes(3));
            assertThat(exit).as("flink run %s; output:%n%s", kind, Files.readString(log)).isZero();
            assertThat(Files.readString(log))
                    .as("the run's report")
                    .contains("\"job\" : \"" + kind + "\"", "\"run_id\"");
        }
        assertThat(rest.jobs())
                .filteredOn(j -> j.name().startsWith("engram-maintenance"))
                .extracting(FlinkRest.Job::state)
                .as("both batch jobs ran on the cluster")
                .hasSize(2)
                .containsOnly("FINISHED");
        assertThat(
                        TestStores.rows(
                                db,
                                "select job || ' ' || status from maintenance_runs order by started_at"))
                .containsExactly("decay succeeded", "consolidate succeeded");
        assertThat(TestStores.count(db, "select count(*) from memories where tier <> 'hot'"))
                .as("nine months without use cooled memories down")
                .isPositive();
    }

    /** A database, an index and a topic of its own, and the configuration naming them. */
    private record Run(String name, String db, String reference, String topic, Path config) {

        static Run prepare(String name) throws Exception {
            String db = TestStores.migratedDatabase(name);
            String reference = TestStores.migratedDatabase(name + "_ref");
            String topic = "engram.turns." + name.replace('_', '-');
            TopicBootstrap.ensure(
                    SharedServices.kafka().bootstrapServers(),
                    List.of(topic, topic + ".dlq"),
                    2,
                    (short) 1);
            Run run = new Run(name, db, reference, topic, writeConfig(name, db, topic));
            for (Path file : List.of(run.config, run.referenceConfig())) {
                String alias = ConfigLoader.load(Optional.of(file), secrets).memoryIndexAlias();
                IndexBootstrap.ensure(TestStores.openSearch(), alias, 1, 0);
            }
            return run;
        }

        Path referenceConfig() throws Exception {
            return writeConfig(name + "_ref", reference, topic);
        }
    }

    /** The configuration file a deployment would mount; the password comes from the env. */
    private static Path writeConfig(String name, String db, String topic) throws Exception {
        String yaml =
                String.join(
                        "\n",
                        "home: " + home.resolve(name),
                        "postgres.url: " + db,
                        "postgres.user: " + SharedServices.postgres().user(),
                        "opensearch.url: " + SharedServices.openSearch().url(),
                        "opensearch.index_prefix: engram-" + name.replace('_', '-'),
                        "redis.url: " + SharedServices.redis().url(),
                        "kafka.bootstrap_servers: " + SharedServices.kafka().bootstrapServers(),
                        "kafka.turns_topic: " + topic,
                        "kafka.dlq_topic: " + topic + ".dlq",
                        "embedding.model_dir: " + TestStores.modelDir(),
                        "extraction.window_turns: 4",
                        "extraction.overlap_turns: 2",
                        "extraction.idle_gap_minutes: 1",
                        "extraction.parallelism: " + PARALLELISM,
                        "flink.checkpoint_interval_ms: 500",
                        "");
        Path file = home.resolve(name + ".yaml");
        Files.writeString(file, yaml);
        return file;
    }

    private static String startJob(Path config, Optional<String> savepoint) throws Exception {
        String job =
                rest.runJar(
                        jarId,
                        ENTRY,
                        List.of("--config", config.toString()),
                        PARALLELISM,
                        savepoint);
        rest.awaitState(job, "RUNNING", Duration.ofSeconds(60));
        rest.awaitTasksRunning(job, Duration.ofSeconds(90));
        return job;
    }

    private static void awaitMemoriesAndCheckpoint(Run run, String job) {
        assertThat(
                        until(
                                Duration.ofSeconds(120),
                                () ->
                                        TestStores.count(run.db, "select count(*) from memories")
                                                        > 0
                                                && rest.completedCheckpoints(job) > 0))
                .as("first memories written and a checkpoint completed; %s", rest.exceptions(job))
                .isTrue();
    }

    /** The reference: one bounded, uninterrupted pass over the whole topic, in this JVM. */
    private static void assertSameRowsAsOnePass(Run run, String job) throws Exception {
        ExtractionSettings settings =
                ExtractionSettings.from(
                        ConfigLoader.load(Optional.of(run.referenceConfig()), secrets));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        ExtractionJob.forKafka(settings, true, OffsetsInitializer.earliest()).build(env);
        env.execute("extraction-reference-" + run.name);
        String expected = TwoUserStream.snapshot(SharedServices.postgres(), run.reference);
        assertThat(expected).contains("$15,000");

        AtomicReference<String> actual = new AtomicReference<>();
        Await.until(
                Duration.ofSeconds(120),
                () -> {
                    actual.set(TwoUserStream.snapshot(SharedServices.postgres(), run.db));
                    return actual.get().equals(expected);
                });
        assertThat(actual.get())
                .as(
                        "rows of %s; job %s, %d restarts, exceptions %s; logs under %s",
                        run.name, rest.state(job), rest.restarts(job), rest.exceptions(job), home)
                .isEqualTo(expected);
    }

    /**
     * Cancels a job and waits until it is gone, so that the next test finds every slot free; a
     * failure here is left to the next test to report.
     */
    private static void cancelAndWait(String job) throws Exception {
        rest.cancel(job);
        until(Duration.ofSeconds(60), () -> rest.state(job).equals("CANCELED"));
    }

    /** {@link Await#until} for checks that call the REST API: a failed call is a "not yet". */
    private static boolean until(Duration timeout, java.util.concurrent.Callable<Boolean> check) {
        return Await.until(
                timeout,
                () -> {
                    try {
                        return check.call();
                    } catch (Exception e) {
                        return false;
                    }
                });
    }

    private static Path shadedJar() throws Exception {
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            return files.filter(f -> f.getFileName().toString().endsWith("-flink.jar"))
                    .findFirst()
                    .orElseThrow(
                            () -> new IllegalStateException("no shaded jar: run the package phase"))
                    .toAbsolutePath();
        }
    }
}
