package io.engram.events;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the turn topic and its dead-letter topic if they do not exist yet, with the broker's
 * append time as each record's timestamp.
 */
public final class TopicBootstrap {

    private TopicBootstrap() {}

    /** Returns the topics that were created now (empty when all existed). */
    public static List<String> ensure(
            String bootstrapServers, List<String> topics, int partitions, short replication) {
        try (Admin admin =
                Admin.create(
                        Map.of(
                                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                                bootstrapServers,
                                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                                30_000))) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<String> missing = topics.stream().filter(t -> !existing.contains(t)).toList();
            if (missing.isEmpty()) {
                return missing;
            }
            // The broker stamps each record when it appends it: the extraction job holds a
            // forget against every turn stamped before the notice, whoever produced them.
            List<NewTopic> requests =
                    missing.stream()
                            .map(
                                    t ->
                                            new NewTopic(t, partitions, replication)
                                                    .configs(
                                                            Map.of(
                                                                    "message.timestamp.type",
                                                                    "LogAppendTime")))
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
                    "cannot create topics " + topics + " on " + bootstrapServers + ": " + e, e);
        }
    }
}
