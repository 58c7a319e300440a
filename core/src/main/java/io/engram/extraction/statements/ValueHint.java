package io.engram.extraction.statements;

import io.engram.text.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sentence of the speaker's that tells of a change in words no reader knows ("We've relocated -
 * Phoenix is home for us now", "Rex passed away, and we adopted a puppy named Bolt"), with the
 * values it names. It is no fact: it goes to the planner, which reads it against the values the
 * speaker's memories hold and stores the one it gives a new value of, or drops it.
 *
 * @param speaker who said it
 * @param sentence the sentence as said
 */
public record ValueHint(String speaker, String sentence) {

    /** The tag a hint travels with; nothing with it is ever stored as said. */
    public static final String TAG = "value-hint";

    /**
     * Words that make a sentence something other than the speaker's own change now: past, future,
     * wishes, trips, someone else's news.
     */
    /** People whose news a sentence of the speaker's may tell: "my sister moved to Denver". */
    static final String OTHERS =
            "sister|brother|mom|mum|mam|mother|dad|father|husband|hubby|wife|son|daughter|friend|bestie|bff|partner|boyfriend|girlfriend|bf|gf|fianc[eé]e?|kids?|parents|in-laws|cousin|aunt|uncle|niece|nephew|grandma|grandpa|granny|gran|nan|nana|grandad|grandmother|grandfather|step(?:mom|mum|dad|son|daughter)|boss|coworker|colleague|neighbou?r|roommate|flatmate|housemate";

    /** One of those people, and their possessive typed with or without its apostrophe. */
    static final String OTHER = "(?:" + OTHERS + ")(?:'?s)?";

    private static final Pattern NOT_THE_SPEAKERS_NOW =
            Pattern.compile(
                    "(?i)\\b(?:(?<!getting |get |got |gotten |be )used to|years ago|back when|when i was|grew up|visit|visiting|visited|trip|vacation|holiday|staying at|for the (?:weekend|week|night|holidays)|airbnb|hotel|will|\\w+'ll|\\w+’ll|(?<!been )going to|gonna|next|plan|plans|planning|might|maybe|want|wants|hope|hoping|thinking|would|could|should|if|interview|applied|considering|almost|nearly|tempted|tomorrow|my (?:"
                            + OTHER
                            + "|team(?:'?s)?))\\b");

    /** The speaker, or a chat line that leaves them out: "Got rid of the Jeep, ...". */
    private static final Pattern FIRST_PERSON =
            Pattern.compile(
                    "(?i)\\b(?:I|I'm|I've|im|ive|me|my|we|we're|we've|our|us)\\b|^please\\b|^(?:just |finally |been )?(?:got|sold|moved|settled|left|switched|started|joined|bought|quit|finished|traded|landed|picked|ditched|dropped|upgraded|swapped|cancell?ed|closed|signed|seeing|using|going)\\b|^(?:ok |okay |so )?new [\\p{L} ]{2,24}[,:]|^(?:the )?(?:landlord|boss|company|employer|work)\\b|^(?:finally |just )?(?:all )?(?:unpacked|first (?:day|week|month)|onboarding|orientation|officially)\\b");

    /** Words that say the old value is left behind when a sentence names it. */
    static final Pattern LEFT_BEHIND =
            Pattern.compile(
                    "(?i)\\b(?:was|were|had been|left|quit|sold|gone|got rid of|retired|moved away|stolen|parted ways|made the jump|jumped|moved on|stopped|let (?:me|us|(?:\\w+ ){1,3}of us) go|fired|gave away|traded|ditched|dumped|returned|crashed|wrecked|laid (?:me )?off|closed|cancell?ed|canceled|dropped|ended|done with|gave up|no longer|anymore|any more|no more|instead|replaced|switched|moved on|from|used to|old|former|ex|behind|passed away|totaled|died|broke up|split|separated)\\b");

    static final Pattern EMAIL = Pattern.compile("[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+");

    /** A phone number: seven digits or more, with the usual separators. */
    static final Pattern PHONE =
            Pattern.compile("(?<![\\w$])(?:\\+?\\d|\\(\\d{3}\\))[\\d() .-]{5,18}\\d(?![\\w%])");

    private static final Pattern MODEL_NUMBER =
            Pattern.compile(
                    " (?:[A-Z]?\\d{1,4}[A-Za-z]?\\b(?![,.]\\d)|(?<=(?:Model|Series|Class|Type) )[A-Z]\\b)(?: (?:Pro|Max|Plus|Mini|Ultra|Air|SE)\\b)*");

    /** A product named from a lower-case letter: "iPhone 15 Pro", "eBay". */
    private static final Pattern LOWER_FIRST_NAME =
            Pattern.compile(
                    "\\b[a-z][A-Z][\\p{L}]+(?: \\d{1,4}[A-Za-z]?)?(?: (?:Pro|Max|Plus|Mini|Ultra|Air|SE)\\b)*");

    /** A name with its title: "Ms. Park", "Dr. Shah". */
    private static final Pattern TITLED =
            Pattern.compile("\\b(?:Mr|Mrs|Ms|Dr|Prof)\\.? [A-Z][\\p{L}'-]+");

    /**
     * Where a name stands as a value: after a word that places it ("at SpaceX", "in Phoenix", "to
     * Crunch", "by SpaceX", "named Bolt"), before one ("Phoenix is home", "SpaceX hired me"), or as
     * "a Phoenix local".
     */
    private static final Pattern SLOT_BEFORE =
            Pattern.compile(
                    "(?i)(?:\\b(?:at|in|into|to|for|by|named|called|is|are|it's|now|name's|offer (?:with|from))|\\ban?)\\s+$");

    private static final Pattern SLOT_AFTER =
            Pattern.compile(
                    "^\\s+(?:is (?:home|where|my)|hired|offered|took me|(?:guy|girl|person|people|folks|local|resident|native|fan)\\b|(?:brought|took) me on (?:as|board))");

    /** Capitalised words that are no name: sentence openers, months, days, kin. */
    static final Set<String> NOT_NAMES =
            Set.of(
                    "I",
                    "Just",
                    "Left",
                    "Sold",
                    "Use",
                    "Got",
                    "Finally",
                    "Actually",
                    "Turns",
                    "So",
                    "Well",
                    "Anyway",
                    "Rent",
                    "Budget",
                    "Home",
                    "Our",
                    "My",
                    "We",
                    "The",
                    "No",
                    "Yes",
                    "Also",
                    "Now",
                    "New",
                    "Since",
                    "After",
                    "Today",
                    "January",
                    "February",
                    "March",
                    "April",
                    "May",
                    "June",
                    "July",
                    "August",
                    "September",
                    "October",
                    "November",
                    "December",
                    "Monday",
                    "Tuesday",
                    "Wednesday",
                    "Thursday",
                    "Friday",
                    "Saturday",
                    "Sunday",
                    "Mom",
                    "Dad",
                    "Mum",
                    "Grandma",
                    "Grandpa");

    /** A place or an employer of someone else's: "joined my family in Denver". */
    private static final Pattern SOMEONE_ELSES =
            Pattern.compile(
                    "(?i)\\b(?:family|parents|mom|mother|dad|father|sister|brother|friends?|kids|son|daughter|relatives|wife|husband|partner|cousins?|grandparents|folks)\\s+(?:in|at|from|near)\\s+$");

    /** The kinds of value a hint names. */
    public enum Kind {
        EMAIL,
        PHONE,
        MONEY,
        NUMBER,
        NAME,
        /** A value of common words, typed as they are: "green", "a senior data analyst". */
        WORD
    }

    /** A value the sentence names, of a kind; typed when read from words typed in lower case. */
    public record Named(Kind kind, String text, boolean typed) {

        Named(Kind kind, String text) {
            this(kind, text, false);
        }
    }

    /** The kind of a stored value, when it is one value of one kind (else null). */
    public static Kind kindOf(String value) {
        String v = bare(value);
        if (EMAIL.matcher(v).matches()) {
            return Kind.EMAIL;
        }
        if (PHONE.matcher(v).matches()) {
            return Kind.PHONE;
        }
        if (TITLED.matcher(v).matches()) {
            return Kind.NAME;
        }
        List<Values.Value> found = Values.find(v);
        if (found.size() == 1 && found.get(0).text().length() >= v.length() - 4) {
            Kind k = kindOf(found.get(0).kind());
            if (k != null) {
                return k;
            }
        }
        // "iPhone 12", "eBay": a name that starts in lower case.
        if (v.matches("(?:[a-z]?[A-Z][\\p{L}.'-]*\\s?){1,3}(?:\\d{1,4}[A-Za-z]?)?")) {
            return Kind.NAME;
        }
        // "blue", "junior data analyst": one to three common words.
        return v.matches("[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,2}") ? Kind.WORD : null;
    }

    private static Kind kindOf(Values.Kind k) {
        return switch (k) {
            case MONEY -> Kind.MONEY;
            case NUMBER -> Kind.NUMBER;
            case NAME -> Kind.NAME;
            default -> null;
        };
    }

    /** Whether words of {@code text} make it other than the speaker's own change now. */
    public static boolean notTheSpeakersNow(String text) {
        return NOT_THE_SPEAKERS_NOW.matcher(text).find();
    }

    /** The hint a sentence gives, if it tells of a change of the speaker's own now. */
    public static Optional<ValueHint> of(String speaker, String sentence) {
        String s = sentence.strip();
        // "Rocky died in April": read against whose Rocky the memories say.
        if (!s.isEmpty() && Ending.of(speaker, s, java.time.Instant.EPOCH).isPresent()) {
            return Optional.of(new ValueHint(speaker, s));
        }
        // "quit salesforce": read against the one memory whose value it names.
        if (!s.isEmpty() && Departure.of(speaker, s, java.time.Instant.EPOCH).isPresent()) {
            return Optional.of(new ValueHint(speaker, s));
        }
        if (s.isEmpty()
                || s.endsWith("?")
                || !(ChangeWords.mayTell(s) && FIRST_PERSON.matcher(s).find() && ChangeWords.tell(s)
                        || ShapedChange.tells(s))
                || NOT_THE_SPEAKERS_NOW.matcher(s).find()) {
            return Optional.empty();
        }
        ValueHint hint = new ValueHint(speaker, s);
        return hint.named().isEmpty() && !ShapedChange.tells(s)
                ? Optional.empty()
                : Optional.of(hint);
    }

    /** The hint as a candidate fact's content: the speaker, then the sentence. */
    public String content() {
        return speaker + ": " + sentence;
    }

    /** The hint a candidate fact's content carries. */
    public static ValueHint parse(String content) {
        int colon = content.indexOf(": ");
        return colon < 0
                ? new ValueHint("", content)
                : new ValueHint(content.substring(0, colon), content.substring(colon + 2));
    }

    /** True for a hint (by its tag). */
    public static boolean isHint(List<String> tags) {
        return tags.contains(TAG);
    }

    /** The values the sentence names where a value stands: emails, amounts, numbers, names. */
    public List<Named> named() {
        List<Named> out = new ArrayList<>();
        // Emails, phone numbers and titled names first, blanked (same length) for the rest.
        StringBuilder rest = new StringBuilder(sentence);
        for (Kind kind : List.of(Kind.EMAIL, Kind.PHONE, Kind.NAME)) {
            Pattern p = kind == Kind.EMAIL ? EMAIL : kind == Kind.PHONE ? PHONE : TITLED;
            Matcher m = p.matcher(rest);
            while (m.find()) {
                out.add(new Named(kind, m.group()));
                for (int i = m.start(); i < m.end(); i++) {
                    rest.setCharAt(i, ' ');
                }
            }
        }
        for (Values.Value v : Values.find(rest.toString())) {
            switch (v.kind()) {
                case MONEY, NUMBER ->
                        out.add(new Named(kindOf(v.kind()), v.text().replaceFirst("[,.]+$", "")));
                case NAME -> {
                    v = withoutLeadingWords(v);
                    String before = sentence.substring(0, v.start());
                    if (!NOT_NAMES.contains(v.text())
                            && !v.text().equals(speaker)
                            && !SOMEONE_ELSES.matcher(before).find()
                            && (SLOT_BEFORE.matcher(sentence.substring(0, v.start())).find()
                                    || SLOT_AFTER.matcher(sentence.substring(v.end())).find())) {
                        // "a Tesla Model 3": a model's number is part of its name.
                        Matcher number =
                                MODEL_NUMBER
                                        .matcher(sentence)
                                        .region(v.end(), sentence.length())
                                        .useTransparentBounds(true);
                        out.add(
                                new Named(
                                        Kind.NAME,
                                        number.lookingAt() ? v.text() + number.group() : v.text()));
                    }
                }
                default -> {}
            }
        }
        Matcher product = LOWER_FIRST_NAME.matcher(sentence);
        while (product.find()) {
            out.add(new Named(Kind.NAME, product.group()));
        }
        // Chat typed in lower case: "ported my number to t-mobile", as a name and as words.
        for (TypedValues.Typed t : TypedValues.in(sentence)) {
            if (!t.word().equals(ValueHint.lower(speaker))
                    && !SOMEONE_ELSES.matcher(sentence.substring(0, t.start())).find()) {
                if (t.name() != null) {
                    out.add(new Named(Kind.NAME, t.name(), true));
                }
                out.add(new Named(Kind.WORD, t.word(), true));
            }
        }
        return out;
    }

    /** Words a capitalised run starts with that are no part of a name: "We're Sacramento". */
    private static final Set<String> LEADING =
            Set.of(
                    "we're",
                    "i'm",
                    "it's",
                    "we",
                    "i",
                    "they're",
                    "you're",
                    "that's",
                    "there's",
                    "here's",
                    "our",
                    "my",
                    "the",
                    "so",
                    "and",
                    "but",
                    "honestly",
                    "now",
                    "just",
                    "finally",
                    "well",
                    "yes",
                    "no",
                    "also");

    private static Values.Value withoutLeadingWords(Values.Value v) {
        String text = v.text();
        int start = v.start();
        int space;
        while ((space = text.indexOf(' ')) > 0
                && LEADING.contains(
                        text.substring(0, space).toLowerCase(Locale.ROOT).replace('’', '\''))) {
            text = text.substring(space + 1);
            start += space + 1;
        }
        return new Values.Value(v.kind(), text, start, v.end());
    }

    /** Whether the sentence names {@code value} (as a whole word, in any case). */
    public boolean mentions(String value) {
        String v = bare(value);
        // "Our Kia was stolen": a make names the car "a Kia Soul".
        String make = v.split(" ")[0];
        if (!make.equals(v)
                && !TITLED.matcher(v).lookingAt()
                && make.length() >= 3
                && Character.isUpperCase(make.charAt(0))
                && mentionsWord(make)) {
            return true;
        }
        return mentionsWord(v);
    }

    /**
     * Whether the sentence names {@code value} other than as a part of one of {@code values}:
     * whole, or by its make when no value named starts with that make ("My Kia got a paint job"
     * names the Kia; "upgraded to the iPhone 15" names the iPhone 15, not "an iPhone 12").
     */
    public boolean mentionsApartFrom(String value, List<Named> values) {
        String v = bare(value);
        if (mentionsWord(v)) {
            return true;
        }
        String make = lower(v.split(" ")[0]);
        return mentions(value) && values.stream().noneMatch(n -> lower(n.text()).startsWith(make));
    }

    private boolean mentionsWord(String v) {
        return Pattern.compile("(?i)(?<![\\p{L}0-9])" + Pattern.quote(v) + "(?![\\p{L}0-9])")
                .matcher(sentence)
                .find();
    }

    /** Whether the sentence says an old value is left behind. */
    public boolean leavesBehind() {
        return LEFT_BEHIND.matcher(sentence).find();
    }

    /** Lower case, for comparing values. */
    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    /** A stored value without its article, or a partner's without "dating". */
    private static String bare(String value) {
        // "a 2012 Toyota Corolla": the model year is no part of the name's kind.
        return value.strip()
                .replaceFirst("(?i)^(?:an?|the|dating) ", "")
                // "$1400 a month for my place": an amount, whatever it is paid for.
                .replaceFirst(
                        "(?i)(?<=\\d)(?:(?: a| an| per|/) ?(?:month|mo|year|yr|week|wk|hour|hr))?(?: for (?:my|our|their|the|a) [^.]{1,30})?$",
                        "")
                .replaceFirst("^(?:19|20)\\d{2} (?=[A-Z])", "");
    }
}
