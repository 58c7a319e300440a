package io.engram.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.extraction.statements.ValueHint;
import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class HeuristicExtractorTest {

    private final HeuristicExtractor extractor = new HeuristicExtractor();

    private List<CandidateFact> facts(ExtractionWindow window) {
        ExtractionResult result = extractor.extract(window);
        assertThat(result).isInstanceOf(ExtractionResult.Facts.class);
        return ((ExtractionResult.Facts) result).facts();
    }

    @Test
    void budgetStatementBecomesASemanticFactInTheSpeakersName() {
        List<CandidateFact> facts =
                facts(
                        new Turns()
                                .say("Alice", "My budget for the Hawaii trip is $10,000.")
                                .window());
        assertThat(facts).hasSize(1);
        CandidateFact fact = facts.get(0);
        assertThat(fact.content()).isEqualTo("Alice's budget for the Hawaii trip is $10,000.");
        assertThat(fact.type()).isEqualTo(MemoryType.SEMANTIC);
        assertThat(fact.sourceTurnIds()).containsExactly("t1");
        assertThat(fact.validFrom()).isEqualTo(Instant.parse("2026-03-15T10:00:00Z"));
        assertThat(fact.tags()).contains("travel", "money");
        assertThat(fact.importance()).isGreaterThanOrEqualTo(0.6);
    }

    @Test
    void correctionTakesItsContextFromTheEarlierStatement() {
        List<CandidateFact> facts =
                facts(
                        new Turns()
                                .say("Alice", "My budget for the Hawaii trip is $10,000.")
                                .assistant("Got it, $10,000 for Hawaii.")
                                .say("Alice", "Actually, make that $15,000.")
                                .window());
        assertThat(facts)
                .extracting(CandidateFact::content)
                .containsExactly(
                        "Alice's budget for the Hawaii trip is $10,000.",
                        "Alice's budget for the Hawaii trip is $15,000.");
        assertThat(facts.get(1).sourceTurnIds()).containsExactly("t1", "t3");
    }

    @Test
    void correctionFindsItsContextInTheOverlapTurns() {
        Turns earlier = new Turns().say("Alice", "My budget for the Hawaii trip is $10,000.");
        ExtractionWindow window =
                new ExtractionWindow(
                        "s1",
                        earlier.list(),
                        List.of(
                                new ConversationTurn(
                                        "t9",
                                        io.engram.events.Role.USER,
                                        java.util.Optional.of("Alice"),
                                        "Make that $12,000",
                                        Instant.parse("2026-03-15T11:00:00Z"))),
                        false);
        assertThat(facts(window))
                .extracting(CandidateFact::content)
                .containsExactly("Alice's budget for the Hawaii trip is $12,000.");
    }

    @Test
    void greetingsThanksAndQuestionsYieldNothing() {
        assertThat(
                        facts(
                                new Turns()
                                        .say("Alice", "hi")
                                        .assistant("Hello! How can I help?")
                                        .say("Alice", "thanks!")
                                        .say("Alice", "ok")
                                        .say("Alice", "What's the weather like?")
                                        .window()))
                .isEmpty();
    }

    @Test
    void assistantStatementsAreNotRememberedAsFactsAboutTheUser() {
        assertThat(
                        facts(
                                new Turns()
                                        .assistant(
                                                "Paris is the capital of France and has great museums.")
                                        .window()))
                .isEmpty();
    }

    @Test
    void shortAnswerIsTheAttributeTheQuestionAskedAbout() {
        List<CandidateFact> facts =
                facts(
                        new Turns()
                                .say("Melanie", "What's your favorite book?")
                                .say("Caroline", "Charlotte's Web, for sure.")
                                .window());
        assertThat(facts).hasSize(1);
        assertThat(facts.get(0).content())
                .isEqualTo("Caroline's favorite book is Charlotte's Web.");
        assertThat(facts.get(0).sourceTurnIds()).containsExactly("t1", "t2");
    }

    @Test
    void statementsAfterAnAssistantGreetingStandAlone() {
        List<CandidateFact> facts =
                facts(
                        new Turns()
                                .assistant("Hello Alice, how can I help?")
                                .say("Alice", "My budget for the Hawaii trip is $10,000.")
                                .window());
        assertThat(facts)
                .extracting(CandidateFact::content)
                .containsExactly("Alice's budget for the Hawaii trip is $10,000.");
    }

    @Test
    void whatSomeoneSaysToTheListenerIsNoFactAndAnEventKeepsItsDay() {
        List<CandidateFact> facts =
                facts(
                        new Turns()
                                .say(
                                        "Caroline",
                                        "I went to the LGBTQ support group yesterday and it was powerful.")
                                .say(
                                        "Melanie",
                                        "Your courage inspires me to start painting again with my kids.")
                                .window());
        // Melanie's compliment is about Caroline and in the second person: no fact, either way.
        assertThat(facts)
                .extracting(CandidateFact::content)
                .containsExactly("Caroline went to the LGBTQ support group on 14 March 2026.");
        assertThat(facts.get(0).type()).isEqualTo(MemoryType.EPISODIC);
    }

    @Test
    void metaphorsProgressReportsAndVagueObjectsAreNoFacts() {
        for (String said :
                List.of(
                        "My family is my motivation and they keep me going.",
                        "Our kids are our future.",
                        "My hard work is paying off.",
                        "My writing is going well.",
                        "I'm going to need some new shoes after all these games.",
                        "I've been working on something exciting.",
                        "Home is where the heart is.",
                        "Dad signed me up for a local league, and I've been playing ever since.")) {
            ExtractionResult result = extractor.extract(new Turns().say("John", said).window());
            List<CandidateFact> facts =
                    result instanceof ExtractionResult.Facts f
                            ? f.facts().stream().filter(x -> !Excerpts.isExcerpt(x.tags())).toList()
                            : List.of();
            assertThat(facts).as(said).isEmpty();
        }
    }

    /** The facts of what John says alone, excerpts left out. */
    private List<String> said(String text) {
        return said(new Turns().say("John", text));
    }

    private List<String> said(Turns turns) {
        ExtractionResult result = extractor.extract(turns.window());
        return result instanceof ExtractionResult.Facts f
                ? f.facts().stream()
                        .filter(x -> !Excerpts.isExcerpt(x.tags()))
                        .map(CandidateFact::content)
                        .toList()
                : List.of();
    }

    @Test
    void aStatementCutShortOrSaidInPassingIsNoFact() {
        for (String text :
                List.of(
                        "I'm planning a few.",
                        "I started teaching my nephew how to make this.",
                        "I really like holding them.",
                        "Work's been rough but I'm doing okay.",
                        "I'm just doing my part.",
                        "I started writing another one.",
                        "I recently went to an event and it was fantastic.",
                        "I'm starting some big new things.",
                        "I really love his tech.",
                        "I started volunteering here two years ago.")) {
            assertThat(said(text)).as(text).isEmpty();
        }
        // A name alone after thanks is who is spoken to, not the answer to a question.
        assertThat(
                        said(
                                new Turns()
                                        .say("Priya", "What's your favorite memory with him?")
                                        .say("John", "Thanks, Priya! We had a blast last summer.")))
                .noneMatch(f -> f.contains("Priya"));
    }

    @Test
    void aFactKeepsItsWholeObjectAndNotThePlatformsAsides() {
        assertThat(said("My pronouns are they/them."))
                .containsExactly("John's pronouns are they/them.");
        // A "his" with someone before it to point at stays.
        assertThat(said("My brother just started his new job at Stripe."))
                .anyMatch(f -> f.contains("his new job"));
        assertThat(said("I'm passionate about building a calm, welcoming space for kids."))
                .containsExactly(
                        "John is passionate about building a calm, welcoming space for kids.");
        assertThat(said("I went fishing with my uncle. [shares a photo: two men on a pier]"))
                .singleElement()
                .satisfies(f -> assertThat(f).startsWith("John went fishing").doesNotContain("["));
        assertThat(said("I tried my hand at pottery for the first time- it was messy!"))
                .containsExactly("John tried their hand at pottery for the first time.");
        assertThat(said("I started volunteering at the food bank about a year ago."))
                .singleElement()
                .satisfies(f -> assertThat(f).doesNotContain("about"));
        assertThat(said("Our band is called \"Night Owls.\" We play on Fridays."))
                .allMatch(f -> f.chars().filter(c -> c == '"').count() % 2 == 0);
    }

    @Test
    void anAdverbBeforeTheSubjectIsNoCompanion() {
        List<CandidateFact> facts =
                facts(
                        new Turns()
                                .say(
                                        "Gina",
                                        "Unfortunately, I also lost my job at Door Dash this"
                                                + " month.")
                                .window());
        assertThat(facts)
                .extracting(CandidateFact::content)
                .contains("Gina lost their job at Door Dash in March 2026.");
    }

    @Test
    void aRemarkAboutATimeIsNotMovedIntoTheStatementAfterIt() {
        List<CandidateFact> facts =
                facts(
                        new Turns()
                                .say(
                                        "Maria",
                                        "Last week was wild - I volunteered at the shelter and"
                                                + " they gave me a medal! Last Friday I went to a"
                                                + " poetry reading.")
                                .window());
        // The remark is not a time phrase before a subject; "Last Friday I went…" is.
        assertThat(facts)
                .extracting(CandidateFact::content)
                .noneMatch(c -> c.contains("wild"))
                .contains("Maria went to a poetry reading on 13 March 2026.");
    }

    @Test
    void aVagueTimeIsNotMadeADateAndCompoundWordsKeepTheirWords() {
        List<CandidateFact> facts =
                facts(
                        new Turns()
                                .say("Tim", "I went to a bookshop in London a few years ago.")
                                .say("Maria", "I take regular me-time walks in the park nearby.")
                                .window());
        assertThat(facts)
                .extracting(CandidateFact::content)
                .noneSatisfy(c -> assertThat(c).containsPattern("\\b(19|20)\\d\\d\\b"))
                .noneSatisfy(c -> assertThat(c).contains("them-time"));
    }

    @Test
    void classifiesProceduresAndRelationships() {
        List<CandidateFact> facts =
                facts(
                        new Turns()
                                .say(
                                        "Bob",
                                        "To make my sourdough, first feed the starter at 8am, then mix at noon.")
                                .say("Bob", "My sister Kate is a nurse in Denver.")
                                .window());
        assertThat(facts)
                .extracting(CandidateFact::type)
                .containsExactly(MemoryType.PROCEDURAL, MemoryType.SOCIAL);
        assertThat(facts.get(1).content()).isEqualTo("Bob's sister Kate is a nurse in Denver.");
    }

    @Test
    void repeatedStatementInOneWindowIsExtractedOnce() {
        assertThat(
                        facts(
                                new Turns()
                                        .say("Alice", "I love hiking in the Alps.")
                                        .say("Alice", "I love hiking in the Alps!")
                                        .window()))
                .hasSize(1);
    }

    @Test
    void overlapTurnsGiveContextButNoFacts() {
        Turns earlier = new Turns().say("Alice", "I adopted a beagle named Max last spring.");
        ExtractionWindow window = new ExtractionWindow("s1", earlier.list(), List.of(), false);
        assertThat(facts(window)).isEmpty();
    }

    // What someone did, told with an object: "I joined a gym", "I took the kids to the museum".

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "I joined a gym last week!|John joined a gym in the week of 2 March 2026.",
                "Yesterday I took the kids to the museum - it was so cool spending time with"
                        + " them.|John took the kids to the museum on 14 March 2026.",
                // A time before the subject, after "just", or before an aside.
                "Just yesterday I joined a nearby church.|John joined a nearby church on 14 March"
                        + " 2026.",
                "Next month I'm having an art show with my paintings - can't wait!|John is having"
                        + " an art show with their paintings in April 2026.",
                "I visited a veteran's hospital and met some amazing people.|John visited a"
                        + " veteran's hospital and met some amazing people.",
                "Last weekend I had a picnic with some friends from church.|John had a picnic"
                        + " with some friends from church on the weekend of 14 March 2026.",
                "I had an interview for a design internship yesterday.|John had an interview"
                        + " for a design internship on 14 March 2026.",
                "I made some peach cobbler recently, it was great.|John made some peach"
                        + " cobbler recently.",
                "I won an international tournament last week.|John won an international"
                        + " tournament in the week of 2 March 2026.",
                // Shouted words are not names, and the next sentence is not the object.
                "WE ADOPTED A SECOND DOG. a little rescue greyhound called pepper|John adopted"
                        + " a second dog.",
                // A purpose of one word says nothing of the deed.
                "I bought a cake to celebrate.|John bought a cake.",
            })
    void anEventWithAnObjectIsRead(String text, String fact) {
        // A value hint ("joined a … church") is read against what was said before, never stored.
        ExtractionResult result = extractor.extract(new Turns().say("John", text).window());
        assertThat(((ExtractionResult.Facts) result).facts())
                .filteredOn(x -> !Excerpts.isExcerpt(x.tags()) && !ValueHint.isHint(x.tags()))
                .extracting(CandidateFact::content)
                .containsExactly(fact);
    }

    /**
     * An object that names nothing that happened: an experience, an amount, a pointer, a count
     * without the thing counted, a turn of phrase, a day's ride, or a deed for a time ahead.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "I had a similar experience.",
                "I had a wild few days.",
                "I raised a ton.",
                "I read a few of them.",
                "We adopted a third!!",
                "I took the plunge.",
                "I got a surge of energy and purpose.",
                "I got a great turnout.",
                "I took the bus to work today.",
                "I took some time off.",
                "we toured a private school just in case for next year",
                "I learned a lot from watching him.",
                "I took a picture of the sunset.",
            })
    void anObjectThatNamesNoEventIsNoFact(String text) {
        assertThat(said(text)).isEmpty();
    }
}
