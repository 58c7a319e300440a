package io.engram.client.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A recall ({@code POST /v1/memories/search}); only {@code userId} and {@code query} are needed, a
 * null field keeps the server's default. Build one with {@link #of} and the {@code with…} methods.
 */
public record SearchRequest(
        String userId,
        String projectId,
        String query,
        Integer limit,
        List<HistoryMessage> history,
        Boolean force,
        Boolean includeHistory,
        Boolean multiQuery,
        String retrieval,
        String strategy,
        Boolean useLlm,
        Double threshold,
        Double importanceFloor,
        Weights weights,
        List<String> types,
        List<String> tiers,
        List<String> tags,
        List<String> excludeTags,
        String sessionId,
        Instant from,
        Instant to,
        Map<String, Object> metadataFilter) {

    public static SearchRequest of(String userId, String query) {
        return new Builder().userId(userId).query(query).build();
    }

    /** A builder holding this request's fields. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.userId = userId;
        b.projectId = projectId;
        b.query = query;
        b.limit = limit;
        b.history = history;
        b.force = force;
        b.includeHistory = includeHistory;
        b.multiQuery = multiQuery;
        b.retrieval = retrieval;
        b.strategy = strategy;
        b.useLlm = useLlm;
        b.threshold = threshold;
        b.importanceFloor = importanceFloor;
        b.weights = weights;
        b.types = types;
        b.tiers = tiers;
        b.tags = tags;
        b.excludeTags = excludeTags;
        b.sessionId = sessionId;
        b.from = from;
        b.to = to;
        b.metadataFilter = metadataFilter;
        return b;
    }

    public SearchRequest withLimit(int n) {
        return toBuilder().limit(n).build();
    }

    public SearchRequest withProject(String project) {
        return toBuilder().projectId(project).build();
    }

    /** The conversation so far, for a follow-up question ("and what about her?"). */
    public SearchRequest withHistory(List<HistoryMessage> messages) {
        return toBuilder().history(messages).build();
    }

    /** Search even a greeting or chit-chat the recall gate would skip. */
    public SearchRequest forced() {
        return toBuilder().force(true).build();
    }

    /** auto, direct, split or chain. */
    public SearchRequest withStrategy(String name) {
        return toBuilder().strategy(name).build();
    }

    /** hybrid, dense or bm25. */
    public SearchRequest withRetrieval(String name) {
        return toBuilder().retrieval(name).build();
    }

    public SearchRequest withMultiQuery(boolean on) {
        return toBuilder().multiQuery(on).build();
    }

    public SearchRequest withWeights(Weights w) {
        return toBuilder().weights(w).build();
    }

    /** Only memories carrying every one of these tags; {@code excluded}: none of those. */
    public SearchRequest withTags(List<String> required, List<String> excluded) {
        return toBuilder().tags(required).excludeTags(excluded).build();
    }

    /** Only memories valid from {@code start} (inclusive) to {@code end} (exclusive). */
    public SearchRequest between(Instant start, Instant end) {
        return toBuilder().from(start).to(end).build();
    }

    /** Only memories whose metadata contains this object. */
    public SearchRequest withMetadataFilter(Map<String, Object> filter) {
        return toBuilder().metadataFilter(filter).build();
    }

    /** Every field of a request; a field left null keeps the server's default. */
    public static final class Builder {
        private String userId;
        private String projectId;
        private String query;
        private Integer limit;
        private List<HistoryMessage> history;
        private Boolean force;
        private Boolean includeHistory;
        private Boolean multiQuery;
        private String retrieval;
        private String strategy;
        private Boolean useLlm;
        private Double threshold;
        private Double importanceFloor;
        private Weights weights;
        private List<String> types;
        private List<String> tiers;
        private List<String> tags;
        private List<String> excludeTags;
        private String sessionId;
        private Instant from;
        private Instant to;
        private Map<String, Object> metadataFilter;

        public Builder userId(String value) {
            this.userId = value;
            return this;
        }

        public Builder projectId(String value) {
            this.projectId = value;
            return this;
        }

        public Builder query(String value) {
            this.query = value;
            return this;
        }

        public Builder limit(Integer value) {
            this.limit = value;
            return this;
        }

        public Builder history(List<HistoryMessage> value) {
            this.history = value;
            return this;
        }

        public Builder force(Boolean value) {
            this.force = value;
            return this;
        }

        public Builder includeHistory(Boolean value) {
            this.includeHistory = value;
            return this;
        }

        public Builder multiQuery(Boolean value) {
            this.multiQuery = value;
            return this;
        }

        public Builder retrieval(String value) {
            this.retrieval = value;
            return this;
        }

        public Builder strategy(String value) {
            this.strategy = value;
            return this;
        }

        public Builder useLlm(Boolean value) {
            this.useLlm = value;
            return this;
        }

        public Builder threshold(Double value) {
            this.threshold = value;
            return this;
        }

        public Builder importanceFloor(Double value) {
            this.importanceFloor = value;
            return this;
        }

        public Builder weights(Weights value) {
            this.weights = value;
            return this;
        }

        public Builder types(List<String> value) {
            this.types = value;
            return this;
        }

        public Builder tiers(List<String> value) {
            this.tiers = value;
            return this;
        }

        public Builder tags(List<String> value) {
            this.tags = value;
            return this;
        }

        public Builder excludeTags(List<String> value) {
            this.excludeTags = value;
            return this;
        }

        public Builder sessionId(String value) {
            this.sessionId = value;
            return this;
        }

        public Builder from(Instant value) {
            this.from = value;
            return this;
        }

        public Builder to(Instant value) {
            this.to = value;
            return this;
        }

        public Builder metadataFilter(Map<String, Object> value) {
            this.metadataFilter = value;
            return this;
        }

        public SearchRequest build() {
            return new SearchRequest(
                    userId,
                    projectId,
                    query,
                    limit,
                    history,
                    force,
                    includeHistory,
                    multiQuery,
                    retrieval,
                    strategy,
                    useLlm,
                    threshold,
                    importanceFloor,
                    weights,
                    types,
                    tiers,
                    tags,
                    excludeTags,
                    sessionId,
                    from,
                    to,
                    metadataFilter);
        }
    }
}
