package io.engram.jobs.extraction;

/** A record as read from the turns topic, before validation. Flink POJO. */
public class RawRecord {
    public String topic;
    public int partition;
    public long offset;
    public byte[] key;
    public byte[] value;

    public RawRecord() {}

    public RawRecord(String topic, int partition, long offset, byte[] key, byte[] value) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.key = key;
        this.value = value;
    }
}
