package io.engram.jobs.extraction;

import io.engram.extraction.CandidateFact;
import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.List;

/** A candidate fact with its vector once embedded. Flink POJO. */
public class FactRecord {
    public MemoryType type;
    public String content;
    public double importance;
    public String[] tags = new String[0];
    public String[] sourceTurnIds = new String[0];
    public Instant validFrom;
    public float[] vector;

    public FactRecord() {}

    public static FactRecord of(CandidateFact f) {
        FactRecord r = new FactRecord();
        r.type = f.type();
        r.content = f.content();
        r.importance = f.importance();
        r.tags = f.tags().toArray(new String[0]);
        r.sourceTurnIds = f.sourceTurnIds().toArray(new String[0]);
        r.validFrom = f.validFrom();
        return r;
    }

    public CandidateFact toFact() {
        return new CandidateFact(
                type, content, importance, List.of(tags), List.of(sourceTurnIds), validFrom);
    }
}
