package io.engram.query;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Proposes auxiliary questions that find memories the query itself would miss ("gift for my wife" →
 * "wife's hobbies and interests"). Never completes exceptionally; an empty list means "search with
 * the query alone".
 */
public interface QueryExpander {

    int MAX_AUXILIARY = 2;

    CompletableFuture<List<String>> expand(String query);

    String name();
}
