package io.engram.extraction.statements;

import static io.engram.extraction.statements.Phrases.*;
import static io.engram.extraction.statements.StatementPatterns.*;

import io.engram.memory.MemoryType;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parts of {@link StatementExtractor}'s statements that need more than a pattern: an attribute
 * and its value, a place, what someone has, a plan, an event, each with its time resolved.
 */
final class StatementReaders {

    private StatementReaders() {}

    /** "The Office", "A Little Life": a title, capitalised after its article. */
    private static final Pattern TITLE = Pattern.compile("^(?i:the|a|an) [A-Z0-9]");

    /** A reason after a value: "… to save money", "… in order to be closer to work". */
    private static final java.util.regex.Pattern PURPOSE =
            java.util.regex.Pattern.compile(
                    "(?i) (?:in order )?to (?:save|get|keep|help|make|be|have|spend|pay|cut|reduce|stay|avoid|earn|afford|cover|free up)\\b.*$");

    private static final Pattern OF_ALL_TIME = Pattern.compile("(?i) (?:of all time|ever)$");

    private static final Pattern FAVORITE_ALONE =
            Pattern.compile("(?i)#1|number one|no\\.? ?1|fave?|favou?rite|go-to");

    /** "def ramen": the speaker's certainty before a value. */
    /** "a guy called", "named": the words before a name in a role. */
    private static final Pattern CALLED =
            Pattern.compile(
                    "(?i)^(?:(?:an?|this|some) (?:guy|girl|woman|man|lady|bloke|dude|chap|fella|person|doctor) )?(?:called|named) (?=\\p{Lu}|[a-z]+$)");

    private static final Pattern CERTAINTY =
            Pattern.compile(
                    "(?i)^(?:def|defo|deffo|definitely|probably|honestly|literally|obviously|easily|still) (?=\\S)");

    /** Attributes an amount of money is the value of. */
    private static final java.util.Set<String> MONEY_HEADS =
            java.util.Set.of(
                    "rent",
                    "salary",
                    "pay",
                    "income",
                    "wage",
                    "wages",
                    "budget",
                    "mortgage",
                    "allowance",
                    "paycheck",
                    "bill",
                    "fee",
                    "fees",
                    "price",
                    "cost");

    /** An amount first, and how often it is paid. */
    private static final Pattern AMOUNT =
            Pattern.compile(
                    "(?i)(?<sign>[$€£] ?)?\\d[\\d,.]*(?:k|m|K|M)?(?: ?(?:dollars|euros|pounds|bucks|quid|grand|thousand))?(?: ?(?:a|an|per|/) ?(?:month|year|week|hour|night|mo|yr|wk|hr))?(?=\\s|$)");

    /** When an amount holds from, said after it: not part of the value. */
    private static final Pattern WHEN_AFTER =
            Pattern.compile(
                    "(?i) (?:from|starting|beginning|effective|as of|this|next|in|on|until|till|since|after|before)\\b");

    static Optional<Read> attribute(
            Renderer r, String attr, String copula, String value, Instant said, double importance) {
        String a =
                attr.strip()
                        .replaceAll("^(?i)(new|current|actual) ", "")
                        .replaceAll(
                                "(?i) (these days|nowadays|lately|right now|at the moment|now|ngl|tbh|rn|lol|honestly|imo|atm)$",
                                "");
        // "my snack of choice" is the favorite snack.
        a = a.replaceFirst("(?i)^([\\p{L}-]+) of choice$", "favorite $1");
        // "my favourite book of all time": the favorite book.
        a = OF_ALL_TIME.matcher(a).replaceFirst("");
        // "my fav food", "my fave band": the favorite one.
        a = a.replaceFirst("(?i)^fave? ", "favorite ");
        // "my closest friend" is the best friend.
        a = a.replaceFirst("(?i)^(?:closest|very best|bestest) friend$", "best friend");
        // "my number one band", "my #1 show": the favorite one.
        a = a.replaceFirst("(?i)^(?:number one|#1|no\\.? 1) ([\\p{L}-]+)$", "favorite $1");
        // "email address" is the email: one attribute, however named.
        a = a.replaceFirst("(?i)^e-?mail address$", "email");
        // "My new address is kim@new.net": an address that is an email is the email.
        if (a.matches("(?i)(?:contact )?address|contact")
                && value.strip().matches("\\S+@\\S+\\.\\w+")) {
            a = "email";
        }
        // "My phone is 222-3333", "my cell is …": its number.
        if (a.matches(
                        "(?i)phone|cell|cell ?phone|mobile|(?:cell|cell ?phone|mobile|mobile phone|phone) (?:number|no\\.?|#)|number")
                && value.strip().matches("\\+?[\\d() .-]{7,20}\\d")) {
            a = "phone number";
        }
        String head = lastWord(a.replaceAll("(?i) (for|of|at|in|on|with|to|from) .*$", ""));
        boolean favorite =
                a.toLowerCase(Locale.ROOT).startsWith("favorite")
                        || a.toLowerCase(Locale.ROOT).startsWith("favourite")
                        || a.toLowerCase(Locale.ROOT).startsWith("go-to ");
        // "My phone is an iPhone": a device named by its make is one, "my phone is dead" is not.
        boolean device =
                head.matches("(?i)phone|computer")
                        && value.strip().matches("^(?:an? |the )?[a-z]?[A-Z].*");
        // "My best friend is Jess": a friend named is one, "my friend is amazing" is not.
        boolean namedFriend =
                head.equalsIgnoreCase("friend")
                        && value.strip().matches("^[A-Z][\\p{L}'’-]+(?: [A-Z][\\p{L}'’-]+)?[.!]*$");
        // "tacos are my #1 now": a favorite of nothing named; a hint reads it against the one
        // the speaker has.
        // "my red hair is fading": the colour is in the words before "hair", and what follows is
        // how it is today, not its value.
        if (a.matches("(?i)(?:[a-z]+ )+hair")) {
            return Optional.empty();
        }
        if (FAVORITE_ALONE.matcher(a).matches()) {
            return Optional.empty();
        }
        if (Lexicons.NOT_ATTRIBUTES.contains(head.toLowerCase(Locale.ROOT))
                        && !device
                        && !namedFriend
                || a.split(" ").length > 7
                || a.matches("(?i).*\\b(you|your|it|this|that|i)\\b.*")) {
            return Optional.empty();
        }
        // "more like $1,500": the value, without the words that correct it; "Progressive to
        // save money": without the reason.
        Optional<String> v =
                phrase(PURPOSE.matcher(value).replaceFirst(""), 10)
                        .map(
                                x ->
                                        x.replaceFirst(
                                                "(?i)^(?:more like|something like|closer to) ",
                                                ""));
        if (v.isEmpty()) {
            return Optional.empty();
        }
        // "def ramen", "probably Heat": the value, without the speaker's certainty.
        v = v.map(x -> CERTAINTY.matcher(x).replaceFirst(""));
        // "my manager is a guy called Trevor", "my therapist is called Ruth": the one in a role is
        // the name (a pet or a relative keeps its words: "my dog is called Bear").
        if (!Lexicons.RELATIONS.contains(head.toLowerCase(Locale.ROOT))) {
            v = v.map(x -> CALLED.matcher(x).replaceFirst(""));
        }
        // "1020 from next month", "$1,550 starting june": an amount and how often it is paid.
        Matcher amount = AMOUNT.matcher(v.get());
        if (amount.lookingAt()
                && WHEN_AFTER.matcher(v.get().substring(amount.end())).lookingAt()
                && (amount.group("sign") != null
                        || MONEY_HEADS.contains(head.toLowerCase(Locale.ROOT)))) {
            v = Optional.of(amount.group());
        }
        String first = firstWord(v.get());
        // "my family is my motivation", "my hard work is paying off": a feeling, not a value.
        if (!favorite
                && !v.get().contains("@")
                && v.get()
                        .matches(
                                "(?i)^(?:my|our|their|his|her|going|coming along|paying off|doing|working out|getting (?:better|there))\\b.*")) {
            return Optional.empty();
        }
        if (!favorite
                && !kindOf(head.toLowerCase(Locale.ROOT), v.get())
                && (Lexicons.JUDGEMENTS.contains(first)
                        || Lexicons.EMPTY_OBJECTS.contains(first))) {
            return Optional.empty();
        }
        // "The Office", "The Hobbit": a title, not an empty word.
        boolean title = TITLE.matcher(v.get()).lookingAt();
        // "a negroni", "a flat white": a thing, after its article.
        boolean thing =
                (first.equals("a") || first.equals("an"))
                        && v.get().split(" ").length > 1
                        && !Lexicons.EMPTY_OBJECTS.contains(
                                firstWord(v.get().substring(first.length())))
                        && !Lexicons.JUDGEMENTS.contains(
                                firstWord(v.get().substring(first.length())));
        if (favorite && Lexicons.EMPTY_OBJECTS.contains(first) && !title && !thing) {
            return Optional.empty();
        }
        double weight = importance + (v.get().matches(".*[$€£0-9].*") ? 0.1 : 0);
        return Optional.of(
                Read.of(
                        "attribute",
                        r.possessive()
                                + " "
                                + r.thirdPerson(a)
                                + " "
                                + copula.toLowerCase(Locale.ROOT)
                                + " "
                                + r.thirdPerson(v.get()),
                        said,
                        Math.min(1, weight)));
    }

    /**
     * "My car is a Honda Civic", "my sister is a nurse": what kind of thing or person a belonging
     * or relative is — a name or a role after the article, not a judgement ("my car is a mess").
     */
    private static boolean kindOf(String head, String value) {
        if (!value.matches("(?i)^an? .+")
                || !(Lexicons.BELONGINGS.contains(head) || Lexicons.RELATIONS.contains(head))) {
            return false;
        }
        // A make's name, "Honda" or "iPhone".
        return value.substring(value.indexOf(' ') + 1).matches("(?s).*\\b[a-z]?[A-Z].*")
                || Lexicons.role(lastWord(value));
    }

    /**
     * "I am a nurse at the clinic": an occupation or side role, with an article, and where it is
     * held.
     */
    static Optional<Read> role(Renderer r, String said, String at, Instant when) {
        String role = said.toLowerCase(Locale.ROOT);
        if (!Lexicons.role(lastWord(role)) || !(role.startsWith("a ") || role.startsWith("an "))) {
            return Optional.empty();
        }
        String where =
                at == null ? "" : phrase(at, 6).map(w -> " " + r.thirdPerson(w.strip())).orElse("");
        return Optional.of(Read.of("attribute", r.subject() + " is " + role + where, when, 0.75));
    }

    /** The place {@code text} starts with, up to the first of the words {@code ends}, if named. */
    private static Optional<String> namedPlace(String text, String ends) {
        String where = text.split("(?i) (" + ends + ") ", 2)[0];
        Optional<String> p = phrase(where, 6);
        return p.filter(x -> x.matches(".*\\b[A-Z][\\p{L}]+.*"))
                .or(() -> p.flatMap(Phrases::lowerName));
    }

    static Optional<Read> place(Renderer r, String place, Instant said, boolean moved) {
        Optional<TimePhrases.Resolved> when = TimePhrases.first(place, said);
        String p = when.map(w -> cutOut(place, w)).orElse(place);
        Optional<String> named = namedPlace(p, "with|for|since|because|and|where|which|near");
        if (moved && named.isPresent() && !p.matches(".*\\b[A-Z].*") && when.isEmpty()) {
            // "moved over to youtube music", "moved to python": a move typed in lower case is
            // read only with its time ("moved to raleigh last weekend").
            return Optional.empty();
        }
        if (named.isEmpty()) {
            return Optional.empty();
        }
        String text =
                moved
                        ? r.subject()
                                + " moved to "
                                + named.get()
                                + when.map(w -> " " + w.text()).orElse("")
                        : r.subject() + " lives in " + named.get();
        return Optional.of(
                new Read(
                        "attribute",
                        MemoryType.SEMANTIC,
                        text,
                        when.map(TimePhrases.Resolved::instant).orElse(said),
                        0.85));
    }

    /**
     * "I grew up in Denver": where someone comes from, in words no residence is read from, so it
     * never replaces where they live.
     */
    static Optional<Read> origin(Renderer r, String verb, String prep, String place, Instant said) {
        Optional<String> named =
                namedPlace(place, "with|for|since|because|and|but|where|which|when");
        String how =
                verb == null
                        ? " is from "
                        : " "
                                + verb.toLowerCase(Locale.ROOT)
                                + " "
                                + prep.toLowerCase(Locale.ROOT)
                                + " ";
        return named.map(
                n -> new Read("attribute", MemoryType.SEMANTIC, r.subject() + how + n, said, 0.8));
    }

    static Optional<String> object(Renderer r, String obj) {
        Optional<String> o = phrase(obj, 10);
        if (o.isEmpty()) {
            return Optional.empty();
        }
        String first = firstWord(o.get());
        if (vague(o.get())) {
            return Optional.empty();
        }
        if (Lexicons.EMPTY_OBJECTS.contains(first)
                || o.get().matches("(?i).*\\b(you|your|yours|yourself)\\b.*")
                || o.get()
                        .matches(
                                "(?i)^(that|how|what|when|where|it when|the way|the idea|the fact|being|seeing|hearing)\\b.*")) {
            return Optional.empty();
        }
        return Optional.of(r.thirdPerson(o.get()));
    }

    static Optional<String> organisation(String org) {
        Optional<String> p = phrase(org, 5);
        return p.filter(o -> o.matches("^[A-Z0-9].*") || o.matches("(?i)^(a|an|the) .*"))
                .or(() -> p.flatMap(Phrases::lowerName));
    }

    /**
     * "I have been vegan since March": a diet or a lasting condition, with the time it began when
     * said.
     */
    static Read diet(Renderer r, String said, String rest, Instant at) {
        Optional<TimePhrases.Resolved> from =
                rest == null ? Optional.empty() : TimePhrases.first(rest, at);
        String since =
                from.map(t -> " since " + t.text().replaceFirst("^(on|in|around) ", "")).orElse("");
        String diet =
                said.toLowerCase(Locale.ROOT)
                        .replaceFirst("^veggie$", "vegetarian")
                        .replaceFirst(
                                "^(aries|taurus|gemini|leo|virgo|libra|scorpio|sagittarius|capricorn|aquarius|pisces)$",
                                "a $1")
                        .replaceFirst("^(night owl|morning person|early bird)$", "a $1");
        diet = diet.startsWith("a ") ? capitalSign(diet) : diet;
        String text = r.subject() + (since.isEmpty() ? " is " : " has been ") + diet + since;
        return new Read(
                "attribute",
                MemoryType.SEMANTIC,
                text,
                from.map(TimePhrases.Resolved::instant).orElse(at),
                0.75);
    }

    /**
     * "To fix my bike, first …": the speaker's way to do something, unless told to the listener.
     */
    static Optional<Read> procedure(Renderer r, String goal, String steps, Instant said) {
        String how = r.thirdPerson(steps.strip());
        if (how.matches("(?i).*\\b(you|your)\\b.*")) {
            return Optional.empty();
        }
        return Optional.of(
                new Read(
                        "procedure",
                        MemoryType.PROCEDURAL,
                        r.possessive() + " way to " + r.thirdPerson(goal) + ": " + how,
                        said,
                        0.7));
    }

    /** "a scorpio" is "a Scorpio"; "a night owl" stays as it is. */
    private static String capitalSign(String said) {
        String rest = said.substring(2);
        return rest.contains(" ")
                ? said
                : "a " + Character.toUpperCase(rest.charAt(0)) + rest.substring(1);
    }
}
