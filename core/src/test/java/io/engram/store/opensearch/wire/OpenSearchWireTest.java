package io.engram.store.opensearch.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.engram.memory.Scope;
import io.engram.store.opensearch.MemoryQuery;
import io.engram.store.opensearch.OpenSearchException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opensearch.client.opensearch._types.Refresh;
import org.opensearch.client.opensearch.core.BulkRequest;
import org.opensearch.client.opensearch.core.BulkResponse;
import org.opensearch.client.opensearch.core.MsearchRequest;
import org.opensearch.client.opensearch.core.MsearchResponse;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;
import org.opensearch.client.opensearch.indices.ExistsAliasRequest;
import org.opensearch.client.transport.endpoints.BooleanResponse;

class OpenSearchWireTest {

    private static final MemoryQuery ALICE =
            MemoryQuery.forScope(new Scope("acme", "default", "prod", "alice"));

    @Test
    void aMultiSearchIsOneLinePerHeaderAndBodyWithItsTrimmedAnswerAsked() {
        MsearchRequest request =
                MsearchRequest.of(
                        m ->
                                m.searches(
                                        s ->
                                                s.header(
                                                                h ->
                                                                        h.index("memories")
                                                                                .routing(
                                                                                        "acme/alice"))
                                                        .body(
                                                                MemoryQuery.idsOnly(
                                                                        ALICE.bm25("budget"), 5))));
        OpenSearchWire.Outgoing out =
                OpenSearchWire.encode(
                        request, MsearchRequest._ENDPOINT, MemoryQuery.IDS_AND_SCORES_ONLY);

        assertThat(out.method()).isEqualTo("POST");
        assertThat(out.pathAndQuery())
                .startsWith("/_msearch?")
                .contains("filter_path=took%2Cresponses.took%2C");
        assertThat(out.contentType()).isEqualTo("application/x-ndjson");
        assertThat(out.filtered()).isTrue();
        String[] lines = new String(out.body(), StandardCharsets.UTF_8).split("\n", -1);
        assertThat(lines).hasSize(3);
        assertThat(lines[0]).isEqualTo("{\"index\":[\"memories\"],\"routing\":\"acme/alice\"}");
        assertThat(lines[1]).contains("\"size\":5").contains("\"stored_fields\":[\"_none_\"]");
        assertThat(lines[2]).isEmpty();
    }

    @Test
    void aTrimmedAnswerWithoutHitsIsReadAsAResultInItsPlace() throws Exception {
        String answer =
                "{\"took\":3,\"responses\":[{\"took\":1,\"timed_out\":false,\"status\":200},"
                        + "{\"took\":2,\"timed_out\":false,\"hits\":{\"hits\":[{\"_score\":0.9,"
                        + "\"fields\":{\"id\":[\"m1\"]}}]},\"status\":200},"
                        + "{\"error\":{\"type\":\"query_shard_exception\",\"reason\":\"bad\"},"
                        + "\"status\":400}]}";
        MsearchResponse<Void> response =
                OpenSearchWire.decode(
                        200,
                        answer.getBytes(StandardCharsets.UTF_8),
                        MsearchRequest.createMsearchEndpoint(
                                org.opensearch.client.json.JsonpDeserializer.of(Void.class)),
                        "POST /_msearch",
                        true);

        assertThat(response.responses()).hasSize(3);
        assertThat(MemoryQuery.hits(response.responses().get(0).result())).isEmpty();
        var hit = MemoryQuery.hits(response.responses().get(1).result()).get(0);
        assertThat(MemoryQuery.hitId(hit)).isEqualTo("m1");
        assertThat(hit.score()).isEqualTo(0.9);
        assertThat(response.responses().get(2).isFailure()).isTrue();
    }

    @Test
    void anErrorOpenSearchDescribesKeepsItsStatusAndSaysWhetherToRetry() {
        byte[] full =
                ("{\"error\":{\"type\":\"es_rejected_execution_exception\",\"reason\":\"queue"
                                + " full\"},\"status\":429}")
                        .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> decodeBulk(429, full))
                .satisfies(
                        e -> {
                            OpenSearchException ours = OpenSearchException.of("bulk write", e);
                            assertThat(OpenSearchException.status(e)).isEqualTo(429);
                            assertThat(ours.isTransient()).isTrue();
                            assertThat(ours).hasMessageContaining("queue full");
                        });
        byte[] mapping =
                ("{\"error\":{\"type\":\"mapper_parsing_exception\",\"reason\":\"failed to"
                                + " parse\"},\"status\":400}")
                        .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> decodeBulk(400, mapping))
                .satisfies(
                        e -> assertThat(OpenSearchException.of("bulk", e).isTransient()).isFalse());
    }

    @Test
    void anErrorPageThatIsNotOpenSearchsIsReportedWithItsStatusAndText() {
        byte[] page = "<html>502 Bad Gateway</html>".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> decodeBulk(502, page))
                .isInstanceOf(OpenSearchWire.StatusException.class)
                .hasMessageContaining("502")
                .hasMessageContaining("Bad Gateway")
                .satisfies(
                        e -> assertThat(OpenSearchException.of("bulk", e).isTransient()).isTrue());
    }

    @Test
    void anExistsAnswerIsItsStatus() throws Exception {
        ExistsAliasRequest request = ExistsAliasRequest.of(e -> e.name("memories"));
        OpenSearchWire.Outgoing out =
                OpenSearchWire.encode(request, ExistsAliasRequest._ENDPOINT, null);
        assertThat(out.method()).isEqualTo("HEAD");
        assertThat(out.body()).isNull();
        BooleanResponse missing =
                OpenSearchWire.decode(
                        404, new byte[0], ExistsAliasRequest._ENDPOINT, "HEAD /_alias", false);
        assertThat(missing.value()).isFalse();
        BooleanResponse present =
                OpenSearchWire.decode(
                        200, new byte[0], ExistsAliasRequest._ENDPOINT, "HEAD /_alias", false);
        assertThat(present.value()).isTrue();
    }

    @Test
    void aBulkKeepsItsRefreshAndWritesOneActionLineAndOneSourceLine() {
        BulkRequest request =
                BulkRequest.of(
                        b ->
                                b.refresh(Refresh.WaitFor)
                                        .operations(
                                                List.of(
                                                        BulkOperation.of(
                                                                o ->
                                                                        o.delete(
                                                                                d ->
                                                                                        d.index("m")
                                                                                                .id(
                                                                                                        "1")
                                                                                                .routing(
                                                                                                        "r"))))));
        OpenSearchWire.Outgoing out = OpenSearchWire.encode(request, BulkRequest._ENDPOINT, null);
        assertThat(out.pathAndQuery()).isEqualTo("/_bulk?refresh=wait_for");
        assertThat(new String(out.body(), StandardCharsets.UTF_8))
                .isEqualTo("{\"delete\":{\"_id\":\"1\",\"_index\":\"m\",\"routing\":\"r\"}}\n");
    }

    private static BulkResponse decodeBulk(int status, byte[] body) throws Exception {
        return OpenSearchWire.decode(status, body, BulkRequest._ENDPOINT, "POST /_bulk", false);
    }
}
