package io.engram.ranking;

/** A candidate with its final score and the signals behind it. */
public record Ranked(RankCandidate candidate, double score, ScoreBreakdown breakdown) {}
