package io.engram.extraction.statements;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Whether a lower-case word is an everyday English word, by the vocabulary of the tokenizer the
 * default embedding model ships with (its 22,500 whole words, "hamilton" and "netflix" among them):
 * chat types names in lower case ("new place in ludlow", "im with giffgaff now"), and a word the
 * vocabulary splits into pieces is far more often a name than a word. Without the vocabulary on the
 * classpath every word counts as common, and no lower-case name is read.
 */
final class RareWords {

    private RareWords() {}

    /** The tokenizer of the default model, then of its full-precision twin. */
    private static final String[] VOCABULARIES = {
        "all-minilm-l6-v2-q-tokenizer.json", "all-minilm-l6-v2-tokenizer.json"
    };

    /** Chat's own words, which no vocabulary of written English holds. */
    private static final Set<String> CHAT =
            Set.of(
                    "lol", "lmao", "lmfao", "rofl", "omg", "ngl", "tbh", "idk", "imo", "imho",
                    "fyi", "btw", "smh", "tho", "thru", "rly", "pls", "plz", "thx", "ty", "yaar",
                    "arre", "innit", "deffo", "bruv", "bro", "sis", "hun", "babe", "haha", "hahaha",
                    "hehe", "lowkey", "highkey", "fr", "ikr", "wtf", "af", "asap", "bday", "yay",
                    "yeah", "yep", "nope", "nah", "gonna", "wanna", "gotta", "kinda", "sorta",
                    "dunno", "cuz", "coz", "cos", "bc", "sooo", "soooo", "sooooo", "tooo", "omw",
                    "ugh", "eh", "mate", "lads", "craic", "grand", "reckon", "arvo", "brekkie",
                    "uni", "mum", "mam", "mom", "nan", "gran", "hubby", "wifey", "kiddo", "kiddos",
                    "pic", "pics", "vid", "vids", "convo", "convos", "appt", "appts", "w", "wk",
                    "wks", "hrs", "mins", "yrs", "mos", "tmrw", "tmr", "2day", "2moro", "irl");

    private static volatile Set<String> common;

    /**
     * Whether {@code word} (any case) is not an everyday word: neither in the vocabulary nor
     * chat's.
     */
    static boolean rare(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        Set<String> words = words();
        return !words.isEmpty() && !words.contains(w) && !CHAT.contains(w);
    }

    private static Set<String> words() {
        Set<String> w = common;
        if (w == null) {
            synchronized (RareWords.class) {
                w = common;
                if (w == null) {
                    w = load();
                    common = w;
                }
            }
        }
        return w;
    }

    /** The whole words of the first vocabulary found: letters only, no "##" continuation. */
    private static Set<String> load() {
        ClassLoader loader = RareWords.class.getClassLoader();
        for (String name : VOCABULARIES) {
            try (InputStream in = loader.getResourceAsStream(name)) {
                if (in == null) {
                    continue;
                }
                return read(in);
            } catch (IOException e) {
                // Try the next one; with none, nothing is rare.
            }
        }
        return Set.of();
    }

    /** Streams the tokenizer.json, keeping the field names of "model" → "vocab". */
    private static Set<String> read(InputStream in) throws IOException {
        Set<String> out = new HashSet<>();
        try (JsonParser p = new JsonFactory().createParser(in)) {
            int depth = 0;
            boolean inModel = false;
            boolean inVocab = false;
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    depth++;
                } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    depth--;
                    if (inVocab && depth == 2) {
                        return out;
                    }
                } else if (t == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    if (depth == 1) {
                        inModel = name.equals("model");
                    } else if (inModel && depth == 2 && name.equals("vocab")) {
                        inVocab = true;
                    } else if (inVocab
                            && depth == 3
                            && name.chars().allMatch(Character::isLetter)) {
                        out.add(name);
                    }
                }
            }
        }
        return out;
    }
}
