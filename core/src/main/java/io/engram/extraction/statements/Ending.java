package io.engram.extraction.statements;

import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A being of the speaker's, named, that is gone: "Rocky died in April", "Oreo ran away last
 * spring", "Grandma passed away". Said alone the name is nobody's; read against the memory that
 * tells whose pet or relative the name is ("Dana has a dog named Rocky"), it ends that memory and
 * is stored in its words ("Dana's dog Rocky died in April 2026.").
 *
 * @param subject the speaker
 * @param name the name said
 * @param verb what happened, as said ("died", "ran away")
 * @param when the time it happened, written out ("in April 2026"), or ""
 * @param at when it happened, or when it was said
 */
public record Ending(String subject, String name, String verb, String when, Instant at) {

    private static final Pattern ENDED =
            Pattern.compile(
                    "(?:^|[,;.!] |\\b(?:and|but|so|sadly|unfortunately) )(?:(?i:my|our) (?:[a-z]+ ){0,2})?(?<name>[\\p{L}][\\p{L}'-]+) (?:(?i:has|had|just|sadly|finally|recently|unexpectedly|suddenly|peacefully) )*(?<verb>died|passed away|passed on|ran away|went missing|was put down|was put to sleep|crossed the rainbow bridge|(?:had to be|has been|was|got) re-?homed)\\b(?<rest>[^,;.!?]*)");

    /** The ending said before the name: "RIP Biscuit", "we had to rehome pickles". */
    private static final Pattern NAME_AFTER =
            Pattern.compile(
                    "(?:^|[,;.!] |\\b(?:and|but|so|sadly|unfortunately) |\\b(?i:we|i) )(?<verb>(?i:rip|r\\.i\\.p\\.?|had to rehome|rehomed|had to put down|put down)) (?<name>[\\p{L}][\\p{L}'-]+)\\b(?<rest>[^,;.!?]*)");

    /** Words before a name that make it nobody's being: "my friend's dog Max died". */
    private static final Pattern SOMEONE_ELSES =
            Pattern.compile(
                    "(?i)\\b(?:his|her|their|your|[a-z]+'s|[a-z]+’s) (?:[a-z]+ ){0,2}$|\\b(?:neighbou?r|friend|coworker|colleague|sister|brother|cousin|aunt|uncle|boss)\\b[^,.;!]{0,20}$");

    /** Words that take an ending back: "… ran away, but we found her". */
    private static final Pattern UNDONE =
            Pattern.compile(
                    "(?i)\\b(?:found (?:him|her|them|it)|came (?:back|home)|is back|turned up|almost|nearly)\\b");

    /** The ending {@code sentence} of {@code speaker}'s tells of, said at {@code said}, if any. */
    public static Optional<Ending> of(String speaker, String sentence, Instant said) {
        // Every sentence that gave no value asks: the words first, the expressions after.
        if (!(sentence.contains("died")
                        || saysRip(sentence)
                        || sentence.contains("ehome")
                        || sentence.contains("passed")
                        || sentence.contains(" away")
                        || sentence.contains("missing")
                        || sentence.contains(" put ")
                        || sentence.contains("bridge"))
                || sentence.endsWith("?")
                || TimePhrases.future(sentence)
                || UNDONE.matcher(sentence).find()) {
            return Optional.empty();
        }
        Matcher m = NAME_AFTER.matcher(sentence);
        if (!m.find() || Lexicons.EMPTY_OBJECTS.contains(lower(m.group("name")))) {
            m = ENDED.matcher(sentence);
            if (!m.find()) {
                return Optional.empty();
            }
        }
        if (SOMEONE_ELSES.matcher(sentence.substring(0, m.start("name"))).find()) {
            return Optional.empty();
        }
        String rest = m.group("rest");
        Optional<TimePhrases.Resolved> time = TimePhrases.first(rest, said);
        return Optional.of(
                new Ending(
                        speaker,
                        m.group("name"),
                        said(m.group("verb")),
                        time.map(t -> " " + t.text()).orElse(""),
                        time.map(TimePhrases.Resolved::instant).orElse(said)));
    }

    /** "RIP", "rip", "R.I.P" as a word: not the "rip" of "trip". */
    private static boolean saysRip(String s) {
        if (s.contains("R.I.P") || s.contains("r.i.p")) {
            return true;
        }
        for (String rip : new String[] {"rip ", "RIP", "Rip "}) {
            for (int i = s.indexOf(rip); i >= 0; i = s.indexOf(rip, i + 1)) {
                if (i == 0 || !Character.isLetter(s.charAt(i - 1))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    /** The verb as the memory writes it: "RIP" is "died", "had to rehome" is "was rehomed". */
    private static String said(String verb) {
        String v = lower(verb);
        if (v.startsWith("rip") || v.startsWith("r.i.p")) {
            return "died";
        }
        if (v.contains("rehome")) {
            return "was rehomed";
        }
        return v.contains("put down") ? "was put down" : verb;
    }

    /**
     * The pet or relative {@code content} says the subject has by this name: "Dana has a dog named
     * Rocky", "Dana's dog is named Rocky", "Dana's grandmother is Rose" give "dog", "dog",
     * "grandmother".
     */
    public Optional<String> relationIn(String content) {
        String who = Pattern.quote(subject);
        String named = Pattern.quote(name);
        Matcher m =
                Pattern.compile(
                                "^"
                                        + who
                                        + "(?:['’]s (?<rel>[a-z]+(?: [a-z]+)?)(?:['’]s name)? is (?:named |called )?"
                                        + "| (?:has|had|adopted|got) (?:a|an|one|another|a new) (?<rel2>(?:[a-z]+ )?[a-z]+) (?:named|called) )"
                                        + "(?i:"
                                        + named
                                        + ")\\b[^.]*\\.?$")
                        .matcher(content.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        String rel = (m.group("rel") != null ? m.group("rel") : m.group("rel2"));
        String r = rel.toLowerCase(Locale.ROOT);
        return Lexicons.RELATIONS.contains(r) || Lexicons.RELATIONS.contains(Phrases.lastWord(r))
                ? Optional.of(rel)
                : Optional.empty();
    }

    /** The ending in the words of the memory it ends: "Dana's dog Rocky died in April 2026." */
    public String sentence(String relation) {
        return subject + "'s " + relation + " " + name + " " + verb + when + ".";
    }

    /** The ending with the name as {@code content} writes it ("mochi" told, "Mochi" stored). */
    public Ending spelledAsIn(String content) {
        Matcher m =
                Pattern.compile("(?i)(?<![\\p{L}])" + Pattern.quote(name) + "(?![\\p{L}])")
                        .matcher(content);
        return m.find() ? new Ending(subject, m.group(), verb, when, at) : this;
    }
}
