package io.engram.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.services.Await;
import io.engram.services.SharedServices;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two serving instances on the same stores: a key revoked through one stops working on the other at
 * once, although the other had its lookup cached for far longer.
 */
class KeyRevocationIT {

    @Test
    void aKeyRevokedOnOneInstanceIsRefusedByTheOtherAtOnce() throws Exception {
        // Key lookups cached for 10 minutes: only the notice can make the other instance forget.
        try (ServingFixture one =
                        new ServingFixture(
                                "key_revocation_it",
                                SharedServices.openSearch().url(),
                                Map.of("ENGRAM_AUTH_KEY_CACHE_MS", "600000"));
                ServingApp other = ServingApp.start(one.config)) {
            String otherBase = "http://127.0.0.1:" + other.port();
            String admin = one.key("acme", "default", "prod", "read", "write", "admin");
            ServingFixture.Reply created =
                    one.post(
                            "/v1/admin/keys",
                            admin,
                            new JsonObject()
                                    .put("tenant_id", "acme")
                                    .put("scopes", new JsonArray().add("read")));
            assertThat(created.status()).as(created.raw()).isEqualTo(201);
            String key = created.json().getString("key");
            assertThat(one.callAt(otherBase, "GET", "/v1/memories?user_id=a", key).status())
                    .as("the other instance knows the key (and caches the lookup)")
                    .isEqualTo(200);

            assertThat(one.revokeKey(created.json().getString("id"), admin).status())
                    .isEqualTo(204);

            assertThat(
                            Await.until(
                                    Duration.ofSeconds(10),
                                    () ->
                                            one.callAt(
                                                                    otherBase,
                                                                    "GET",
                                                                    "/v1/memories?user_id=a",
                                                                    key)
                                                            .status()
                                                    == 401))
                    .as("refused by the other instance")
                    .isTrue();
            assertThat(one.call("GET", "/v1/memories?user_id=a", key, null).status())
                    .isEqualTo(401);
        }
    }
}
