package io.engram.jobs.extraction;

import io.engram.config.ConfigLoader;
import io.engram.config.EngramConfig;
import io.engram.embedding.Embedder;
import io.engram.embedding.ModelSpec;
import io.engram.embedding.OnnxEmbedder;
import io.engram.jobs.store.DeadLetterOutlet;
import io.engram.jobs.store.IndexKnownMemories;
import io.engram.jobs.store.KnownMemorySource;
import io.engram.jobs.store.MemoryStoreSink;
import io.engram.jobs.store.OtherWrites;
import io.engram.jobs.store.PastForgets;
import io.engram.jobs.store.PostgresPastForgets;
import io.engram.jobs.store.PostgresSeenTurns;
import io.engram.jobs.store.RedisOtherWrites;
import io.engram.jobs.store.SeenTurns;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/**
 * The streaming job that turns chat turns into memories: validate (rejects to the dead-letter
 * topic) → session windows → extraction (async) → embedding → per-user dedup decision → PostgreSQL,
 * OpenSearch and cache invalidation. Source and sinks are injected so tests can bound the input.
 */
public final class ExtractionJob {

    public static final String JOB_NAME = "engram-extraction";

    private final Source<RawRecord, ?, ?> source;
    private final Sink<byte[]> deadLetterSink;
    private final Sink<byte[]> memorySink;
    private final ExtractionSettings settings;
    private final Parts parts;

    /** Opens the extractor and summariser of a subtask. */
    public interface ExtractorSource extends Serializable {
        Extractors open(ExtractionSettings settings);
    }

    /** Opens the embedding model of a subtask. */
    public interface EmbedderSource extends Serializable {
        Embedder open(ExtractionSettings settings);
    }

    /** What the stages between source and sinks talk to: the production ones, or a test's. */
    public record Parts(
            ExtractorSource extractors,
            EmbedderSource embedders,
            KnownMemorySource knownMemories,
            OtherWrites otherWrites,
            PastForgets pastForgets,
            SeenTurns seenTurns)
            implements Serializable {

        public static Parts production(ExtractionSettings s) {
            return new Parts(
                    Extractors::new,
                    settings ->
                            OnnxEmbedder.load(
                                    ModelSpec.forVersion(settings.embeddingVersion()),
                                    Path.of(settings.modelDir()),
                                    settings.intraOpThreads()),
                    new IndexKnownMemories(
                            s.openSearchUrl(),
                            s.openSearchAuth(),
                            s.indexAlias(),
                            s.knownPerUser()),
                    new RedisOtherWrites(s.redis()),
                    new PostgresPastForgets(s.postgres()),
                    new PostgresSeenTurns(s.postgres()));
        }
    }

    public ExtractionJob(
            Source<RawRecord, ?, ?> source,
            Sink<byte[]> deadLetterSink,
            Sink<byte[]> memorySink,
            ExtractionSettings settings) {
        this(source, deadLetterSink, memorySink, settings, Parts.production(settings));
    }

    public ExtractionJob(
            Source<RawRecord, ?, ?> source,
            Sink<byte[]> deadLetterSink,
            Sink<byte[]> memorySink,
            ExtractionSettings settings,
            Parts parts) {
        this.source = source;
        this.deadLetterSink = deadLetterSink;
        this.memorySink = memorySink;
        this.settings = settings;
        this.parts = parts;
    }

    /**
     * The production job: Kafka in (from the committed offsets, else the earliest), Kafka dead
     * letters, the memory stores out.
     */
    public static ExtractionJob forKafka(ExtractionSettings settings, boolean bounded) {
        return forKafka(
                settings,
                bounded,
                OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST));
    }

    /**
     * As {@link #forKafka(ExtractionSettings, boolean)}, starting where {@code start} says
     * (replays).
     */
    public static ExtractionJob forKafka(
            ExtractionSettings settings, boolean bounded, OffsetsInitializer start) {
        return forKafka(settings, bounded, start, Parts.production(settings));
    }

    /** As {@link #forKafka(ExtractionSettings, boolean, OffsetsInitializer)}, with given parts. */
    public static ExtractionJob forKafka(
            ExtractionSettings settings, boolean bounded, OffsetsInitializer start, Parts parts) {
        var builder =
                KafkaSource.<RawRecord>builder()
                        .setBootstrapServers(settings.bootstrapServers())
                        .setProperties(settings.kafkaProperties())
                        .setTopics(settings.turnsTopic())
                        .setGroupId(EngramConfig.Kafka.EXTRACTION_GROUP)
                        .setStartingOffsets(start)
                        .setDeserializer(new RawRecordDeserializer());
        if (bounded) {
            builder.setBounded(OffsetsInitializer.latest());
        }
        return new ExtractionJob(
                builder.build(), deadLetterSink(settings), memorySink(settings), settings, parts);
    }

    public static Sink<byte[]> deadLetterSink(ExtractionSettings settings) {
        return KafkaSink.<byte[]>builder()
                .setBootstrapServers(settings.bootstrapServers())
                .setKafkaProducerConfig(settings.kafkaProperties())
                .setRecordSerializer(
                        KafkaRecordSerializationSchema.<byte[]>builder()
                                .setTopic(settings.dlqTopic())
                                .setValueSerializationSchema(new PassThroughSerialization())
                                .build())
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .build();
    }

    public static Sink<byte[]> memorySink(ExtractionSettings s) {
        return new MemoryStoreSink(
                s.postgres(),
                s.openSearchUrl(),
                s.openSearchAuth(),
                s.indexAlias(),
                s.redis(),
                DeadLetterOutlet.kafka(s.bootstrapServers(), s.kafkaProperties(), s.dlqTopic()),
                500,
                200);
    }

    /** Dead letters are already encoded. */
    static final class PassThroughSerialization
            implements org.apache.flink.api.common.serialization.SerializationSchema<byte[]> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(byte[] element) {
            return element;
        }
    }

    /**
     * Job-level settings: checkpoints retained on cancel, restarts with a delay, no Kryo fallback.
     */
    public static Configuration jobConfiguration(ExtractionSettings settings) {
        Configuration conf = new Configuration();
        conf.set(
                CheckpointingOptions.CHECKPOINTING_INTERVAL,
                Duration.ofMillis(settings.checkpointIntervalMs()));
        conf.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, Integer.MAX_VALUE);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(5));
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        return conf;
    }

    /** Adds the pipeline to {@code env}. */
    public void build(StreamExecutionEnvironment env) {
        env.configure(jobConfiguration(settings));
        env.setParallelism(settings.parallelism());

        SingleOutputStreamOperator<TurnRecord> parsed =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "turns")
                        .uid("turns-source")
                        .process(new ParseFunction())
                        .name("parse")
                        .uid("parse");

        DataStream<TurnRecord> timed =
                parsed.assignTimestampsAndWatermarks(
                                WatermarkStrategy.<TurnRecord>forBoundedOutOfOrderness(
                                                Duration.ofSeconds(5))
                                        .withTimestampAssigner(
                                                (turn, previous) -> turn.ts.toEpochMilli())
                                        .withIdleness(Duration.ofMinutes(1)))
                        .name("event-time")
                        .uid("event-time");

        // A forget notice goes to every subtask of the session windows and of the dedup: each
        // drops what it holds of the user (in the notice's project, or in all of them).
        DataStream<TurnRecord> notices =
                timed.filter(turn -> turn.forgetUser).name("forget-notices").uid("forget-notices");

        SingleOutputStreamOperator<WindowBatch> windows =
                timed.filter(turn -> !turn.forgetUser)
                        .name("turns-and-ends")
                        .uid("turns-and-ends")
                        .keyBy(TurnRecord::sessionKey)
                        .connect(notices.broadcast(SessionWindowFunction.NOTICES))
                        .process(
                                new SessionWindowFunction(
                                        settings.windowTurns(),
                                        settings.overlapTurns(),
                                        settings.idleGapMs(),
                                        settings.maxSessionTurns()))
                        .name("session-windows")
                        .uid("session-windows");

        long asyncTimeoutMs =
                settings.llmEnabled()
                        ? settings.llmTimeoutMs() * (settings.llmMaxRetries() + 2) + 5_000
                        : 60_000;
        SingleOutputStreamOperator<FactBatch> extracted =
                AsyncDataStream.orderedWait(
                                windows,
                                new ExtractFunction(settings, parts.extractors()),
                                asyncTimeoutMs,
                                TimeUnit.MILLISECONDS,
                                settings.llmConcurrency())
                        .name("extract")
                        .uid("extract");

        SingleOutputStreamOperator<FactBatch> routed =
                extracted.process(new RouteFailures()).name("route-failures").uid("route-failures");

        SingleOutputStreamOperator<FactBatch> embedded =
                routed.process(new EmbedFunction(settings, parts.embedders()))
                        .name("embed")
                        .uid("embed");

        SingleOutputStreamOperator<byte[]> decided =
                embedded.keyBy(FactBatch::userKey)
                        .connect(notices.broadcast(DedupFunction.NOTICES))
                        .process(
                                new DedupFunction(
                                        settings,
                                        parts.knownMemories(),
                                        parts.otherWrites(),
                                        parts.pastForgets(),
                                        parts.seenTurns()))
                        .name("dedup")
                        .uid("dedup");
        decided.sinkTo(memorySink).name("memory-store").uid("memory-store");

        // Every stage sends what it cannot process here, and goes on with the next record.
        parsed.getSideOutput(ParseFunction.DEAD_LETTERS)
                .union(
                        windows.getSideOutput(ParseFunction.DEAD_LETTERS),
                        routed.getSideOutput(ParseFunction.DEAD_LETTERS),
                        embedded.getSideOutput(ParseFunction.DEAD_LETTERS),
                        decided.getSideOutput(ParseFunction.DEAD_LETTERS))
                .sinkTo(deadLetterSink)
                .name("dead-letters")
                .uid("dead-letters");
    }

    /** {@code flink run engram-jobs.jar [--config engram.yaml]}: the job on a Flink cluster. */
    public static void main(String[] args) throws Exception {
        Optional<Path> file =
                args.length == 2 && args[0].equals("--config")
                        ? Optional.of(Path.of(args[1]))
                        : Optional.empty();
        EngramConfig config = ConfigLoader.load(file, System.getenv());
        ExtractionSettings settings = ExtractionSettings.from(config);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        forKafka(settings, false).build(env);
        env.execute(JOB_NAME);
    }
}
