package io.engram.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The heuristic extractor on the labelled corpus ({@code extraction/labelled-turns.jsonl}): LoCoMo
 * dev lines and written chat lines, each with the facts a precise extractor keeps. Prints precision
 * and recall per split and every wrong, missed and malformed fact; fails below the precision the
 * product needs or on any malformed fact.
 */
class ExtractionCorpusTest {

    private static List<LabelledCorpus.Case> cases;

    @BeforeAll
    static void load() throws Exception {
        cases = LabelledCorpus.load();
    }

    @Test
    void factsAreAtLeastNinetyPercentRightAndNeverMalformed() throws Exception {
        HeuristicExtractor extractor = new HeuristicExtractor();
        List<LabelledCorpus.Score> results = new java.util.ArrayList<>();
        for (String split : List.of("dev", "test", "all")) {
            List<LabelledCorpus.Case> part =
                    cases.stream()
                            .filter(c -> split.equals("all") || c.split().equals(split))
                            .toList();
            LabelledCorpus.Score s = LabelledCorpus.score(extractor, part);
            System.out.printf(
                    "extraction corpus %-4s: %d cases, %d facts extracted, %d right: precision %.3f;"
                            + " %d expected, %d found: recall %.3f; %d malformed%n",
                    split,
                    part.size(),
                    s.facts(),
                    s.correct(),
                    s.precision(),
                    s.expected(),
                    s.found(),
                    s.recall(),
                    s.malformed());
            if (split.equals(System.getProperty("corpus.show", "dev"))) {
                for (LabelledCorpus.Scored c : s.cases()) {
                    c.wrong()
                            .forEach(
                                    f ->
                                            System.out.println(
                                                    "  WRONG  "
                                                            + c.c().id()
                                                            + ": "
                                                            + f.content()
                                                            + " @"
                                                            + f.validFrom()));
                    c.malformed()
                            .forEach(
                                    f ->
                                            System.out.println(
                                                    "  MALFORMED " + c.c().id() + ": " + f));
                }
                for (LabelledCorpus.Scored c : s.cases()) {
                    c.missed()
                            .forEach(
                                    e ->
                                            System.out.println(
                                                    "  MISSED "
                                                            + c.c().id()
                                                            + ": "
                                                            + e
                                                            + " ← "
                                                            + c.c().turn().content()));
                }
            }
            results.add(s);
        }
        String report = System.getProperty("corpus.report");
        if (report != null) {
            write(java.nio.file.Path.of(report), results);
        }
        // Malformed: never, on any split. Precision: the product's bar on the whole corpus; the
        // test split is held out from tuning and reported.
        for (LabelledCorpus.Score score : results) {
            assertThat(score.malformed()).as("malformed facts").isZero();
        }
        assertThat(results.get(2).precision())
                .as("precision on the whole corpus")
                .isGreaterThanOrEqualTo(0.9);
    }

    /** The figures as the results page shows them ({@code benchmarks/bin/extraction-corpus}). */
    private static void write(java.nio.file.Path file, List<LabelledCorpus.Score> results)
            throws java.io.IOException {
        StringBuilder md =
                new StringBuilder("# Extraction: precision on the labelled corpus\n\n")
                        .append("Command: `benchmarks/bin/extraction-corpus`; date ")
                        .append(java.time.LocalDate.now())
                        .append(
                                ". The heuristic extractor on `core/src/test/resources/extraction/labelled-turns.jsonl`")
                        .append(
                                " (LoCoMo dev lines and written chat lines, each with the facts a precise extractor")
                        .append(
                                " keeps; see its README). A fact is right when it names the expected person first, holds")
                        .append(
                                " every key phrase and, where one is expected, its day or month. The test split was held")
                        .append(
                                " out while the extractor was tuned. `ExtractionCorpusTest` fails below 0.9 on the")
                        .append(" whole corpus or on any malformed fact.\n\n")
                        .append(
                                "| split | cases | facts | right | precision | expected | found | recall | malformed |\n")
                        .append("|---|---|---|---|---|---|---|---|---|\n");
        String[] names = {"dev", "test", "all"};
        for (int i = 0; i < results.size(); i++) {
            LabelledCorpus.Score s = results.get(i);
            md.append(
                    String.format(
                            "| %s | %d | %d | %d | %.3f | %d | %d | %.3f | %d |%n",
                            names[i],
                            s.cases().size(),
                            s.facts(),
                            s.correct(),
                            s.precision(),
                            s.expected(),
                            s.found(),
                            s.recall(),
                            s.malformed()));
        }
        java.nio.file.Files.writeString(file, md.toString());
    }
}
