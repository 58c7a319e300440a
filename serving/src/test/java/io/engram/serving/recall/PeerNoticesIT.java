package io.engram.serving.recall;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.cache.RedisConnection;
import io.engram.config.EngramConfig;
import io.engram.embedding.CachingEmbedder;
import io.engram.embedding.OnnxEmbedder;
import io.engram.embedding.TestEmbedders;
import io.engram.memory.Scope;
import io.engram.services.Await;
import io.engram.services.SharedServices;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two serving instances' embedding caches on one real Redis: a forget on one reaches the other's,
 * and an instance that lost its listening connection drops what it cached before it listens again
 * (KeyRevocationIT: a revoked key, through the API of two running instances).
 */
class PeerNoticesIT {

    private static final Scope ANN_P1 = new Scope("acme", "p1", "dev", "ann");
    private static final Scope ANN_P2 = new Scope("acme", "p2", "dev", "ann");
    private static final Scope BOB = new Scope("acme", "p1", "dev", "bob");
    private static final Scope ANN_OTHER_TENANT = new Scope("globex", "p1", "dev", "ann");

    /** How often either instance had every key looked up again. */
    private static final java.util.concurrent.atomic.AtomicInteger KEY_LOOKUPS_RECHECKED =
            new java.util.concurrent.atomic.AtomicInteger();

    private static Vertx vertx;
    private static OnnxEmbedder model;
    private static RedisConnection redis;
    private static Instance here;
    private static Instance there;

    /** One serving instance's cache, embedder and broadcast. */
    private record Instance(CachingEmbedder cache, EmbeddingWorker worker, PeerNotices forgets) {
        static Instance start() {
            CachingEmbedder cache = new CachingEmbedder(model, 1000);
            EmbeddingWorker worker = new EmbeddingWorker(vertx, cache, 1, 8);
            PeerNotices forgets =
                    new PeerNotices(
                            vertx,
                            redis,
                            worker::forget,
                            () -> {},
                            KEY_LOOKUPS_RECHECKED::incrementAndGet,
                            500);
            forgets.start();
            assertThat(Await.until(Duration.ofSeconds(10), forgets::listening)).isTrue();
            return new Instance(cache, worker, forgets);
        }

        void embed(Scope owner, String text) throws Exception {
            worker.embed(owner, List.of(text), 10_000).await(10, TimeUnit.SECONDS);
        }
    }

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        model = TestEmbedders.defaultModel();
        redis =
                RedisConnection.open(
                        EngramConfig.Redis.at(SharedServices.redis().url(), ""),
                        Duration.ofSeconds(2));
        here = Instance.start();
        there = Instance.start();
    }

    @AfterAll
    static void stop() throws Exception {
        here.forgets().close();
        there.forgets().close();
        redis.close();
        vertx.close().await(10, TimeUnit.SECONDS);
        model.close();
    }

    @Test
    void aForgetReachesTheOtherInstancesCacheAndOnlyForItsUser() throws Exception {
        for (Scope owner : List.of(ANN_P1, ANN_P2, BOB, ANN_OTHER_TENANT)) {
            there.embed(owner, "what should I get my wife for her birthday");
        }
        here.embed(ANN_P1, "my sister's wedding in June");
        long heard = there.forgets().received();

        // every project of ann in acme/dev
        here.forgets().forget("acme", "dev", "ann", null).await(10, TimeUnit.SECONDS);

        assertThat(here.cache().held(ANN_P1)).isZero();
        assertThat(
                        Await.until(
                                Duration.ofSeconds(10),
                                () ->
                                        there.cache().held(ANN_P1) == 0
                                                && there.cache().held(ANN_P2) == 0))
                .as("the other instance dropped ann's texts")
                .isTrue();
        assertThat(there.forgets().received()).isEqualTo(heard + 1);
        assertThat(there.cache().held(BOB)).isEqualTo(1);
        assertThat(there.cache().held(ANN_OTHER_TENANT)).isEqualTo(1);
    }

    @Test
    void aForgetOfOneProjectLeavesTheUsersOtherProjects() throws Exception {
        there.embed(ANN_P1, "I moved to Lisbon last spring");
        there.embed(ANN_P2, "I moved to Lisbon last spring");

        here.forgets().forget("acme", "dev", "ann", "p1").await(10, TimeUnit.SECONDS);

        assertThat(Await.until(Duration.ofSeconds(10), () -> there.cache().held(ANN_P1) == 0))
                .isTrue();
        assertThat(there.cache().held(ANN_P2)).isEqualTo(1);
    }

    @Test
    void aLostListenerDropsEveryCachedTextBeforeListeningAgain() throws Exception {
        there.embed(BOB, "my dog is called Pixel");
        long subscriptions = there.forgets().subscriptions();
        int rechecked = KEY_LOOKUPS_RECHECKED.get();

        // Redis closes every subscriber's connection, as a fail-over would; a forget sent now
        // would not be heard.
        redis.sync().clientKill(io.lettuce.core.KillArgs.Builder.typePubsub());

        assertThat(
                        Await.until(
                                Duration.ofSeconds(20),
                                () ->
                                        there.forgets().subscriptions() > subscriptions
                                                && there.forgets().listening()))
                .as("listening again")
                .isTrue();
        assertThat(there.cache().held(BOB)).isZero();
        assertThat(KEY_LOOKUPS_RECHECKED.get())
                .as("and keys are looked up again")
                .isGreaterThan(rechecked);
    }
}
