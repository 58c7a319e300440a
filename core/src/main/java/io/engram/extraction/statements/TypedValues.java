package io.engram.extraction.statements;

import io.engram.text.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Values chat types in lower case where a value stands: "ported my number to t-mobile", "warriors
 * are my team now", "succession has replaced the office", "im a mets fan now", "seeing dr. okafor
 * now". Capitalised values are {@link io.engram.text.Values}' to find; these are the ones it cannot
 * tell from other words, so only a few places in a sentence are read, and only words that can name
 * something are kept.
 */
public final class TypedValues {

    private TypedValues() {}

    /**
     * A value found: as a name is written ("T-Mobile", "Dr. Okafor"; null for a role, which is
     * none), as typed ("t-mobile"), and where it starts.
     */
    record Typed(String name, String word, int start) {}

    /** One to three words typed in lower case; the shortest that reaches where a value ends. */
    private static final String WORDS =
            "(?<v>[a-z][a-z0-9.&'+-]*(?: [a-z0-9][a-z0-9.&'+-]*){0,2}?)";

    /** Where a value ends: the sentence's end, a mark, or words that come after one. */
    private static final String END =
            "(?=\\s*$|\\s*[,.;!?:)(…~]|\\s+(?:now|instead|these days|nowadays|since|because|bc|cause|cuz|and|but|lol|lmao|tbh|ngl|honestly|finally|from now on|going forward|way|so|haha|rn|fr|already|today|yesterday|last|this|starting)\\b|\\s+[^\\p{L}\\p{N}\\s])";

    /** After a word that places a value: "switched to t-mobile", "seeing dr. okafor". */
    private static final Pattern AFTER =
            Pattern.compile(
                    "(?i)\\b(?:(?:switched|switching|moved|moving|ported|porting|changed|transferred|been going|signed up|upgraded|downgraded|over)(?: [\\p{L}'-]+){0,3}? (?:to|at|with)|seeing|joined|using)\\s+(?:an?\\s+|the\\s+)?"
                            + WORDS
                            + END);

    /** First, then "is my": "warriors are my team now", "green is my fav color". */
    private static final Pattern IS_MY =
            Pattern.compile(
                    "(?i)(?:^|[.!?,;:]\\s*|\\b(?:tbh|ok|okay|so|and|but|yeah|honestly)\\s+)"
                            + WORDS
                            + " (?:is|are) (?:now |officially |definitely )?my (?:new )?");

    /** First, then replacing the old one: "succession has replaced the office". */
    private static final Pattern REPLACED =
            Pattern.compile(
                    "(?i)(?:^|[.!?,;:]\\s*)"
                            + WORDS
                            + " (?:has |have |just |officially )*(?:replaced|overtaken|overtook|taken over from|took over from|dethroned)\\b");

    /** "a mets fan now": one of a team's or a band's followers. */
    private static final Pattern FAN =
            Pattern.compile("(?i)\\b(?:an?|the) " + WORDS + " (?:fan|supporter)s?\\b");

    /** "new favorite band alert: khruangbin". */
    private static final Pattern NEW_ONE =
            Pattern.compile(
                    "(?i)\\bnew [a-z ]{2,30}?(?: alert)?: (?:an?\\s+|the\\s+)?" + WORDS + END);

    /** "a senior data analyst now": a role, said as the speaker's now. */
    private static final Pattern ROLE_NOW =
            Pattern.compile(
                    "(?i)\\b(?:officially|i['’]m|im|i am)(?: officially| finally)? (?:an? )?"
                            + WORDS
                            + " now\\b");

    /** A name given as one: "his name is marcus", "a puppy named biscuit". */
    private static final Pattern NAMED =
            Pattern.compile("(?i)\\b(?:named|called|name is|name's) (?<v>[a-z][a-z'-]+)" + END);

    /** A doctor typed in lower case: "dr. okafor", "dr okafor". */
    private static final Pattern DOCTOR = Pattern.compile("(?i)\\bdr\\.? (?<v>[a-z][a-z'-]+)\\b");

    private static final List<Pattern> FRAMES =
            List.of(NAMED, AFTER, IS_MY, REPLACED, FAN, NEW_ONE, ROLE_NOW);

    /** The lower-case values {@code sentence} types where a value stands, in order, once each. */
    static List<Typed> in(String sentence) {
        List<Typed> out = new ArrayList<>();
        Matcher d = DOCTOR.matcher(sentence);
        while (d.find()) {
            String v = d.group("v");
            if (v.equals(v.toLowerCase(Locale.ROOT)) && !Text.STOPWORDS.contains(v)) {
                String name = "Dr. " + Character.toUpperCase(v.charAt(0)) + v.substring(1);
                add(out, new Typed(name, d.group().toLowerCase(Locale.ROOT), d.start()));
            }
        }
        for (Pattern frame : FRAMES) {
            Matcher m = frame.matcher(sentence);
            while (m.find()) {
                String v = m.group("v");
                if (!v.equals(v.toLowerCase(Locale.ROOT)) || v.startsWith("dr")) {
                    continue;
                }
                // "a boyfriend now", "a senior analyst now": a role, in words, never a name.
                boolean role =
                        Lexicons.ROLES.contains(v)
                                || Lexicons.RELATIONS.contains(v)
                                || Lexicons.SINGLE_ROLES.contains(v);
                words(v).map(name -> new Typed(role ? null : name, v, m.start("v")))
                        .ifPresent(t -> add(out, t));
            }
        }
        return out;
    }

    /** Where a value typed after a slot ends, beside {@link #END}: its place, time or role. */
    private static final String SLOT_END =
            "(?=\\s*$|\\s*[,.;!?:)(…~]|\\s+(?:now|instead|these days|nowadays|since|because|bc|cause|cuz|and|but|lol|lmao|tbh|ngl|honestly|finally|from now on|going forward|so|haha|rn|fr|already|today|yesterday|last|this|next|starting|on|in|as|for|near|tho|though|same|too)\\b|\\s+[^\\p{L}\\p{N}\\s])";

    /** The pattern {@link #after} reads with: a value typed after one of {@code slots}' words. */
    public static Pattern slot(String slots) {
        return Pattern.compile(
                "(?i)\\b(?:" + slots + ")\\s+(?:an?\\s+|the\\s+)?" + WORDS + SLOT_END);
    }

    /**
     * The names typed in lower case after one of {@code slot}'s words ("started at stripe this
     * week": "Stripe"), in order; words that cannot name anything are left out.
     */
    public static List<String> after(Pattern slots, String sentence) {
        Matcher m = slots.matcher(sentence);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            String v = m.group("v");
            if (v.equals(v.toLowerCase(Locale.ROOT))
                    && !Lexicons.ROLES.contains(v)
                    && !Lexicons.RELATIONS.contains(v)) {
                words(v).ifPresent(out::add);
            }
        }
        return out;
    }

    /** Lower-case words as a name is written ("elden ring" as "Elden Ring"), if they can be one. */
    static Optional<String> name(String words) {
        return words.matches("[a-z][a-z0-9.&'+-]*(?: [a-z0-9][a-z0-9.&'+-]*){0,2}")
                ? words(words)
                : Optional.empty();
    }

    private static void add(List<Typed> out, Typed t) {
        if (out.stream().noneMatch(o -> o.word().equals(t.word()))) {
            out.add(t);
        }
    }

    /**
     * The words as a name, when each can be part of one (no word that places or judges: "work",
     * "home", "good", "something") and not all of them say nothing in particular ("new project").
     */
    private static Optional<String> words(String v) {
        boolean vague = true;
        for (String w : v.split(" ")) {
            String bare = w.replaceAll("[.']+$", "");
            if (bare.length() < 2 && !bare.matches("\\d")
                    || Text.STOPWORDS.contains(bare)
                    || Lexicons.JUDGEMENTS.contains(bare)
                    || Lexicons.EMPTY_OBJECTS.contains(bare)
                    || Lexicons.NOT_ATTRIBUTES.contains(bare)) {
                return Optional.empty();
            }
            vague &= Lexicons.VAGUE.contains(bare);
        }
        // "project hail mary" is a name; "new project" says nothing.
        if (vague) {
            return Optional.empty();
        }
        StringBuilder name = new StringBuilder();
        for (String w : v.split(" ")) {
            if (Lexicons.NOT_NAMES.contains(w)) {
                return Optional.empty();
            }
            if (name.length() > 0) {
                name.append(' ');
            }
            name.append(capitalised(w));
        }
        return Optional.of(name.toString());
    }

    /** "t-mobile" as T-Mobile, "8" as it is. */
    private static String capitalised(String w) {
        StringBuilder out = new StringBuilder(w.length());
        boolean start = true;
        for (char c : w.toCharArray()) {
            out.append(start ? Character.toUpperCase(c) : c);
            start = c == '-';
        }
        return out.toString();
    }
}
