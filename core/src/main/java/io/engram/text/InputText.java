package io.engram.text;

/**
 * What every text taken from a client must be before it reaches a store: no NUL (PostgreSQL text
 * cannot hold it), no unpaired surrogate, and not blank once invisible characters are set aside.
 * Lengths are counted in characters as a reader sees them (code points), not UTF-16 units.
 */
public final class InputText {

    private InputText() {}

    /** The length in code points. */
    public static int length(String s) {
        return s.codePointCount(0, s.length());
    }

    /**
     * Whether nothing visible is left once whitespace and invisible format characters (zero-width
     * space and joiners, byte-order mark, word joiner, soft hyphen) are set aside.
     */
    public static boolean isBlank(String s) {
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            if (!Character.isWhitespace(cp)
                    && !Character.isSpaceChar(cp)
                    && Character.getType(cp) != Character.FORMAT
                    && Character.getType(cp) != Character.CONTROL) {
                return false;
            }
            i += Character.charCount(cp);
        }
        return true;
    }

    /** Why {@code s} cannot be stored as text, or null when it can. */
    public static String defect(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\u0000') {
                return "contains a NUL character (U+0000)";
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return "contains an unpaired surrogate";
            }
            if (Character.isLowSurrogate(c)) {
                return "contains an unpaired surrogate";
            }
        }
        return null;
    }
}
