package io.engram.extraction.statements;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a person does week in, week out, as they introduce themselves: "I play the cello", "I do
 * pilates twice a week", "I go bouldering every Saturday", "I'm in a running club in Hackney", "I
 * take the bus to work", "I work the night shift", "I'm Catholic".
 */
final class Routines {

    private Routines() {}

    private static final String INSTRUMENTS =
            "guitar|bass|bass guitar|electric guitar|acoustic guitar|piano|keyboard|keys|violin|viola|cello|double bass|drums|flute|clarinet|saxophone|sax|trumpet|trombone|tuba|french horn|harp|ukulele|uke|banjo|mandolin|harmonica|accordion|oboe|bassoon|organ|synth|bagpipes";

    /** "I play the cello", "i play drums in a band". */
    private static final Pattern PLAYS =
            Pattern.compile(
                    "(?i)^I (?:also |still |mostly |mainly )?play (?<the>the )?(?<what>"
                            + INSTRUMENTS
                            + ")(?<in> (?:in|for|with) (?:an? |the |my |our )?(?:[a-z-]+ ){0,2}(?:band|orchestra|choir|church|ensemble|group|quartet|trio))?$");

    private static final String FREQUENCY =
            "every (?:other )?(?:day|morning|evening|night|week|weekend|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?: morning| afternoon| evening| night)?)"
                    + "|most (?:days|nights|mornings|evenings|weekends)"
                    + "|(?:once|twice|three times|four times|five times|\\d+ times|\\dx) (?:a|per|each) (?:week|month|day)"
                    + "|on (?:the )?(?:weekends|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)|daily|weekly";

    /** "I do pilates twice a week", "I go bouldering every Saturday". */
    private static final Pattern HABIT =
            Pattern.compile(
                    "(?i)^I (?:usually |regularly |still |also |try to )?(?:(?<do>do|practi[cs]e) (?<act>(?-i:[a-z]+)(?: (?-i:[a-z]+))?)|(?<go>go) (?<going>(?-i:[a-z]+ )?(?-i:[a-z]+ing)))(?: (?:at|in) (?<where>[^,]{2,40}?))? (?<freq>"
                            + FREQUENCY
                            + ")$");

    /** Things one does that tell nothing of the person. */
    private static final java.util.Set<String> CHORES =
            java.util.Set.of(
                    "it",
                    "that",
                    "this",
                    "them",
                    "nothing",
                    "something",
                    "things",
                    "stuff",
                    "laundry",
                    "dishes",
                    "the dishes",
                    "groceries",
                    "shopping",
                    "my best",
                    "work",
                    "homework",
                    "chores",
                    "errands");

    /** "I'm in a running club in Hackney", "I'm a member of the Rotary Club". */
    private static final Pattern CLUB =
            Pattern.compile(
                    "(?i)^I am (?:also |still )?(?:in|a member of|part of|on) (?<club>(?:an? |the |my )(?:local )?(?:[\\p{L}'-]+ ){1,3}?(?:club|group|team|choir|band|league|society|guild|circle|orchestra)|(?<=member of )the (?-i:[A-Z][\\p{L}'-]+(?: [A-Z][\\p{L}'-]+){0,3}))(?<where> (?:in|at) (?:(?-i:[A-Z])[\\p{L}.' -]{1,40}|the [a-z][a-z' -]{1,30}))?(?: that meets? [^,]{2,40})?$");

    private static final String MODES =
            "car|bus|train|bike|bicycle|subway|tube|metro|tram|ferry|scooter|e-?scooter|e-?bike|motorbike|motorcycle|foot";

    /** "I commute by train", "I take the bus to work", "I bike to work". */
    private static final Pattern COMMUTE =
            Pattern.compile(
                    "(?i)^I (?:usually |always |mostly |normally |now |still )?(?:(?:commute|get to work|go to work|travel to work) (?:by|on) (?<by>"
                            + MODES
                            + ")|(?:take|ride|catch|get) (?:the |a |my )?(?:\\d{1,3}[a-z]? )?(?<take>"
                            + MODES
                            + ") (?:to|into) work|(?<verb>bike|cycle|walk|drive) to work)(?: now| these days| every day| most days)?(?:, (?:like |about |around )?\\d+ ?(?:min|mins|minutes|hours?)\\b.*)?$");

    private static final Map<String, String> COMMUTE_VERBS =
            Map.of("bike", "bike", "cycle", "bike", "walk", "foot", "drive", "car");

    /** "I work the night shift", "i work nights at the warehouse". */
    private static final Pattern SHIFT =
            Pattern.compile(
                    "(?i)^I (?:now |still |usually |mostly )?(?:work|am on) (?:the )?(?:(?<shift>night|day|morning|evening|late|early|graveyard|overnight|weekend|\\d{1,2} ?(?:am|pm)) shifts?|(?<plural>nights|days|mornings|evenings|weekends|lates|earlies))(?<as> as an? [a-z -]{2,30}?)?(?<where> (?:at|in|for) [^,]{2,40})?(?: now)?$");

    /** "they moved me to the day shift", "switched to nights". */
    private static final Pattern SHIFT_MOVED =
            Pattern.compile(
                    "(?i)^(?:they|work|my (?:boss|manager|job|employer|work)|I) (?:have |finally |just )*(?:moved|switched|put|changed|got moved|got switched)(?: me)? (?:over )?(?:to|onto) (?:the )?(?:(?<shift>night|day|morning|evening|late|early|weekend) shifts?|(?<plural>nights|days|mornings|evenings|weekends))\\b.*$");

    private static final String FAITHS =
            "catholic|christian|muslim|jewish|buddhist|hindu|sikh|mormon|methodist|baptist|lutheran|anglican|presbyterian|evangelical|orthodox|quaker|pagan|jain|atheist|agnostic";

    /** "I'm Catholic", "I'm a practising Muslim". */
    private static final Pattern FAITH =
            Pattern.compile(
                    "(?i)^I am (?:an? )?(?:practi[cs]ing |devout |observant |born-again |proud |now |also )?(?<faith>"
                            + FAITHS
                            + ")(?: now| these days)?$");

    /** "I'm not catholic anymore". */
    private static final Pattern FAITH_LEFT =
            Pattern.compile(
                    "(?i)^I am (?:not|no longer) (?:an? )?(?:practi[cs]ing )?(?<faith>"
                            + FAITHS
                            + ")(?: anymore| any more)?(?:, .*)?$");

    /** "converted to christianity", "I consider myself methodist these days". */
    private static final Pattern FAITH_CHANGED =
            Pattern.compile(
                    "(?i)^I (?:have )?(?:(?:converted|became) (?:to )?(?:an? )?|(?:now )?consider myself (?:an? )?)(?<faith>"
                            + FAITHS
                            + "|christianity|islam|judaism|buddhism|hinduism|sikhism|catholicism|mormonism)\\b.*$");

    private static final Map<String, String> FAITH_OF =
            Map.of(
                    "christianity", "christian",
                    "islam", "muslim",
                    "judaism", "jewish",
                    "buddhism", "buddhist",
                    "hinduism", "hindu",
                    "sikhism", "sikh",
                    "catholicism", "catholic",
                    "mormonism", "mormon");

    /** The routine {@code c} tells of, if it is one of these shapes. */
    static Optional<Read> read(Renderer r, String c, Instant said) {
        if (!(c.startsWith("I ") || c.startsWith("i "))
                ? !SHIFT_START.matcher(c).lookingAt()
                : !VERB.matcher(c).lookingAt()) {
            return Optional.empty();
        }
        Matcher m;
        if ((m = PLAYS.matcher(c)).matches()) {
            String in = m.group("in") == null ? "" : lower(m.group("in"));
            return Optional.of(
                    Read.of(
                            "hobby",
                            r.subject()
                                    + " plays "
                                    + (m.group("the") == null ? "" : "the ")
                                    + lower(m.group("what"))
                                    + in,
                            said,
                            0.65));
        }
        if ((m = HABIT.matcher(c)).matches()) {
            String act = m.group("do") != null ? m.group("act") : m.group("going");
            if (CHORES.contains(lower(act))) {
                return Optional.empty();
            }
            String verb = m.group("do") != null ? "does" : "goes";
            String where = m.group("where") == null ? "" : " at " + m.group("where");
            return Optional.of(
                    Read.of(
                            "hobby",
                            r.subject()
                                    + " "
                                    + verb
                                    + " "
                                    + act
                                    + where
                                    + " "
                                    + frequency(m.group("freq")),
                            said,
                            0.65));
        }
        if ((m = CLUB.matcher(c)).matches()) {
            String how =
                    c.matches("(?i)^I am (?:also |still )?a member of .*") ? "a member of" : "in";
            String where = m.group("where") == null ? "" : m.group("where");
            return Optional.of(
                    Read.of(
                            "hobby",
                            r.subject()
                                    + " is "
                                    + how
                                    + " "
                                    + lowerArticle(m.group("club"))
                                    + where,
                            said,
                            0.65));
        }
        if ((m = COMMUTE.matcher(c)).matches()) {
            String mode =
                    m.group("by") != null
                            ? m.group("by")
                            : m.group("take") != null
                                    ? m.group("take")
                                    : COMMUTE_VERBS.get(lower(m.group("verb")));
            return Optional.of(
                    Read.of("attribute", r.subject() + " commutes " + commute(mode), said, 0.6));
        }
        if ((m = SHIFT.matcher(c)).matches() || (m = SHIFT_MOVED.matcher(c)).matches()) {
            String shift =
                    m.group("shift") != null
                            ? lower(m.group("shift"))
                            : lower(m.group("plural")).replaceFirst("s$", "");
            String where = m.pattern() == SHIFT && m.group("where") != null ? m.group("where") : "";
            String as = m.pattern() == SHIFT && m.group("as") != null ? m.group("as") : "";
            return Optional.of(
                    Read.of(
                            "work",
                            r.subject() + " works the " + shift + " shift" + as + where,
                            said,
                            0.65));
        }
        boolean left = false;
        if ((m = FAITH.matcher(c)).matches()
                || (m = FAITH_CHANGED.matcher(c)).matches()
                || (left = (m = FAITH_LEFT.matcher(c)).matches())) {
            String faith = lower(m.group("faith"));
            faith = FAITH_OF.getOrDefault(faith, faith);
            String written =
                    faith.equals("atheist") || faith.equals("agnostic")
                            ? faith
                            : Character.toUpperCase(faith.charAt(0)) + faith.substring(1);
            String article =
                    left
                            ? "no longer "
                            : faith.equals("atheist") || faith.equals("agnostic") ? "an " : "";
            return Optional.of(
                    Read.of("attribute", r.subject() + " is " + article + written, said, 0.65));
        }
        return Optional.empty();
    }

    /** The verbs every routine of the speaker's is told with, past an adverb: a cheap test. */
    private static final Pattern VERB =
            Pattern.compile(
                    "(?i)I (?:[a-z]+ ){0,2}?(?:play|do|go|am|practi[cs]e|am|commute|get|travel|take|ride|catch|bike|cycle|walk|drive|work|converted|became|consider|have|switched|moved|changed|got)\\b");

    private static final Pattern SHIFT_START =
            Pattern.compile("(?i)(?:they|work|my (?:boss|manager|job|employer|work)) ");

    /** "every saturday" as "every Saturday". */
    private static String frequency(String said) {
        String f = lower(said);
        Matcher day = DAY.matcher(f);
        return day.find()
                ? f.substring(0, day.start())
                        + Character.toUpperCase(f.charAt(day.start()))
                        + f.substring(day.start() + 1)
                : f;
    }

    private static final Pattern DAY =
            Pattern.compile("\\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\\b");

    private static String commute(String mode) {
        String m = lower(mode).replace("ebike", "e-bike").replace("escooter", "e-scooter");
        return m.equals("foot") ? "on foot" : "by " + m;
    }

    private static String lowerArticle(String club) {
        return club.replaceFirst("^(?i)(an?|the|my) ", lower(club.split(" ")[0]) + " ");
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
