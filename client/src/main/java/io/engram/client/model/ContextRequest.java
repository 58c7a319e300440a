package io.engram.client.model;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/** A recall packed into a token budget ({@code POST /v1/context}). */
public record ContextRequest(@JsonUnwrapped SearchRequest search, Integer tokenBudget) {

    public static ContextRequest of(String userId, String query, int tokenBudget) {
        return new ContextRequest(SearchRequest.of(userId, query), tokenBudget);
    }
}
