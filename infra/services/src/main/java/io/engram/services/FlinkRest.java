package io.engram.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The calls a user makes on a Flink cluster's REST API (the JobManager's port 8081 in a default
 * deployment): upload a jar, run it, watch the job, stop it with a savepoint, cancel it.
 */
public final class FlinkRest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One job as {@code GET /jobs/overview} lists it. */
    public record Job(String id, String name, String state) {}

    private final String base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public FlinkRest(String base) {
        this.base = base;
    }

    public String url() {
        return base;
    }

    /** The TaskManagers registered with the JobManager. */
    public int taskManagers() throws IOException, InterruptedException {
        return get("/overview").path("taskmanagers").asInt();
    }

    /** The resource ids of the TaskManagers registered with the JobManager. */
    public java.util.Set<String> taskManagerIds() throws IOException, InterruptedException {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (JsonNode tm : get("/taskmanagers").path("taskmanagers")) {
            out.add(tm.path("id").asText());
        }
        return out;
    }

    /** Uploads a job jar; returns the id later calls name it by. */
    public String uploadJar(Path jar) throws IOException, InterruptedException {
        String boundary = "engram-" + UUID.randomUUID();
        byte[] head =
                ("--"
                                + boundary
                                + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                                + jar.getFileName()
                                + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                        .getBytes(StandardCharsets.UTF_8);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        // Streamed from the file: the jar is large and the caller's heap is not.
        HttpRequest request =
                HttpRequest.newBuilder(URI.create(base + "/jars/upload"))
                        .timeout(Duration.ofSeconds(120))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(
                                HttpRequest.BodyPublishers.concat(
                                        HttpRequest.BodyPublishers.ofByteArray(head),
                                        HttpRequest.BodyPublishers.ofFile(jar),
                                        HttpRequest.BodyPublishers.ofByteArray(tail)))
                        .build();
        JsonNode answer = send(request);
        String file = answer.path("filename").asText();
        if (!"success".equals(answer.path("status").asText()) || file.isEmpty()) {
            throw new IllegalStateException("jar upload refused: " + answer);
        }
        return Path.of(file).getFileName().toString();
    }

    /**
     * Runs an uploaded jar's {@code entryClass} with {@code args}; the job starts from {@code
     * savepoint} when given. Returns the job id.
     */
    public String runJar(
            String jarId,
            String entryClass,
            List<String> args,
            int parallelism,
            Optional<String> savepoint)
            throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode();
        body.put("entryClass", entryClass);
        args.forEach(body.putArray("programArgsList")::add);
        body.put("parallelism", parallelism);
        savepoint.ifPresent(
                s -> {
                    body.put("savepointPath", s);
                    body.put("allowNonRestoredState", false);
                });
        JsonNode answer = post("/jars/" + jarId + "/run", body, Duration.ofSeconds(120));
        String job = answer.path("jobid").asText();
        if (job.isEmpty()) {
            throw new IllegalStateException("jar run refused: " + answer);
        }
        return job;
    }

    public List<Job> jobs() throws IOException, InterruptedException {
        List<Job> out = new ArrayList<>();
        for (JsonNode j : get("/jobs/overview").path("jobs")) {
            out.add(
                    new Job(
                            j.path("jid").asText(),
                            j.path("name").asText(),
                            j.path("state").asText()));
        }
        return out;
    }

    /** The resource ids of the TaskManagers that run some task of the job. */
    public java.util.Set<String> taskManagersOf(String job)
            throws IOException, InterruptedException {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (JsonNode vertex : get("/jobs/" + job).path("vertices")) {
            String path =
                    "/jobs/" + job + "/vertices/" + vertex.path("id").asText() + "/taskmanagers";
            for (JsonNode tm : get(path).path("taskmanagers")) {
                out.add(tm.path("taskmanager-id").asText());
            }
        }
        out.remove("");
        return out;
    }

    /** {@code RUNNING}, {@code RESTARTING}, {@code FINISHED}, … */
    public String state(String job) throws IOException, InterruptedException {
        return get("/jobs/" + job).path("state").asText();
    }

    /** How many checkpoints of the job completed (since its last restore). */
    public int completedCheckpoints(String job) throws IOException, InterruptedException {
        return get("/jobs/" + job + "/checkpoints").path("counts").path("completed").asInt();
    }

    /** Where the job's state was last restored from (empty: it was never restored). */
    public Optional<String> restoredFrom(String job) throws IOException, InterruptedException {
        JsonNode restored = get("/jobs/" + job + "/checkpoints").path("latest").path("restored");
        return restored.isMissingNode() || restored.isNull()
                ? Optional.empty()
                : Optional.of(restored.path("external_path").asText());
    }

    /** The job's {@code numRestarts} metric: how often it failed over. */
    public long restarts(String job) throws IOException, InterruptedException {
        for (JsonNode m : get("/jobs/" + job + "/metrics?get=numRestarts")) {
            return Long.parseLong(m.path("value").asText("0"));
        }
        return 0;
    }

    /** Stops the job with a savepoint under {@code directory} and returns the savepoint's path. */
    public String stopWithSavepoint(String job, String directory, Duration timeout)
            throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode();
        body.put("targetDirectory", directory);
        body.put("drain", false);
        String trigger =
                post("/jobs/" + job + "/stop", body, Duration.ofSeconds(30))
                        .path("request-id")
                        .asText();
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            JsonNode status = get("/jobs/" + job + "/savepoints/" + trigger);
            if ("COMPLETED".equals(status.path("status").path("id").asText())) {
                JsonNode op = status.path("operation");
                if (op.has("failure-cause")) {
                    throw new IllegalStateException("savepoint failed: " + op.get("failure-cause"));
                }
                return op.path("location").asText();
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("no savepoint of " + job + " within " + timeout);
    }

    /**
     * Waits until every task of the job runs: a job is {@code RUNNING} as soon as it is scheduled,
     * before its tasks have slots and have restored their state.
     */
    public void awaitTasksRunning(String job, Duration timeout)
            throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        JsonNode last = null;
        while (Instant.now().isBefore(deadline)) {
            last = get("/jobs/" + job);
            boolean all = last.path("vertices").size() > 0;
            // A vertex reads RUNNING as soon as one of its subtasks runs: count them all.
            for (JsonNode vertex : last.path("vertices")) {
                all &=
                        vertex.path("tasks").path("RUNNING").asInt()
                                == vertex.path("parallelism").asInt();
            }
            if (all) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(
                "tasks of "
                        + job
                        + " not all running within "
                        + timeout
                        + ": "
                        + (last == null ? "" : last.path("vertices").toString())
                        + "; "
                        + exceptions(job));
    }

    /** Cancels the job (its retained checkpoints stay). */
    public void cancel(String job) throws IOException, InterruptedException {
        HttpRequest request =
                HttpRequest.newBuilder(URI.create(base + "/jobs/" + job + "?mode=cancel"))
                        .timeout(Duration.ofSeconds(30))
                        .method("PATCH", HttpRequest.BodyPublishers.noBody())
                        .build();
        send(request);
    }

    /** Waits until the job is in {@code state}; fails early if it reaches another final state. */
    public void awaitState(String job, String state, Duration timeout)
            throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        String last = "";
        while (Instant.now().isBefore(deadline)) {
            last = state(job);
            if (last.equals(state)) {
                return;
            }
            if (List.of("FAILED", "CANCELED", "FINISHED").contains(last)) {
                break;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(
                "job " + job + " is " + last + ", not " + state + "; " + exceptions(job));
    }

    /** The job's root exception, for failure messages. */
    public String exceptions(String job) {
        try {
            return get("/jobs/" + job + "/exceptions").path("exceptionHistory").toString();
        } catch (Exception e) {
            return "(no exceptions: " + e + ")";
        }
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        return send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .timeout(Duration.ofSeconds(30))
                        .GET()
                        .build());
    }

    private JsonNode post(String path, JsonNode body, Duration timeout)
            throws IOException, InterruptedException {
        return send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .timeout(timeout)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                        .build());
    }

    private JsonNode send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IOException(
                    request.method()
                            + " "
                            + request.uri().getPath()
                            + " answered "
                            + response.statusCode()
                            + ": "
                            + response.body());
        }
        try {
            return response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON from " + request.uri(), e);
        }
    }
}
