package io.engram.jobs.extraction;

/** A record as read from the turns topic, before validation. Flink POJO. */
public class RawRecord {
    public String topic;
    public int partition;
    public long offset;
    public byte[] key;
    public byte[] value;

    /** The record's Kafka timestamp (epoch ms): when the serving tier sent it; -1 when unknown. */
    public long timestamp = -1;

    public RawRecord() {}

    public RawRecord(
            String topic, int partition, long offset, byte[] key, byte[] value, long timestamp) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.key = key;
        this.value = value;
        this.timestamp = timestamp;
    }
}
