package io.engram.local;

import io.engram.config.EngramConfig;
import io.engram.jobs.extraction.ExtractionSettings;
import io.engram.jobs.maintenance.MaintenanceSettings;
import io.engram.jobs.runtime.LocalFlinkCluster;
import io.engram.jobs.runtime.LocalJobs;
import io.engram.jobs.runtime.MaintenanceScheduler;
import io.engram.services.LocalServices;
import io.engram.serving.ServingApp;
import io.engram.store.StorageBootstrap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything Engram needs on one machine: PostgreSQL, Kafka, OpenSearch and Redis as child
 * processes, a Flink mini cluster and the serving tier, with all data under ENGRAM_HOME.
 */
public final class LocalStack implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalStack.class);

    private final EngramConfig config;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final LocalServices services;
    private final LocalFlinkCluster flink;
    private final MaintenanceScheduler maintenance;
    private final ServingApp serving;
    private final String apiKey;
    private final Duration startupTime;
    private volatile boolean closed;

    private LocalStack(
            EngramConfig config,
            FileChannel lockChannel,
            FileLock lock,
            LocalServices services,
            LocalFlinkCluster flink,
            MaintenanceScheduler maintenance,
            ServingApp serving,
            String apiKey,
            Duration startupTime) {
        this.config = config;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.services = services;
        this.flink = flink;
        this.maintenance = maintenance;
        this.serving = serving;
        this.apiKey = apiKey;
        this.startupTime = startupTime;
    }

    public static LocalStack start(EngramConfig base) {
        long t0 = System.nanoTime();
        Path home = base.home();
        FileChannel lockChannel = null;
        FileLock lock = null;
        LocalServices services = null;
        LocalFlinkCluster flink = null;
        try {
            Files.createDirectories(home);
            lockChannel =
                    FileChannel.open(
                            home.resolve(".lock"),
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE);
            try {
                lock = lockChannel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // held by this JVM
            }
            if (lock == null) {
                throw new IllegalStateException(
                        "another Engram local stack is running with ENGRAM_HOME=" + home);
            }
            EngramConfig.Local local = base.local();
            services =
                    LocalServices.start(
                            new LocalServices.Spec(
                                    home,
                                    "engram",
                                    local.postgresPort(),
                                    local.kafkaPort(),
                                    local.kafkaControllerPort(),
                                    local.openSearchPort(),
                                    local.redisPort(),
                                    local.openSearchHeap(),
                                    local.kafkaHeap(),
                                    true));
            EngramConfig config = pointAt(base, services);
            prepareStorage(config);

            String apiKey = BootstrapKey.resolve(config.auth().bootstrapKey(), home);
            StorageBootstrap.registerAdminKey(
                    config.postgres(),
                    apiKey,
                    BootstrapKey.TENANT,
                    BootstrapKey.PROJECT,
                    BootstrapKey.ENVIRONMENT);

            flink = LocalFlinkCluster.start(home.resolve("flink"), 4);
            LocalJobs.submitExtraction(
                    flink,
                    ExtractionSettings.from(config),
                    home.resolve("flink").resolve("checkpoints"));
            MaintenanceScheduler maintenance =
                    new MaintenanceScheduler(
                                    flink,
                                    MaintenanceSettings.from(config),
                                    config.maintenance().dailyAtUtc(),
                                    Clock.systemUTC())
                            .start();
            ServingApp serving = ServingApp.start(config);
            writeServicesEnv(home, config);
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            return new LocalStack(
                    config, lockChannel, lock, services, flink, maintenance, serving, apiKey, took);
        } catch (IOException e) {
            cleanUp(flink, services, lock, lockChannel);
            throw new UncheckedIOException("cannot use ENGRAM_HOME=" + home, e);
        } catch (Exception e) {
            cleanUp(flink, services, lock, lockChannel);
            throw e instanceof RuntimeException r
                    ? r
                    : new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * {@code ENGRAM_*} settings for a stack under {@code home} with every port (API and services)
     * chosen free, for benchmarks and tests that run next to other stacks.
     */
    public static java.util.Map<String, String> freePortSettings(Path home) {
        java.util.Map<String, String> env = new java.util.HashMap<>();
        env.put("ENGRAM_HOME", home.toString());
        env.put("ENGRAM_PORT", "0");
        for (String service :
                List.of("POSTGRES", "KAFKA", "KAFKA_CONTROLLER", "OPENSEARCH", "REDIS")) {
            env.put("ENGRAM_LOCAL_" + service + "_PORT", "0");
        }
        return env;
    }

    /** {@code base} with the addresses of the running services filled in. */
    public static EngramConfig pointAt(EngramConfig base, LocalServices services) {
        return base.withServices(
                services.postgres().jdbcUrl("engram"),
                services.postgres().user(),
                services.postgres().password(),
                services.kafka().bootstrapServers(),
                services.openSearch().url(),
                services.redis().url());
    }

    /** Migrates the schema and creates the topics and the index alias, if missing. */
    public static void prepareStorage(EngramConfig config) {
        LOG.info("storage ready: {}", StorageBootstrap.prepare(config));
    }

    /**
     * Writes the running services' addresses as ENGRAM_* variables (owner-readable only), so
     * commands like bin/engram-maintenance can reach this stack from another shell.
     */
    static void writeServicesEnv(Path home, EngramConfig c) throws IOException {
        Path file = home.resolve("services.env");
        String text =
                "ENGRAM_POSTGRES_URL='"
                        + c.postgres().url()
                        + "'\nENGRAM_POSTGRES_USER='"
                        + c.postgres().user()
                        + "'\nENGRAM_POSTGRES_PASSWORD='"
                        + c.postgres().password()
                        + "'\nENGRAM_OPENSEARCH_URL='"
                        + c.openSearch().url()
                        + "'\nENGRAM_REDIS_URL='"
                        + c.redis().url()
                        + "'\nENGRAM_KAFKA_BOOTSTRAP_SERVERS='"
                        + c.kafka().bootstrapServers()
                        + "'\n";
        Files.deleteIfExists(file);
        Files.createFile(
                file,
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, text);
    }

    private static void cleanUp(
            LocalFlinkCluster flink, LocalServices services, FileLock lock, FileChannel channel) {
        if (flink != null) {
            try {
                flink.close();
            } catch (Exception e) {
                LOG.warn("stopping Flink failed", e);
            }
        }
        if (services != null) {
            services.close();
        }
        try {
            if (lock != null) {
                lock.release();
            }
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            LOG.debug("releasing the home lock: {}", e.toString());
        }
    }

    public String url() {
        return "http://" + config.server().host() + ":" + serving.port();
    }

    public int port() {
        return serving.port();
    }

    public String apiKey() {
        return apiKey;
    }

    /** The configuration with the addresses of the running services filled in. */
    public EngramConfig config() {
        return config;
    }

    public LocalServices services() {
        return services;
    }

    public LocalFlinkCluster flink() {
        return flink;
    }

    public Duration startupTime() {
        return startupTime;
    }

    /** Stops the serving tier first (no new requests), then Flink, then the services. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            serving.close();
        } catch (RuntimeException e) {
            LOG.warn("stopping the serving tier failed", e);
        }
        maintenance.close();
        try {
            Files.deleteIfExists(config.home().resolve("services.env"));
        } catch (IOException e) {
            LOG.debug("removing services.env: {}", e.toString());
        }
        cleanUp(flink, services, lock, lockChannel);
    }
}
