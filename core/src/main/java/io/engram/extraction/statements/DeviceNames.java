package io.engram.extraction.statements;

import java.util.Locale;
import java.util.regex.Pattern;

/** Phones and computers typed in lower case, written as their makers write them. */
final class DeviceNames {

    private DeviceNames() {}

    /**
     * A phone or computer typed in lower case, as its maker writes it: "iphone 12", "pixel 8",
     * "galaxy s23" ("a pixel", "the galaxy" alone are no phone).
     */
    private static final Pattern LOWER_DEVICE =
            Pattern.compile(
                    "\\b(?:iphone|ipad|macbook|oneplus|(?:pixel|galaxy)(?= (?:\\d|[sazSAZ]\\d|fold|flip|note)))\\b");

    /** The devices' lower-case names, for a cheap first test. */
    private static final String[] DEVICE_WORDS = {
        "iphone", "ipad", "macbook", "oneplus", "pixel", "galaxy"
    };

    /** The devices' names as their makers write them, by their lower-case form. */
    private static final java.util.Map<String, String> DEVICE_NAMES =
            java.util.stream.Stream.of("iPhone", "iPad", "MacBook", "OnePlus", "Pixel", "Galaxy")
                    .collect(
                            java.util.stream.Collectors.toMap(
                                    n -> n.toLowerCase(Locale.ROOT), n -> n));

    /** {@code sentence} with each device typed in lower case written as its maker does. */
    static String written(String sentence) {
        // Most sentences name no device: the regular expression only where one may stand.
        if (!io.engram.text.Text.containsAny(sentence, DEVICE_WORDS)) {
            return sentence;
        }
        return LOWER_DEVICE.matcher(sentence).replaceAll(d -> DEVICE_NAMES.get(d.group()));
    }
}
