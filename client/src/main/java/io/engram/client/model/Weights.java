package io.engram.client.model;

/** Ranking weights of a search; a null weight keeps the server's default. */
public record Weights(
        Double semantic,
        Double recency,
        Double importance,
        Double usage,
        Double quality,
        Double consistency,
        Double decay) {

    /** Rank by relevance alone. */
    public static Weights relevanceOnly() {
        return new Weights(1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    }
}
