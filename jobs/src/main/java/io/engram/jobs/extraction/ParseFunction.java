package io.engram.jobs.extraction;

import io.engram.events.DeadLetter;
import io.engram.events.EventCodec;
import io.engram.events.ParseResult;
import java.time.Instant;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/** Validates raw records: events go on, rejects go to the dead-letter output with the reason. */
public class ParseFunction extends ProcessFunction<RawRecord, TurnRecord> {

    private static final long serialVersionUID = 1L;

    public static final OutputTag<byte[]> DEAD_LETTERS = new OutputTag<>("dead-letters") {};

    private transient Counter turnsIn;
    private transient Counter rejected;

    @Override
    public void open(OpenContext context) {
        turnsIn = getRuntimeContext().getMetricGroup().counter("turnsIn");
        rejected = getRuntimeContext().getMetricGroup().counter("deadLetters");
    }

    @Override
    public void processElement(RawRecord raw, Context ctx, Collector<TurnRecord> out) {
        ParseResult result;
        try {
            result = EventCodec.parse(raw.value);
        } catch (RuntimeException e) {
            result = new ParseResult.Rejected("unreadable: " + StageLetters.describe(e));
        }
        if (result instanceof ParseResult.Accepted accepted) {
            turnsIn.inc();
            TurnRecord turn = TurnRecord.of(accepted.event());
            turn.sentAt = raw.timestamp;
            out.collect(turn);
        } else {
            rejected.inc();
            String reason = ((ParseResult.Rejected) result).reason();
            ctx.output(
                    DEAD_LETTERS,
                    DeadLetter.of(
                                    reason,
                                    raw.topic,
                                    raw.partition,
                                    raw.offset,
                                    raw.key,
                                    raw.value,
                                    Instant.now())
                            .toJson());
        }
    }
}
