package io.engram.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.extraction.statements.FactKey;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the stale copies of a superseded statement quote, read from the two statements. */
class StaleStatementsTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // A value replaced by another: copies hold the old one and not the new.
                "Dana works at Google.|Dana works at Stripe.|Google|Stripe",
                // Left with no new value ("no longer"), unkeyed: only the old turns.
                "Dana uses Spotify.|Dana no longer uses Spotify.|Spotify|(none)",
                // Unkeyed, one value for another in the same words.
                "Dana is learning spanish on duolingo.|Dana is learning japanese.|spanish|(none)",
                // An ending in its own words, the old value in it: only the old turns.
                "Dana's wife's name is Hannah.|Dana got divorced from Hannah.|Hannah|(none)",
                // A partner by name, whatever their status was.
                "Dana is married to Hannah.|Dana is dating Leila.|Hannah|Leila",
            })
    void theOldValueIsWhatItsCopiesQuote(String old, String current, String was, String now) {
        StaleStatements.Stale stale = StaleStatements.stale(old, current).orElseThrow();
        assertThat(stale.was()).isEqualTo(was);
        assertThat(stale.now()).isEqualTo(now);
        if (now.equals(FactKey.NONE)) {
            assertThat(stale.cue()).as("only the old statement's turns").isEqualTo("a^");
        }
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "Dana went to Paris.|Dana visited Rome.",
                "Dana is learning spanish.|Dana is learning spanish and french.",
            })
    void statementsThatShareNoValueMarkNothing(String old, String current) {
        assertThat(StaleStatements.stale(old, current)).isEmpty();
    }
}
