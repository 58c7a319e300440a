package io.engram.extraction;

import io.engram.events.Role;
import io.engram.extraction.statements.ChangeMention;
import io.engram.extraction.statements.Clauses;
import io.engram.extraction.statements.Continuation;
import io.engram.extraction.statements.FactKey;
import io.engram.extraction.statements.FactShape;
import io.engram.extraction.statements.FactSwitch;
import io.engram.extraction.statements.NamedInstead;
import io.engram.extraction.statements.RelationNames;
import io.engram.extraction.statements.Statement;
import io.engram.extraction.statements.StatementExtractor;
import io.engram.extraction.statements.ValueHint;
import io.engram.memory.MemoryType;
import io.engram.text.ChitChat;
import io.engram.text.Text;
import io.engram.text.Values;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds facts without a model, precision first: the durable statements people make about themselves
 * ({@link StatementExtractor}), each a clean sentence in their name; a value given elliptically
 * ("Actually, make that $15,000") completed from the statement it changes, in this window or in the
 * same turn ("…, my budget went up"); a short answer to a question about the speaker ("Charlotte's
 * Web, for sure." to "What's your favourite book?") written as the attribute it answers. Everything
 * else — greetings, questions, compliments, advice, chit-chat, what a turn says about the listener
 * — yields no fact; the conversation excerpt keeps the words. Assistant, system and tool turns give
 * only context.
 */
public final class HeuristicExtractor implements FactExtractor {

    /** Tunables: the importance a fact needs to be kept, and the longest fact kept. */
    public record Settings(double minImportance, int maxFactChars) {
        public static final Settings DEFAULT = new Settings(0.35, 400);
    }

    /** "New number!" alone: what the next sentence gives ("555-0199, save it"). */
    private static final Pattern ANNOUNCED =
            Pattern.compile(
                    "(?i)^(?:(?:i )?(?:got|have) a |my )?new (number|phone number|cell|email|e-mail|address)[!.:]*$");

    /** The sentences, an announcement of a new contact joined to the value told after it. */
    static List<String> announced(List<String> sentences) {
        for (int i = 0; i + 1 < sentences.size(); i++) {
            Matcher m = ANNOUNCED.matcher(sentences.get(i).strip());
            if (m.matches()) {
                List<String> out = new ArrayList<>(sentences);
                out.set(
                        i,
                        "My new "
                                + m.group(1).toLowerCase(Locale.ROOT)
                                + " is "
                                + out.remove(i + 1));
                return out;
            }
        }
        return sentences;
    }

    /** A bracketed aside in a turn: a photo's caption, an attachment's placeholder. */
    private static final Pattern ASIDE = Pattern.compile("\\[[^\\[\\]\\n]{0,400}\\]");

    /** "make that $15,000", "it's $15k now", "change it to June 5". */
    private static final Pattern ELLIPTICAL_VALUE =
            Pattern.compile(
                    "(?i)^(?:(?:no|wait|sorry|actually|oops|correction|update|scratch that)[,!.]? )*(?:make (?:that|it)|change (?:that|it) to|it is (?:now|actually)|now it is|it is|it will be|let us say|say|bump (?:that|it) (?:up )?to|raise (?:that|it) to|lower (?:that|it) to|up to|down to)? ?(?<value>[$€£]?\\s?\\d[\\d,.]*\\s?(?:k|m|bn|thousand|million)?|(?-i:[A-Z][\\p{L}'-]+(?: [A-Z][\\p{L}'-]+){0,2}))(?: (?:now|instead|then|total|tops|max))?$");

    /** "my budget went up", "our plans changed": a changed attribute whose value is elsewhere. */
    private static final Pattern CHANGED_ATTRIBUTE =
            Pattern.compile(
                    "(?i)\\bmy (?<attr>(?:[\\p{L}'’-]+ ){0,6}?[\\p{L}'’-]+) (?:went up|went down|changed|increased|decreased|grew|got bigger|got smaller|is higher|is lower|is bigger|is different)\\b");

    /** A question about the listener's attribute: "What's your favourite book?". */
    private static final Pattern ASKED_ATTRIBUTE =
            Pattern.compile(
                    "(?i)^(?:so |and |hey,? )?(?:what|which|who)(?:\\s+(?:is|are|was)|['’]s)\\s+your (?<attr>(?:[\\p{L}'’-]+ ){0,4}?[\\p{L}'’-]+)\\??$");

    /** A turn that says its speaker has not decided: none of its statements is kept. */
    private static final Pattern UNDECIDED =
            Pattern.compile(
                    "(?i)\\b(have not decided|haven't decided|not decided|undecided|not sure yet|still deciding|we will see|we'll see)\\b");

    /** A sentence that supposes or guesses: nothing in it is a statement of fact. */
    private static final Pattern HEDGED =
            Pattern.compile(
                    "(?i)\\b(hypothetically|let's say|let us say|suppose|imagine|what if|if i|if we|i guess|i think|maybe|might)\\b");

    private final Settings settings;
    private final StatementExtractor statements = new StatementExtractor();

    public HeuristicExtractor() {
        this(Settings.DEFAULT);
    }

    public HeuristicExtractor(Settings settings) {
        this.settings = settings;
    }

    @Override
    public String name() {
        return "heuristic";
    }

    /** A fact seen earlier in the window, to complete an elliptical value. */
    private record Antecedent(String speaker, Statement statement, String turnId) {}

    /** A question about the listener asked in the turn just before. */
    private record Asked(String asker, String attribute, String turnId) {}

    private final class Pass {
        final List<Antecedent> antecedents = new ArrayList<>();
        final List<CandidateFact> facts = new ArrayList<>();
        final Set<String> seen = new HashSet<>();
        Asked asked;

        /** Whether a statement of the sentence being read gave a value. */
        boolean keyed;

        /**
         * A sentence that gave no value but tells of a change in other words: a hint the planner
         * reads against the speaker's memories.
         */
        private boolean hint(ConversationTurn turn, String name, String sentence, String next) {
            String speaker = name == null ? "The user" : name;
            Optional<ValueHint> alone = ValueHint.of(speaker, sentence);
            // "quit crumbs today!! starting at Hollow Oak Coffee", "got promoted!! senior analyst
            // as of today": one piece of news in two sentences.
            Optional<String> joined =
                    next == null
                            ? Optional.empty()
                            : Continuation.of(sentence, next, alone.isPresent());
            Optional<String> content =
                    joined.isEmpty()
                            ? alone.map(ValueHint::content)
                            : alone.isPresent()
                                    ? Optional.of(Continuation.content(alone.get(), next))
                                    : ValueHint.of(speaker, joined.get()).map(ValueHint::content);
            content.ifPresent(
                    c ->
                            facts.add(
                                    new CandidateFact(
                                            MemoryType.SEMANTIC,
                                            c,
                                            0.6,
                                            List.of(ValueHint.TAG),
                                            List.of(turn.turnId()),
                                            turn.ts())));
            if (content.isEmpty() && ChangeMention.tells(sentence)) {
                // "corsa finally died on the m4": no value, but one may have changed.
                facts.add(
                        new CandidateFact(
                                MemoryType.SEMANTIC,
                                new ValueHint(speaker, sentence).content(),
                                0.6,
                                List.of(ValueHint.TAG, ChangeMention.TAG),
                                List.of(turn.turnId()),
                                turn.ts()));
            }
            // Read together, the second sentence is no news of its own: "my partner got a raise!!
            // 78k now" tells nothing of the speaker's pay.
            return joined.isPresent() && (content.isPresent() || Continuation.othersNews(sentence));
        }

        void turn(ConversationTurn turn, boolean emit) {
            if (turn.role() == Role.SYSTEM || turn.role() == Role.TOOL) {
                return;
            }
            Asked question = null;
            String name = turn.speaker().filter(s -> !s.isBlank()).orElse(null);
            // "[shares a photo: …]", "[image]": what the platform adds, not what the user says.
            String content =
                    turn.content().indexOf('[') < 0
                            ? turn.content()
                            : ASIDE.matcher(turn.content()).replaceAll(" ");
            // "my brother jamie": a name typed in lower case, read as "my brother Jamie".
            content = RelationNames.capitalised(content);
            List<String> sentences = announced(Text.sentences(content));
            String changedAttribute = changedAttribute(content);
            // Undecided anywhere in the turn: none of its sentences is a fact.
            Boolean undecided = null;
            boolean joinedAbove = false;
            int before = facts.size();
            for (int i = 0; i < sentences.size(); i++) {
                String sentence = sentences.get(i);
                boolean joined = joinedAbove;
                joinedAbove = false;
                if (sentence.strip().endsWith("?")) {
                    question = asked(turn, sentence).orElse(question);
                    continue;
                }
                if (turn.role() != Role.USER || ChitChat.matches(sentence)) {
                    continue;
                }
                if (undecided == null) {
                    undecided = UNDECIDED.matcher(content).find();
                }
                if (undecided || HEDGED.matcher(sentence).find()) {
                    continue;
                }
                keyed = false;
                for (String clause : Clauses.of(sentence)) {
                    clause(turn, name, clause, changedAttribute, emit);
                }
                if (emit && !keyed && !joined) {
                    joinedAbove =
                            hint(
                                    turn,
                                    name,
                                    sentence,
                                    i + 1 < sentences.size() ? sentences.get(i + 1) : null);
                }
            }
            // "finally out of wrexham!! keys to the new place in Shrewsbury", read as a whole
            // against the speaker's statements when the turn states nothing itself.
            if (emit
                    && facts.subList(before, facts.size()).stream()
                            .allMatch(f -> ValueHint.isHint(f.tags()))
                    && turn.role() == Role.USER
                    && name != null
                    && NamedInstead.mayTell(name, content)
                    && !UNDECIDED.matcher(content).find()) {
                // Before the turn's sentences: it gives the value a departure would leave out.
                facts.add(
                        before,
                        new CandidateFact(
                                MemoryType.SEMANTIC,
                                new ValueHint(name, content.strip()).content(),
                                0.6,
                                List.of(ValueHint.TAG, NamedInstead.TAG),
                                List.of(turn.turnId()),
                                turn.ts()));
            }
            asked = question;
        }

        private void clause(
                ConversationTurn turn,
                String name,
                String clause,
                String changedAttribute,
                boolean emit) {
            List<Statement> read = statements.read(name, clause, turn.ts());
            List<String> sources = new ArrayList<>();
            if (read.isEmpty()) {
                Optional<Completed> completed = complete(turn, name, clause, changedAttribute);
                if (completed.isEmpty()) {
                    return;
                }
                read = completed.get().statements();
                sources.addAll(completed.get().sources());
            }
            sources.add(turn.turnId());
            read = read.stream().map(s -> specific(s, turn, sources)).toList();
            for (Statement s : read) {
                keyed |=
                        !s.inPassing()
                                && (s.key().isPresent() || FactSwitch.of(s.content()).isPresent());
                antecedents.add(new Antecedent(speakerKey(turn), s, turn.turnId()));
                if (emit) {
                    add(turn, s, sources);
                }
            }
        }

        /**
         * A statement of a value written with a less specific attribute than the speaker's earlier
         * one ("the budget" after "the kitchen remodel budget"), written with that one.
         */
        private Statement specific(Statement s, ConversationTurn turn, List<String> sources) {
            if (s.key().isEmpty()) {
                return s;
            }
            FactKey key = s.key().get();
            for (int i = antecedents.size() - 1; i >= 0; i--) {
                Antecedent a = antecedents.get(i);
                Optional<FactKey> earlier = a.statement().key();
                if (a.speaker().equals(speakerKey(turn))
                        && earlier.isPresent()
                        && key.lessSpecificThan(earlier.get())) {
                    String content = earlier.get().withValue(key.value());
                    sources.add(0, a.turnId());
                    return new Statement(
                            s.kind(),
                            s.type(),
                            content,
                            FactKey.of(content),
                            s.validFrom(),
                            s.importance());
                }
            }
            return s;
        }

        private record Completed(List<Statement> statements, List<String> sources) {}

        /**
         * A clause that gives only a value: the statement it completes — the attribute changed in
         * the same turn, the latest fact of the speaker with a value of that kind, or the attribute
         * the question before asked about.
         */
        private Optional<Completed> complete(
                ConversationTurn turn, String name, String clause, String changedAttribute) {
            // "Charlotte's Web, for sure": the value before the comma.
            Matcher m = ELLIPTICAL_VALUE.matcher(clause.strip().split(", ", 2)[0].strip());
            if (!m.matches()) {
                return Optional.empty();
            }
            String value = m.group("value").strip();
            if (changedAttribute != null) {
                return completed(name, "My " + changedAttribute + " is " + value, turn, List.of());
            }
            Values.Kind kind = kindOf(value);
            if (kind != null && kind != Values.Kind.NAME) {
                for (int i = antecedents.size() - 1; i >= 0; i--) {
                    Antecedent a = antecedents.get(i);
                    if (!a.speaker().equals(speakerKey(turn)) || a.statement().key().isEmpty()) {
                        continue;
                    }
                    FactKey key = a.statement().key().get();
                    if (kindOf(key.value()) == kind) {
                        return completed(
                                name,
                                "My " + key.attribute() + " is " + value,
                                turn,
                                List.of(a.turnId()));
                    }
                }
            }
            if (asked != null && !asked.asker().equals(speakerKey(turn))) {
                return completed(
                        name,
                        "My " + asked.attribute() + " is " + value,
                        turn,
                        List.of(asked.turnId()));
            }
            return Optional.empty();
        }

        private Optional<Completed> completed(
                String name, String clause, ConversationTurn turn, List<String> sources) {
            List<Statement> read = statements.read(name, clause, turn.ts());
            return read.isEmpty() ? Optional.empty() : Optional.of(new Completed(read, sources));
        }

        private Optional<Asked> asked(ConversationTurn turn, String sentence) {
            for (String clause : Clauses.of(sentence.replaceAll("\\?+$", ""))) {
                Matcher m = ASKED_ATTRIBUTE.matcher(clause + "?");
                if (m.matches()) {
                    return Optional.of(new Asked(speakerKey(turn), m.group("attr"), turn.turnId()));
                }
            }
            return Optional.empty();
        }

        private void add(ConversationTurn turn, Statement s, List<String> sources) {
            String content = s.content();
            if (content.length() > settings.maxFactChars()
                    || s.importance() < settings.minImportance()
                    || FactShape.problem(content, null).isPresent()
                    || !seen.add(Text.normalizeForHash(content))) {
                return;
            }
            facts.add(
                    new CandidateFact(
                            s.type(),
                            content,
                            s.importance(),
                            Lexicon.tags(content, Text.contentWords(content)),
                            sources.stream().distinct().toList(),
                            s.validFrom()));
        }
    }

    private static String speakerKey(ConversationTurn turn) {
        return turn.role() + ":" + turn.speakerName();
    }

    private static String changedAttribute(String content) {
        Matcher m = CHANGED_ATTRIBUTE.matcher(content);
        return m.find() ? m.group("attr") : null;
    }

    private static Values.Kind kindOf(String value) {
        List<Values.Value> found = Values.find(value);
        return found.isEmpty() ? null : found.get(0).kind();
    }

    @Override
    public ExtractionResult extract(ExtractionWindow window) {
        Pass pass = new Pass();
        for (ConversationTurn turn : window.context()) {
            pass.turn(turn, false);
        }
        for (ConversationTurn turn : window.turns()) {
            pass.turn(turn, true);
        }
        return ExtractionResult.Facts.of(pass.facts);
    }
}
