package io.engram.extraction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.engram.events.Role;
import io.engram.extraction.statements.FactShape;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The labelled turns of {@code extraction/labelled-turns.jsonl} (see its README) and the scoring of
 * an extractor on them: which extracted facts match an expected one (its subject first, every key
 * phrase in its words, its day or month when one is expected), precision, recall, and every fact of
 * a malformed shape.
 */
final class LabelledCorpus {

    record Expected(String subject, List<String> must, String when) {}

    record Case(
            String id,
            String split,
            Instant date,
            List<ConversationTurn> context,
            ConversationTurn turn,
            List<Expected> expect) {}

    /** One scored case: its facts, which matched, which expected ones were missed. */
    record Scored(
            Case c,
            List<CandidateFact> facts,
            List<CandidateFact> wrong,
            List<Expected> missed,
            List<String> malformed) {}

    record Score(
            int facts, int correct, int expected, int found, int malformed, List<Scored> cases) {
        double precision() {
            return facts == 0 ? 1 : (double) correct / facts;
        }

        double recall() {
            return expected == 0 ? 1 : (double) found / expected;
        }
    }

    static List<Case> load() throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<Case> cases = new ArrayList<>();
        try (BufferedReader in =
                new BufferedReader(
                        new InputStreamReader(
                                LabelledCorpus.class.getResourceAsStream(
                                        "/extraction/labelled-turns.jsonl"),
                                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n = json.readTree(line);
                Instant date = Instant.parse(n.get("date").asText());
                List<ConversationTurn> context = new ArrayList<>();
                int i = 0;
                for (JsonNode t : n.path("context")) {
                    context.add(
                            turn(
                                    n.get("id").asText() + "-c" + i++,
                                    t,
                                    date.minusSeconds(60L * (5 - i))));
                }
                ConversationTurn turn = turn(n.get("id").asText(), n.get("turn"), date);
                List<Expected> expect = new ArrayList<>();
                for (JsonNode e : n.path("expect")) {
                    List<String> must = new ArrayList<>();
                    e.path("must").forEach(m -> must.add(m.asText()));
                    expect.add(
                            new Expected(
                                    e.get("subject").asText(),
                                    must,
                                    e.hasNonNull("when") ? e.get("when").asText() : null));
                }
                cases.add(
                        new Case(
                                n.get("id").asText(),
                                n.path("split").asText("dev"),
                                date,
                                context,
                                turn,
                                expect));
            }
        }
        return cases;
    }

    private static ConversationTurn turn(String id, JsonNode t, Instant at) {
        String speaker = t.path("speaker").asText("");
        Role role = t.path("role").asText("user").equals("assistant") ? Role.ASSISTANT : Role.USER;
        return new ConversationTurn(
                id,
                role,
                speaker.isBlank() ? Optional.empty() : Optional.of(speaker),
                t.get("text").asText(),
                at);
    }

    static Score score(FactExtractor extractor, List<Case> cases) {
        int facts = 0, correct = 0, expected = 0, found = 0, malformed = 0;
        List<Scored> scored = new ArrayList<>();
        for (Case c : cases) {
            ExtractionResult r =
                    extractor.extract(
                            new ExtractionWindow("s", c.context(), List.of(c.turn()), false));
            // A value hint is never stored as said: the planner reads it against the speaker's
            // memories (ChangedValuesTest), so it is no fact of the corpus either way.
            List<CandidateFact> got =
                    ((ExtractionResult.Facts) r)
                            .facts().stream()
                                    .filter(
                                            f ->
                                                    !io.engram.extraction.statements.ValueHint
                                                            .isHint(f.tags()))
                                    .toList();
            List<Expected> open = new ArrayList<>(c.expect());
            List<CandidateFact> wrong = new ArrayList<>();
            List<String> bad = new ArrayList<>();
            for (CandidateFact f : got) {
                FactShape.problem(f.content(), null)
                        .ifPresent(p -> bad.add(f.content() + " (" + p + ")"));
                Expected match = open.stream().filter(e -> matches(f, e)).findFirst().orElse(null);
                if (match != null) {
                    open.remove(match);
                    correct++;
                } else if (c.expect().stream().anyMatch(e -> matches(f, e))) {
                    // a second rendering of a fact already matched: neither right nor wrong twice
                    correct++;
                } else {
                    wrong.add(f);
                }
            }
            facts += got.size();
            expected += c.expect().size();
            found += c.expect().size() - open.size();
            malformed += bad.size();
            scored.add(new Scored(c, got, wrong, open, bad));
        }
        return new Score(facts, correct, expected, found, malformed, scored);
    }

    static boolean matches(CandidateFact f, Expected e) {
        String text = normal(f.content());
        if (!text.startsWith(normal(e.subject()))
                && !text.contains(" " + normal(e.subject()) + " ")) {
            return false;
        }
        for (String must : e.must()) {
            if (!text.contains(normal(must))) {
                return false;
            }
        }
        if (e.when() != null) {
            String day = f.validFrom().atZone(ZoneOffset.UTC).toLocalDate().toString();
            return day.startsWith(e.when());
        }
        return true;
    }

    private static String normal(String s) {
        return s.toLowerCase(Locale.ROOT)
                .replace('’', '\'')
                .replaceAll("favourite", "favorite")
                .replaceAll("[^a-z0-9$€£'+ ]", " ")
                .replaceAll("\\s+", " ")
                .strip();
    }
}
