package io.engram.serving.recall;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.embedding.OnnxEmbedder;
import io.engram.embedding.TestEmbedders;
import io.engram.memory.Scope;
import io.engram.services.Await;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class EmbeddingWorkerTest {

    private static final Scope OWNER = new Scope("acme", "default", "prod", "caroline");

    private static Vertx vertx;
    private static OnnxEmbedder model;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        model = TestEmbedders.defaultModel();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
        model.close();
    }

    @Test
    void textsSharedAcrossThreadsComeBackInOrderAndEqualToOneByOne() throws Exception {
        EmbeddingWorker worker = new EmbeddingWorker(vertx, model, 2, 8);
        List<String> texts =
                List.of(
                        "What gift would my wife like?",
                        "What are my wife's hobbies?",
                        "What does my wife enjoy doing on weekends, and which shops does she like?");
        assertThat(model.batches()).isFalse(); // the default model: one text per model call
        List<float[]> vectors = worker.embed(OWNER, texts).await(30, TimeUnit.SECONDS);
        assertThat(vectors).hasSize(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            assertThat(vectors.get(i)).as(texts.get(i)).isEqualTo(model.embed(texts.get(i)));
        }
    }

    @Test
    void isBusyWhileMoreThanTwoTextsPerThreadWait() throws Exception {
        EmbeddingWorker worker = new EmbeddingWorker(vertx, model, 1, 8);
        assertThat(worker.busy()).isFalse();
        CountDownLatch release = holdEmbeddingThreads();
        var two = worker.embed(OWNER, List.of("alpha", "beta"));
        assertThat(worker.busy()).isFalse();
        var three = worker.embed(OWNER, List.of("gamma"));
        assertThat(worker.busy()).isTrue();
        release.countDown();
        two.await(30, TimeUnit.SECONDS);
        three.await(30, TimeUnit.SECONDS);
        assertThat(worker.busy()).isFalse();
    }

    @Test
    void aFullBacklogFailsAtOnceInsteadOfQueueing() throws Exception {
        EmbeddingWorker worker = new EmbeddingWorker(vertx, model, 1, 1);
        CountDownLatch release = holdEmbeddingThreads();
        var first = worker.embed(OWNER, List.of("one", "two", "three"));
        var second = worker.embed(OWNER, List.of("four"));
        assertThat(second.failed()).isTrue();
        assertThat(second.cause()).hasMessageContaining("backlog full");
        release.countDown();
        assertThat(first.await(30, TimeUnit.SECONDS)).hasSize(3);
    }

    @Test
    void queriesFillingTheirBacklogDoNotRefuseAWrite() throws Exception {
        EmbeddingWorker worker = new EmbeddingWorker(vertx, model, 1, 1);
        CountDownLatch release = holdEmbeddingThreads();
        var query = worker.embed(OWNER, List.of("what does she like"), 30_000);
        var refusedQuery = worker.embed(OWNER, List.of("and what else"), 30_000);
        assertThat(refusedQuery.failed()).isTrue();
        assertThat(refusedQuery.cause()).hasMessageContaining("backlog full");

        var write = worker.embed(OWNER, List.of("Caroline likes pottery"));
        assertThat(write.failed()).as("a write while the query backlog is full").isFalse();
        // Writes have a backlog of their own, as bounded as the queries'.
        var refusedWrite = worker.embed(OWNER, List.of("one write too many"));
        assertThat(refusedWrite.failed()).isTrue();
        assertThat(refusedWrite.cause()).hasMessageContaining("backlog full");

        release.countDown();
        assertThat(write.await(30, TimeUnit.SECONDS))
                .containsExactly(model.embed("Caroline likes pottery"));
        assertThat(query.await(30, TimeUnit.SECONDS)).hasSize(1);
    }

    @Test
    void aTextWhoseCallerStoppedWaitingIsNotEmbedded() throws Exception {
        EmbeddingWorker worker = new EmbeddingWorker(vertx, model, 1, 8);
        CountDownLatch release = holdEmbeddingThreads();
        var late = worker.embed(OWNER, List.of("still queued when the deadline passes"), 50);
        Await.until(Duration.ofSeconds(10), late::isComplete);
        assertThat(late.failed()).isTrue();
        release.countDown();
        Await.until(Duration.ofSeconds(10), () -> worker.expired() == 1);
        assertThat(worker.busy()).isFalse();
        // A caller that waits long enough still gets its vector.
        assertThat(worker.embed(OWNER, List.of("in time"), 30_000).await(30, TimeUnit.SECONDS))
                .containsExactly(model.embed("in time"));
    }

    /**
     * Keeps the embedding pool's threads (at most two in these tests) busy until the latch is
     * released, so calls made meanwhile are still waiting whatever the machine's speed.
     */
    private static CountDownLatch holdEmbeddingThreads() {
        CountDownLatch release = new CountDownLatch(1);
        WorkerExecutor pool = vertx.createSharedWorkerExecutor("engram-embedding", 2);
        for (int i = 0; i < 2; i++) {
            pool.executeBlocking(
                    () -> {
                        release.await();
                        return null;
                    },
                    false);
        }
        return release;
    }
}
