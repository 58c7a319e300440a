package io.engram.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.engram.config.EngramConfig;
import io.engram.services.Await;
import io.engram.services.LocalServices.Stoppable;
import io.engram.store.opensearch.IndexInspection;
import io.engram.store.opensearch.MemoryQuery;
import io.engram.store.opensearch.OpenSearchClients;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.query_dsl.Query;

/**
 * OpenSearch, PostgreSQL and Redis each stopped for a while and started again while turns stream in
 * and recalls run, on the whole local stack. Afterwards every accepted turn was stored by the job,
 * PostgreSQL and the index agree on the active memories, and recall answered every request
 * (degraded while a store was down). The figures per phase are printed and written to {@code
 * target/faults-under-load.md} ({@code -Dfaults.results=FILE} writes them there too).
 */
class FaultsUnderLoadIT {

    private static final Duration OUTAGE = Duration.ofSeconds(12);
    private static final Duration AFTER = Duration.ofSeconds(15);
    private static final int USERS = 12;

    @TempDir Path home;

    /** What happened in one phase of the run. */
    private static final class Phase {
        final String name;
        final AtomicInteger turnsSent = new AtomicInteger();
        final AtomicInteger turnsAccepted = new AtomicInteger();
        final Map<Integer, AtomicInteger> turnRefusals = new ConcurrentHashMap<>();
        final AtomicInteger recalls = new AtomicInteger();
        final AtomicInteger recallsDegraded = new AtomicInteger();
        final AtomicInteger recallsWithMemories = new AtomicInteger();
        final Map<String, AtomicInteger> recallFailures = new ConcurrentHashMap<>();
        final Set<String> writePlane = ConcurrentHashMap.newKeySet();
        Duration length = Duration.ZERO;

        Phase(String name) {
            this.name = name;
        }
    }

    /** Turns accepted (202), by user, session and turn id: what the job must store. */
    private final Set<String> acceptedTurns = ConcurrentHashMap.newKeySet();

    @Test
    void storesStoppedAndRestartedLoseNothingAcceptedAndRecallKeepsAnswering() throws Exception {
        EngramConfig config = StackClient.testConfig(home, 1000);
        List<Phase> phases = new ArrayList<>();
        try (LocalStack stack = LocalStack.start(config)) {
            StackClient api = new StackClient(stack);
            AtomicReference<Phase> current = new AtomicReference<>(new Phase("healthy"));
            phases.add(current.get());
            AtomicBoolean running = new AtomicBoolean(true);
            Thread turns = new Thread(() -> sendTurns(api, current, running), "fault-turns");
            Thread recalls = new Thread(() -> recall(api, current, running), "fault-recalls");
            Thread health =
                    new Thread(() -> watchWritePlane(api, current, running), "fault-health");
            turns.start();
            recalls.start();
            health.start();
            try {
                run(current, Duration.ofSeconds(10), () -> {});
                for (Stoppable service : Stoppable.values()) {
                    Phase down = new Phase(label(service) + " stopped");
                    phases.add(down);
                    current.set(down);
                    run(current, OUTAGE, () -> stack.services().stop(service));
                    Phase back = new Phase(label(service) + " restarted");
                    phases.add(back);
                    current.set(back);
                    run(current, AFTER, () -> stack.services().restart(service));
                }
            } finally {
                running.set(false);
                turns.join(10_000);
                recalls.join(10_000);
                health.join(10_000);
            }

            // Every accepted turn is stored by the job once it catches up.
            boolean caughtUp =
                    Await.until(
                            Duration.ofSeconds(240),
                            () -> api.drained() && storedTurns(api).containsAll(acceptedTurns));
            Set<String> stored = storedTurns(api);
            Set<String> lost = new HashSet<>(acceptedTurns);
            lost.removeAll(stored);
            OpenSearchClient index =
                    OpenSearchClients.forConfig(
                            stack.config().openSearch(), Duration.ofSeconds(10));
            IndexInspection.refresh(index, stack.config().memoryIndexAlias());
            Set<String> inPostgres = activeInPostgres(api);
            Set<String> inIndex = activeInIndex(index, stack.config());
            Set<String> onlyPostgres = new HashSet<>(inPostgres);
            onlyPostgres.removeAll(inIndex);
            Set<String> onlyIndex = new HashSet<>(inIndex);
            onlyIndex.removeAll(inPostgres);
            String report =
                    report(
                            phases,
                            stored.size(),
                            lost.size(),
                            inPostgres.size(),
                            onlyPostgres.size(),
                            onlyIndex.size());
            System.out.println(report);
            Files.writeString(Path.of("target/faults-under-load.md"), report);
            String results = System.getProperty("faults.results");
            if (results != null && !results.isBlank()) {
                Files.writeString(Path.of(results), report);
            }

            assertThat(caughtUp).as("the job stored every accepted turn; lost: " + lost).isTrue();
            assertThat(onlyPostgres).as("active in PostgreSQL, missing from the index").isEmpty();
            assertThat(onlyIndex).as("active in the index, not in PostgreSQL").isEmpty();
            for (Phase p : phases) {
                assertThat(p.recallFailures).as(p.name + ": recalls not answered 200").isEmpty();
                assertThat(p.turnsAccepted.get()).as(p.name + ": turns accepted").isPositive();
            }
        }
    }

    private static String label(Stoppable service) {
        return switch (service) {
            case POSTGRES -> "PostgreSQL";
            case OPENSEARCH -> "OpenSearch";
            case REDIS -> "Redis";
        };
    }

    /** Runs {@code action} (a stop or a restart), then lets the load run to the phase's end. */
    private static void run(
            AtomicReference<Phase> current, Duration length, ThrowingRunnable action)
            throws Exception {
        Instant start = Instant.now();
        action.run();
        Duration left = length.minus(Duration.between(start, Instant.now()));
        if (!left.isNegative()) {
            // An outage of a set length under load is the experiment; what must hold afterwards
            // is awaited with a deadline (Await.until) below.
            Thread.sleep(left.toMillis());
        }
        current.get().length = Duration.between(start, Instant.now());
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static final String[] PETS = {"Rex", "Luna", "Milo", "Bella", "Otto", "Nala"};
    private static final String[] CITIES = {"Leeds", "Porto", "Ghent", "Lyon", "Bergen", "Turin"};

    /** Two-turn sessions, ten a second, round-robin over the users. */
    private void sendTurns(StackClient api, AtomicReference<Phase> current, AtomicBoolean running) {
        int n = 0;
        while (running.get()) {
            Phase p = current.get();
            String user = "load" + (n % USERS);
            String session = "s" + n;
            String body =
                    "{\"user_id\":\""
                            + user
                            + "\",\"session_id\":\""
                            + session
                            + "\",\"end_session\":true,\"turns\":["
                            + "{\"turn_id\":\"a\",\"role\":\"user\",\"speaker\":\"Sam\",\"content\":\"I adopted a dog named "
                            + PETS[n % PETS.length]
                            + n
                            + " last week.\"},"
                            + "{\"turn_id\":\"b\",\"role\":\"user\",\"speaker\":\"Sam\",\"content\":\"I work at a bakery in "
                            + CITIES[n % CITIES.length]
                            + " now.\"}]}";
            p.turnsSent.addAndGet(2);
            try {
                HttpResponse<String> r = api.call("POST", "/v1/turns", body);
                if (r.statusCode() == 202) {
                    p.turnsAccepted.addAndGet(2);
                    acceptedTurns.add(user + "/" + session + "/a");
                    acceptedTurns.add(user + "/" + session + "/b");
                } else {
                    p.turnRefusals
                            .computeIfAbsent(r.statusCode(), k -> new AtomicInteger())
                            .addAndGet(2);
                }
            } catch (Exception e) {
                p.turnRefusals.computeIfAbsent(-1, k -> new AtomicInteger()).addAndGet(2);
            }
            n++;
            pause(100);
        }
    }

    /** Twenty recalls a second for random users. */
    private static void recall(
            StackClient api, AtomicReference<Phase> current, AtomicBoolean running) {
        int n = 0;
        while (running.get()) {
            Phase p = current.get();
            String body =
                    "{\"user_id\":\"load"
                            + (n * 7 % USERS)
                            + "\",\"query\":\"What is the name of my dog and where do I work? ("
                            + n
                            + ")\"}";
            p.recalls.incrementAndGet();
            try {
                HttpResponse<String> r = api.call("POST", "/v1/memories/search", body);
                if (r.statusCode() != 200) {
                    p.recallFailures
                            .computeIfAbsent(
                                    String.valueOf(r.statusCode()), k -> new AtomicInteger())
                            .incrementAndGet();
                } else {
                    JsonNode answer = StackClient.JSON.readTree(r.body());
                    if (!answer.path("degraded").isEmpty()) {
                        p.recallsDegraded.incrementAndGet();
                    }
                    if (!answer.path("memories").isEmpty()) {
                        p.recallsWithMemories.incrementAndGet();
                    }
                }
            } catch (Exception e) {
                p.recallFailures
                        .computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicInteger())
                        .incrementAndGet();
            }
            n++;
            pause(50);
        }
    }

    /** The write plane's state as the serving tier reports it, every second. */
    private static void watchWritePlane(
            StackClient api, AtomicReference<Phase> current, AtomicBoolean running) {
        while (running.get()) {
            Phase p = current.get();
            try {
                HttpResponse<String> r = api.call("GET", "/health/write-plane", null);
                p.writePlane.add(StackClient.JSON.readTree(r.body()).path("state").asText());
            } catch (Exception e) {
                p.writePlane.add("no answer");
            }
            pause(1000);
        }
    }

    /** Paces the load generators (their rate), never waits for a condition. */
    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Set<String> storedTurns(StackClient api) {
        return new HashSet<>(
                api
                        .rows(
                                "select user_id || '/' || session_id || '/' || turn_id from turns_seen"
                                        + " where user_id like 'load%'")
                        .stream()
                        .toList());
    }

    private static Set<String> activeInPostgres(StackClient api) {
        return new HashSet<>(
                api.rows(
                        "select id from memories where user_id like 'load%' and status = 'active'"));
    }

    private static Set<String> activeInIndex(OpenSearchClient index, EngramConfig c)
            throws Exception {
        Set<String> ids = new HashSet<>();
        Query loadUsers = Query.of(q -> q.prefix(p -> p.field("user_id").value("load")));
        Query active = IndexInspection.allOf("status", "active");
        var hits =
                index.search(
                                s ->
                                        s.index(c.memoryIndexAlias())
                                                .size(10000)
                                                .source(src -> src.fetch(false))
                                                .query(
                                                        q ->
                                                                q.bool(
                                                                        b ->
                                                                                b.filter(
                                                                                        loadUsers,
                                                                                        active))),
                                Void.class)
                        .hits()
                        .hits();
        for (var hit : hits) {
            ids.add(MemoryQuery.hitId(hit));
        }
        return ids;
    }

    private static String report(
            List<Phase> phases, int stored, int lost, int active, int onlyPostgres, int onlyIndex) {
        StringBuilder out = new StringBuilder();
        out.append("# Faults under load\n\n")
                .append(
                        "Command: `benchmarks/bin/faults` (the integration test FaultsUnderLoadIT).\n\n")
                .append("Date ")
                .append(java.time.LocalDate.now())
                .append(
                        ". The whole local stack on this machine (2 cores). Load: two-turn sessions")
                .append(" at 10/s over ")
                .append(USERS)
                .append(" users and recalls at about 20/s, sent one at a time each. Each store is")
                .append(" stopped for ")
                .append(OUTAGE.toSeconds())
                .append(" s (its process ended: clients see connections refused), started again on")
                .append(" its port with its data, then the load runs ")
                .append(AFTER.toSeconds())
                .append(" s more before the next.\n\n")
                .append(
                        "| phase | length s | turns sent | accepted | refused (status: n) | recalls |")
                .append(" answered 200 | of them degraded | with memories | not answered 200 |")
                .append(" write plane (GET /health/write-plane, each second) |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Phase p : phases) {
            int failures = p.recallFailures.values().stream().mapToInt(AtomicInteger::get).sum();
            out.append("| ")
                    .append(p.name)
                    .append(" | ")
                    .append(String.format("%.1f", p.length.toMillis() / 1000.0))
                    .append(" | ")
                    .append(p.turnsSent.get())
                    .append(" | ")
                    .append(p.turnsAccepted.get())
                    .append(" | ")
                    .append(
                            p.turnRefusals.isEmpty()
                                    ? "0"
                                    : new LinkedHashMap<>(p.turnRefusals).toString())
                    .append(" | ")
                    .append(p.recalls.get())
                    .append(" | ")
                    .append(p.recalls.get() - failures)
                    .append(" | ")
                    .append(p.recallsDegraded.get())
                    .append(" | ")
                    .append(p.recallsWithMemories.get())
                    .append(" | ")
                    .append(failures == 0 ? "0" : new LinkedHashMap<>(p.recallFailures).toString())
                    .append(" | ")
                    .append(String.join(", ", new java.util.TreeSet<>(p.writePlane)))
                    .append(" |\n");
        }
        int accepted = phases.stream().mapToInt(p -> p.turnsAccepted.get()).sum();
        out.append("\nAfterwards: ")
                .append(accepted)
                .append(" turns accepted, ")
                .append(stored)
                .append(" stored by the extraction job (turns_seen), ")
                .append(lost)
                .append(" lost; ")
                .append(active)
                .append(" active memories in PostgreSQL, ")
                .append(onlyPostgres)
                .append(" of them missing from the index, ")
                .append(onlyIndex)
                .append(" active in the index but not in PostgreSQL.\n");
        return out.toString();
    }
}
