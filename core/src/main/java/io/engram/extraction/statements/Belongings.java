package io.engram.extraction.statements;

import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A car or a phone chat names by its model alone: "my fiesta is making that clunking noise again",
 * "my civic hit 150k miles", "my iphone 11 battery is dead by lunch". A car's model is read only
 * beside words of cars (a noise, miles, the garage), since "my golf", "my focus" and "my jazz" are
 * more often something else; "old", "ex" and "new" before it give nothing.
 */
final class Belongings {

    private Belongings() {}

    private static final Set<String> MODELS = Lexicons.list("car_models");

    /**
     * "my fiesta is", "my model 3 needs": "my", up to two words a model may be, and what goes on
     * after a car (its verb, or the clause's end), not another noun ("my golf swing").
     */
    private static final Pattern MY_CAR =
            Pattern.compile(
                    "(?i)\\bmy (?:little |lil |trusty |beloved )?(?<m>[a-z0-9.-]+(?: (?!(?:is|was|has|had|hit|needs|needed|failed|passed|broke|wont|won['’]t|keeps|kept|just|finally|got|went|made|makes|making|died|sounds|sounded|runs|ran|still|literally|honestly|\\p{L}+ed)\\b)[a-z0-9.-]+)?)(?=\\s*$|\\s*[,.!?;:)]|['’]s\\b| (?:is|was|has|had|hit|needs|needed|failed|passed|broke|wont|won['’]t|keeps|kept|just|finally|got|went|made|makes|making|died|sounds|sounded|runs|ran|still|literally|honestly|\\p{L}+ed)\\b)");

    /** Words of a car: what it does, what it needs, where it goes. */
    private static final Pattern CAR_WORDS =
            Pattern.compile(
                    "(?i)\\b(?:drive|drives|driving|drove|car|engine|mot|garage|mechanic|miles|mileage|tyres?|tires?|clutch|brakes?|gearbox|exhaust|parked|parking|petrol|diesel|fuel|gas|noise|clunking|rattling|broke down|breakdown|service|serviced|dashboard|warning light|motorway|road|charger|charging|reg|insurance)\\b");

    /**
     * Models that are everyday words too ("my focus", "my golf"): read beside a car's own words.
     */
    private static final Set<String> EVERYDAY =
            Set.of(
                    "focus",
                    "golf",
                    "jazz",
                    "leaf",
                    "swift",
                    "polo",
                    "puma",
                    "panda",
                    "mustang",
                    "discovery",
                    "defender",
                    "ranger",
                    "beetle",
                    "transit",
                    "accord",
                    "juke",
                    "outback",
                    "kona",
                    "leon",
                    "zoe");

    /** A car's own words, which "car" or "driving" alone are not. */
    private static final Pattern CAR_ONLY =
            Pattern.compile(
                    "(?i)\\b(?:mot|garage|mechanic|miles|mileage|tyres?|tires?|clutch|gearbox|exhaust|petrol|diesel|broke down|breakdown|serviced|warning light|dashboard)\\b");

    /** "my iphone 11", "my pixel 8 pro", "my galaxy s23". */
    private static final Pattern MY_PHONE =
            Pattern.compile(
                    "(?i)\\bmy (?<m>(?:iphone|pixel|galaxy|samsung galaxy|oneplus)(?: (?:\\d{1,2}[a-z]?|s\\d{2}|a\\d{2}|pro|max|plus|ultra|mini|se|fold|flip|xr|xs|x))*)\\b");

    /** Words before "my" that make the car or phone one the speaker no longer has. */
    private static final Pattern LEFT_BEHIND =
            Pattern.compile(
                    "(?i)\\b(?:ditched|dumped|sold|selling|traded(?: in)?|trading(?: in)?|swapped|replaced|got rid of|switched from|upgraded from|gave up|scrapped|written off|wrote off|lost|miss|missed|old|ex)\\s+$");

    /** The car or phone {@code clause} names as the speaker's, as {@code r}'s statement. */
    static Optional<Read> of(Renderer r, String clause, Instant said) {
        Matcher phone = MY_PHONE.matcher(clause);
        if (phone.find() && !leftBehind(clause, phone.start()) && !ended(clause, phone.end())) {
            String model = phoneName(phone.group("m"));
            String article = model.matches("(?i)[aeiou].*") ? "an " : "a ";
            return Optional.of(
                    Read.of(
                            "attribute",
                            r.possessive() + " phone is " + article + model,
                            said,
                            0.7));
        }
        if (!CAR_WORDS.matcher(clause).find()) {
            return Optional.empty();
        }
        Matcher car = MY_CAR.matcher(clause);
        while (car.find()) {
            String m = car.group("m").toLowerCase(Locale.ROOT);
            String model =
                    MODELS.contains(m)
                                    && (!EVERYDAY.contains(m) || CAR_ONLY.matcher(clause).find())
                                    && !leftBehind(clause, car.start())
                                    && !ended(clause, car.end())
                            ? m
                            : null;
            if (model != null) {
                return Optional.of(
                        Read.of(
                                "attribute",
                                r.subject() + " drives a " + carName(model),
                                said,
                                0.7));
            }
        }
        return Optional.empty();
    }

    /** Words after the car or phone that end it: "my iphone died", "my corsa got written off". */
    private static final Pattern ENDED =
            Pattern.compile(
                    "(?i)^\\s*(?:finally |just |totally |completely )?(?:died|broke|is broken|got stolen|was stolen|got nicked|was nicked|is gone|packed in|gave up|is done for|got written off|was written off|got totall?ed|was totall?ed|is dead|has died|got towed|failed its mot)\\b");

    private static boolean leftBehind(String clause, int my) {
        return LEFT_BEHIND.matcher(clause.substring(Math.max(0, my - 25), my)).find();
    }

    private static boolean ended(String clause, int after) {
        return ENDED.matcher(clause.substring(after)).find();
    }

    /** "model 3" is "Model 3", "cr-v" is "CR-V", "fiesta" is "Fiesta". */
    private static String carName(String model) {
        StringBuilder out = new StringBuilder();
        for (String w : model.split(" ")) {
            if (out.length() > 0) {
                out.append(' ');
            }
            out.append(
                    w.length() <= 4 && w.matches(".*\\d.*|[a-z]{1,2}-[a-z0-9]+")
                            ? w.toUpperCase(Locale.ROOT)
                            : Character.toUpperCase(w.charAt(0)) + w.substring(1));
        }
        return out.toString();
    }

    /** "iphone 11" is "iPhone 11", "galaxy s23" is "Galaxy S23". */
    private static String phoneName(String model) {
        StringBuilder out = new StringBuilder();
        for (String w : model.toLowerCase(Locale.ROOT).split(" ")) {
            if (out.length() > 0) {
                out.append(' ');
            }
            out.append(
                    w.equals("iphone")
                            ? "iPhone"
                            : w.equals("oneplus")
                                    ? "OnePlus"
                                    : w.matches("[a-z]?\\d+[a-z]?|se|xr|xs|x")
                                            ? w.toUpperCase(Locale.ROOT)
                                            : Character.toUpperCase(w.charAt(0)) + w.substring(1));
        }
        return out.toString();
    }
}
