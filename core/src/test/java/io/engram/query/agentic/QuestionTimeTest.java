package io.engram.query.agentic;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QuestionTimeTest {

    private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");

    private static QuestionTime.Window window(String question) {
        Optional<QuestionTime.Window> w = QuestionTime.named(question, NOW);
        assertThat(w).as(question).isPresent();
        return w.get();
    }

    @Test
    void aYearOrAMonthOfAYear() {
        QuestionTime.Window year = window("How many times did Mel go to the beach in 2023?");
        assertThat(year.from()).isEqualTo(Instant.parse("2023-01-01T00:00:00Z"));
        assertThat(year.to()).isEqualTo(Instant.parse("2024-01-01T00:00:00Z"));
        assertThat(year.phrase()).isEqualTo("in 2023");
        QuestionTime.Window month = window("What did I cook in May 2023?");
        assertThat(month.from()).isEqualTo(Instant.parse("2023-05-01T00:00:00Z"));
        assertThat(month.to()).isEqualTo(Instant.parse("2023-06-01T00:00:00Z"));
    }

    @Test
    void aDayIsItsTwoWeeksBefore() {
        for (String q :
                List.of(
                        "What did Maria say on 3 June, 2023?",
                        "What did Maria say on June 3, 2023?",
                        "What book did Tim finish on 3rd June 2023?",
                        "What did John do the week before June 3,2023?")) {
            QuestionTime.Window day = window(q);
            assertThat(day.from()).as(q).isEqualTo(Instant.parse("2023-05-20T00:00:00Z"));
            assertThat(day.to()).as(q).isEqualTo(Instant.parse("2023-06-04T00:00:00Z"));
        }
        assertThat(window("What did Maria say on 3 June, 2023?").phrase())
                .isEqualTo("3 June, 2023");
    }

    @Test
    void upToADayIsEverythingBefore() {
        QuestionTime.Window by = window("How many tournaments had Nate won by July 10, 2022?");
        assertThat(by.from()).isEqualTo(Instant.parse("1970-01-01T00:00:00Z"));
        assertThat(by.to()).isEqualTo(Instant.parse("2022-07-11T00:00:00Z"));
    }

    @Test
    void aDayThatDoesNotExistIsNoDay() {
        assertThat(window("What happened in February 2023, on 30 February 2023?").from())
                .isEqualTo(Instant.parse("2023-02-01T00:00:00Z"));
    }

    @Test
    void aMonthAloneIsTheLastOneUpToNow() {
        assertThat(window("Where did we go in December?").from())
                .isEqualTo(Instant.parse("2025-12-01T00:00:00Z"));
        assertThat(window("Where did we go in March?").from())
                .isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
    }

    @Test
    void aMonthWithoutItsYearHoldsThatMonthOfEveryYear() {
        QuestionTime.Window june = window("When did Mel go camping in June?");
        assertThat(june.contains(Instant.parse("2023-06-20T10:00:00Z"))).isTrue();
        assertThat(june.contains(Instant.parse("2026-06-01T00:00:00Z"))).isTrue();
        assertThat(june.contains(Instant.parse("2023-07-01T00:00:00Z"))).isFalse();
        assertThat(
                        window("When did Mel go camping in June 2023?")
                                .contains(Instant.parse("2022-06-20T10:00:00Z")))
                .isFalse();
    }

    @Test
    void relativeToNow() {
        assertThat(window("What did I read last year?").from())
                .isEqualTo(Instant.parse("2025-01-01T00:00:00Z"));
        QuestionTime.Window month = window("What did I buy this month?");
        assertThat(month.from()).isEqualTo(Instant.parse("2026-11-01T00:00:00Z"));
        assertThat(month.contains(NOW)).isTrue();
        assertThat(window("Who did I meet last week?").from())
                .isEqualTo(Instant.parse("2026-11-16T00:00:00Z"));
    }

    @Test
    void noTimeOrAVagueOneIsNoWindow() {
        assertThat(QuestionTime.named("Where do I work?", NOW)).isEmpty();
        assertThat(QuestionTime.named("What did I do a while ago?", NOW)).isEmpty();
        assertThat(QuestionTime.named("May I ask what my dog is called?", NOW)).isEmpty();
        assertThat(QuestionTime.named("I may go there in may", NOW)).isEmpty();
    }
}
