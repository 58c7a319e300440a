package io.engram.extraction;

import io.engram.events.Role;
import io.engram.memory.MemoryType;
import io.engram.text.ChitChat;
import io.engram.text.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Raw conversation excerpts as memories: for every turn of a window, the turn with the turns just
 * before it in the same session ("Caroline: …\nMelanie: …"), as said. Facts lose what the
 * extraction did not understand; an excerpt keeps the words that were used, the question a turn
 * answers and the photo it shared, which is what a later question often quotes. An excerpt is a
 * record, not a claim: it is never deduplicated against, superseded or folded, and is tagged
 * {@value #TAG} so it can be filtered in or out.
 */
public final class Excerpts {

    /** The tag every excerpt carries. */
    public static final String TAG = "excerpt";

    /** The importance of an excerpt: below a stated fact, above nothing. */
    static final double IMPORTANCE = 0.3;

    private Excerpts() {}

    /**
     * The text a memory is embedded by, or none: a fact by its content; an excerpt by its own turn
     * when the model's excerpt vectors pay ({@code excerptVectors}), otherwise not at all (it is
     * found by its words).
     */
    public static Optional<String> embeddedText(
            List<String> tags, String content, boolean excerptVectors) {
        if (tags.contains(io.engram.extraction.statements.ChangeMention.TAG)) {
            // Read by its words against the user's statements, never stored: no vector.
            return Optional.empty();
        }
        if (!isExcerpt(tags)) {
            return Optional.of(content);
        }
        return excerptVectors ? Optional.of(vectorText(content)) : Optional.empty();
    }

    /**
     * The text an excerpt is embedded by: its own turn, the last line. The turns before it are
     * there to be read; a vector of all of them would find the excerpt for what its neighbours
     * said.
     */
    public static String vectorText(String content) {
        int nl = content.lastIndexOf('\n');
        return nl < 0 ? content : content.substring(nl + 1);
    }

    /** True for an excerpt (by its tag). */
    public static boolean isExcerpt(List<String> tags) {
        return tags.contains(TAG);
    }

    /**
     * One excerpt per turn of {@code window.turns()} that says something (not only a greeting or an
     * acknowledgement), each of that turn and up to {@code turnsPerExcerpt - 1} turns before it
     * (from the window's context when the turn is among the first). System and tool turns are left
     * out. {@code maxChars} bounds each line.
     */
    public static List<CandidateFact> of(
            ExtractionWindow window, int turnsPerExcerpt, int maxChars) {
        return of(window, turnsPerExcerpt, maxChars, List.of());
    }

    /**
     * As {@link #of(ExtractionWindow, int, int)}, each excerpt as important as what its last turn
     * says ({@link Salience}, at least {@value #IMPORTANCE}) or as the most important of {@code
     * facts} taken from that turn: the record of a turn that stated a plan or a preference matters
     * as much as the statement.
     */
    public static List<CandidateFact> of(
            ExtractionWindow window, int turnsPerExcerpt, int maxChars, List<CandidateFact> facts) {
        if (turnsPerExcerpt <= 0) {
            return List.of();
        }
        List<ConversationTurn> said = new ArrayList<>();
        window.context().stream().filter(Excerpts::spoken).forEach(said::add);
        int first = said.size();
        window.turns().stream().filter(Excerpts::spoken).forEach(said::add);
        List<CandidateFact> out = new ArrayList<>();
        for (int i = first; i < said.size(); i++) {
            ConversationTurn last = said.get(i);
            if (saysNothing(last.content())) {
                continue;
            }
            List<ConversationTurn> span = said.subList(Math.max(0, i - turnsPerExcerpt + 1), i + 1);
            StringBuilder content = new StringBuilder();
            List<String> sources = new ArrayList<>();
            for (ConversationTurn t : span) {
                if (content.length() > 0) {
                    content.append('\n');
                }
                content.append(line(t, maxChars));
                sources.add(t.turnId());
            }
            double importance = Math.max(IMPORTANCE, Salience.of(last.content()));
            for (CandidateFact f : facts) {
                // A sentence carried only to be read against the user's statements says nothing
                // of what the turn is worth.
                if (f.sourceTurnIds().contains(last.turnId())
                        && !f.tags().contains(io.engram.extraction.statements.ChangeMention.TAG)) {
                    importance = Math.max(importance, f.importance());
                }
            }
            out.add(
                    new CandidateFact(
                            MemoryType.EPISODIC,
                            content.toString(),
                            importance,
                            List.of(TAG),
                            sources,
                            last.ts()));
        }
        return out;
    }

    /** Only greetings, thanks and acknowledgements. */
    private static boolean saysNothing(String content) {
        return Text.sentences(content).stream()
                .allMatch(s -> ChitChat.matches(s) || Text.contentWords(s).isEmpty());
    }

    private static boolean spoken(ConversationTurn t) {
        return (t.role() == Role.USER || t.role() == Role.ASSISTANT) && !t.content().isBlank();
    }

    private static String line(ConversationTurn t, int maxChars) {
        String text = t.content().strip().replaceAll("\\s+", " ");
        if (text.length() > maxChars) {
            text = text.substring(0, maxChars - 1) + "…";
        }
        return t.speakerName() + ": " + text;
    }
}
