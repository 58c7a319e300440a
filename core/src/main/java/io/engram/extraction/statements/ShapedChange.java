package io.engram.extraction.statements;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A new value told by its shape alone: "scale said 88.4kg this morning", "new contract came thru,
 * £36.5k now", "07700 900999 is the new one btw". A weight with its unit, an amount with its
 * currency or "k", a phone number or an email names which of the speaker's values it is, without
 * the attribute's word; the sentence must still be the speaker's own news of now ("lifted 172 lbs",
 * "the car cost £36.5k", "my husband is 88kg" change nothing).
 */
public final class ShapedChange {

    private ShapedChange() {}

    /** A body weight with its unit. */
    static final Pattern WEIGHT =
            Pattern.compile(
                    "(?i)(?<![\\w.])(?=\\d)(?<!(?:lost|gained|dropped|shed|put on|down|up|minus|plus) )(?:(?:[4-9]\\d|1\\d\\d|2[0-4]\\d)(?:\\.\\d)? ?(?:kg|kgs|kilos?)|(?:[89]\\d|[1-4]\\d\\d)(?:\\.\\d)? ?(?:lbs?|pounds))\\b");

    /** Words of weighing oneself, and of weights that are not one's own. */
    private static final Pattern WEIGHED =
            Pattern.compile(
                    "(?i)\\b(?:weigh|weighs|weighed|weighing|weight|scale|scales|weigh-in|down to|up to|lost|gained|i'?m at|im at|i am at)\\b");

    private static final Pattern NOT_A_BODY =
            Pattern.compile(
                    "(?i)\\b(?:lift|lifted|lifting|bench|benched|squat|squatted|deadlift|press|pressed|carry|carried|bag|bags|suitcase|parcel|box|baby|dog|cat|fish|caught|bar|plates|dumbbells?)\\b");

    /** An amount of money: with its currency, or in thousands ("36.5k"). */
    static final Pattern MONEY =
            Pattern.compile("(?i)[$€£] ?\\d[\\d,.]*k?\\b|(?<![\\w.$€£])\\d{2,3}(?:\\.\\d)?k\\b");

    /** Words of one's own pay or rent changing. */
    private static final Pattern PAID =
            Pattern.compile(
                    "(?i)\\b(?:raise|offer|base|contract|salary|pay|paid|paying|earn|earning|earns|making|rent|lease|landlord|pay ?rise|payslip|paycheck)\\b");

    /** Things an amount is the price of, not pay or rent. */
    private static final Pattern PRICE =
            Pattern.compile(
                    "(?i)\\b(?:cost|costs|costing|price|priced|spent|spend|bought|buy|paid for|worth|bill|fine|ticket|tickets|deposit|budget|saved|savings|owe|owes|loan|save|saving|saves)\\b");

    /** Whether {@code sentence} tells a value of the speaker's by its shape and words of now. */
    public static boolean tells(String sentence) {
        // Cheap first: a digit with a unit, a currency or "k" next to it.
        boolean unit = false;
        boolean money = false;
        for (int i = 0; i < sentence.length(); i++) {
            char c = sentence.charAt(i);
            if (c == '$' || c == '£' || c == '€') {
                money = true;
            } else if (Character.isDigit(c) && i + 1 < sentence.length()) {
                char n = Character.toLowerCase(sentence.charAt(i + 1));
                char n2 =
                        i + 2 < sentence.length()
                                ? Character.toLowerCase(sentence.charAt(i + 2))
                                : ' ';
                money |= n == 'k';
                unit |=
                        n == 'k'
                                || n == 'l'
                                || n == 'p'
                                || n == ' ' && (n2 == 'k' || n2 == 'l' || n2 == 'p');
            }
        }
        return unit && weight(sentence) || money && pay(sentence);
    }

    /** A body weight, said as one's own weighing. */
    static boolean weight(String sentence) {
        return WEIGHT.matcher(sentence).find()
                && WEIGHED.matcher(sentence).find()
                && !NOT_A_BODY.matcher(sentence).find();
    }

    /** An amount, said as one's pay or rent now. */
    static boolean pay(String sentence) {
        return MONEY.matcher(sentence).find()
                && PAID.matcher(sentence).find()
                && !PRICE.matcher(sentence).find();
    }

    /**
     * What a sentence tells by shape: its body weights and its amounts of pay or rent, in order,
     * once each (none of a kind the sentence does not tell as the speaker's). Read once per
     * sentence; {@link #of} gives an attribute's.
     */
    public record Told(List<String> weights, List<String> amounts) {

        /** The values of {@code attribute} told, or none when it is not one told by shape. */
        public List<String> of(String attribute) {
            String a = attribute.toLowerCase(Locale.ROOT);
            if (a.endsWith("weight")) {
                return weights;
            }
            return PAY_ATTRIBUTE.matcher(a).find() ? amounts : List.of();
        }
    }

    /** What {@code sentence} tells by shape. */
    public static Told in(String sentence) {
        return new Told(
                weight(sentence) ? all(WEIGHT, sentence) : List.of(),
                pay(sentence) ? all(MONEY, sentence) : List.of());
    }

    private static List<String> all(Pattern shape, String sentence) {
        List<String> out = new ArrayList<>();
        Matcher m = shape.matcher(sentence);
        while (m.find()) {
            if (!out.contains(m.group())) {
                out.add(m.group());
            }
        }
        return out;
    }

    private static final Pattern PAY_ATTRIBUTE =
            Pattern.compile("\\b(?:salary|pay|income|wage|wages|rent|mortgage)$");
}
