package io.engram.events;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the turn topic and its dead-letter topic if they do not exist yet, with the broker's
 * append time as each record's timestamp.
 */
public final class TopicBootstrap {

    private TopicBootstrap() {}

    /**
     * The broker stamps each record when it appends it: the extraction job holds a forget against
     * every turn stamped before the notice, whoever produced the turn and whatever time it claims.
     */
    static final String TIMESTAMP_TYPE = "message.timestamp.type";

    static final String LOG_APPEND_TIME = "LogAppendTime";

    /**
     * Returns the topics that were created now (empty when all existed). Existing topics that still
     * take the producers' timestamps (created by an earlier version) are switched to the broker's.
     */
    public static List<String> ensure(
            String bootstrapServers, List<String> topics, int partitions, short replication) {
        return ensure(
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
                topics,
                partitions,
                replication);
    }

    /** As above, with the admin client's settings (bootstrap servers, TLS). */
    public static List<String> ensure(
            Map<String, Object> client, List<String> topics, int partitions, short replication) {
        Map<String, Object> settings = new HashMap<>(client);
        settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        Object bootstrapServers = client.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
        try (Admin admin = Admin.create(settings)) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<String> missing = topics.stream().filter(t -> !existing.contains(t)).toList();
            appendTimeOn(admin, topics.stream().filter(existing::contains).toList());
            if (missing.isEmpty()) {
                return missing;
            }
            List<NewTopic> requests =
                    missing.stream()
                            .map(
                                    t ->
                                            new NewTopic(t, partitions, replication)
                                                    .configs(
                                                            Map.of(
                                                                    TIMESTAMP_TYPE,
                                                                    LOG_APPEND_TIME)))
                            .toList();
            try {
                admin.createTopics(requests).all().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            return missing;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "cannot create or configure topics "
                            + topics
                            + " on "
                            + bootstrapServers
                            + ": "
                            + e,
                    e);
        }
    }

    private static void appendTimeOn(Admin admin, List<String> topics)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (topics.isEmpty()) {
            return;
        }
        List<ConfigResource> resources =
                topics.stream().map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
        Map<ConfigResource, Collection<AlterConfigOp>> changes = new HashMap<>();
        admin.describeConfigs(resources)
                .all()
                .get(30, TimeUnit.SECONDS)
                .forEach(
                        (resource, config) -> {
                            ConfigEntry type = config.get(TIMESTAMP_TYPE);
                            if (type == null || !LOG_APPEND_TIME.equals(type.value())) {
                                changes.put(
                                        resource,
                                        List.of(
                                                new AlterConfigOp(
                                                        new ConfigEntry(
                                                                TIMESTAMP_TYPE, LOG_APPEND_TIME),
                                                        AlterConfigOp.OpType.SET)));
                            }
                        });
        if (!changes.isEmpty()) {
            admin.incrementalAlterConfigs(changes).all().get(30, TimeUnit.SECONDS);
        }
    }
}
