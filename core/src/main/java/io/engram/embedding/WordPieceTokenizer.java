package io.engram.embedding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The BERT tokenizer (uncased): clean-up and lower-casing with accents stripped, splitting on white
 * space and punctuation, greedy longest-match WordPiece, {@code [CLS] … [SEP]}. The vocabulary is
 * read from a Hugging Face {@code tokenizer.json}.
 */
public final class WordPieceTokenizer {

    private static final int MAX_WORD_CHARS = 100;

    private final Map<String, Integer> vocab;
    private final int cls;
    private final int sep;
    private final int unk;
    private final int maxTokens;

    private WordPieceTokenizer(Map<String, Integer> vocab, int maxTokens) {
        this.vocab = vocab;
        this.cls = id(vocab, "[CLS]");
        this.sep = id(vocab, "[SEP]");
        this.unk = id(vocab, "[UNK]");
        this.maxTokens = maxTokens;
    }

    /**
     * Reads {@code model.vocab} of a tokenizer.json; {@code maxTokens} includes [CLS] and [SEP].
     */
    public static WordPieceTokenizer fromTokenizerJson(InputStream json, int maxTokens)
            throws IOException {
        JsonNode root = new ObjectMapper().readTree(json);
        JsonNode model = root.path("model");
        if (!"WordPiece".equals(model.path("type").asText())) {
            throw new IOException(
                    "tokenizer.json model type is "
                            + model.path("type").asText()
                            + ", expected WordPiece");
        }
        Map<String, Integer> vocab = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> entries = model.path("vocab").fields();
        while (entries.hasNext()) {
            Map.Entry<String, JsonNode> e = entries.next();
            vocab.put(e.getKey(), e.getValue().asInt());
        }
        if (maxTokens < 3) {
            throw new IllegalArgumentException("maxTokens must be at least 3");
        }
        return new WordPieceTokenizer(vocab, maxTokens);
    }

    private static int id(Map<String, Integer> vocab, String token) {
        Integer id = vocab.get(token);
        if (id == null) {
            throw new IllegalArgumentException("vocabulary has no " + token);
        }
        return id;
    }

    /** Token ids with [CLS] and [SEP], truncated to the maximum length. */
    public long[] encode(String text) {
        List<Integer> ids = new ArrayList<>();
        ids.add(cls);
        int limit = maxTokens - 1;
        outer:
        for (String word : preTokenize(normalize(text))) {
            for (int id : wordPiece(word)) {
                if (ids.size() >= limit) {
                    break outer;
                }
                ids.add(id);
            }
        }
        ids.add(sep);
        long[] out = new long[ids.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ids.get(i);
        }
        return out;
    }

    /** The tokens for {@code text} without special tokens (for tests and debugging). */
    public List<String> tokenize(String text) {
        Map<Integer, String> reverse = new HashMap<>();
        vocab.forEach((k, v) -> reverse.put(v, k));
        List<String> tokens = new ArrayList<>();
        for (String word : preTokenize(normalize(text))) {
            for (int id : wordPiece(word)) {
                tokens.add(reverse.get(id));
            }
        }
        return tokens;
    }

    static String normalize(String text) {
        StringBuilder cleaned = new StringBuilder(text.length());
        text.codePoints()
                .forEach(
                        cp -> {
                            if (cp == 0 || cp == 0xFFFD || isControl(cp)) {
                                return;
                            }
                            if (isWhitespace(cp)) {
                                cleaned.append(' ');
                            } else if (isCjk(cp)) {
                                cleaned.append(' ').appendCodePoint(cp).append(' ');
                            } else {
                                cleaned.appendCodePoint(cp);
                            }
                        });
        String lower = cleaned.toString().toLowerCase(java.util.Locale.ROOT);
        String decomposed = Normalizer.normalize(lower, Normalizer.Form.NFD);
        StringBuilder out = new StringBuilder(decomposed.length());
        decomposed
                .codePoints()
                .filter(cp -> Character.getType(cp) != Character.NON_SPACING_MARK)
                .forEach(out::appendCodePoint);
        return out.toString();
    }

    static List<String> preTokenize(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        text.codePoints()
                .forEach(
                        cp -> {
                            if (cp == ' ') {
                                flush(current, words);
                            } else if (isPunctuation(cp)) {
                                flush(current, words);
                                words.add(new String(Character.toChars(cp)));
                            } else {
                                current.appendCodePoint(cp);
                            }
                        });
        flush(current, words);
        return words;
    }

    private static void flush(StringBuilder current, List<String> words) {
        if (current.length() > 0) {
            words.add(current.toString());
            current.setLength(0);
        }
    }

    private List<Integer> wordPiece(String word) {
        if (word.codePointCount(0, word.length()) > MAX_WORD_CHARS) {
            return List.of(unk);
        }
        List<Integer> pieces = new ArrayList<>();
        int start = 0;
        while (start < word.length()) {
            int end = word.length();
            Integer found = null;
            while (start < end) {
                String piece = (start > 0 ? "##" : "") + word.substring(start, end);
                found = vocab.get(piece);
                if (found != null) {
                    break;
                }
                end = word.offsetByCodePoints(end, -1);
            }
            if (found == null) {
                return List.of(unk);
            }
            pieces.add(found);
            start = end;
        }
        return pieces;
    }

    private static boolean isWhitespace(int cp) {
        return cp == ' '
                || cp == '\t'
                || cp == '\n'
                || cp == '\r'
                || Character.getType(cp) == Character.SPACE_SEPARATOR;
    }

    private static boolean isControl(int cp) {
        if (cp == '\t' || cp == '\n' || cp == '\r') {
            return false;
        }
        int type = Character.getType(cp);
        return type == Character.CONTROL || type == Character.FORMAT;
    }

    private static boolean isPunctuation(int cp) {
        if ((cp >= 33 && cp <= 47)
                || (cp >= 58 && cp <= 64)
                || (cp >= 91 && cp <= 96)
                || (cp >= 123 && cp <= 126)) {
            return true;
        }
        int type = Character.getType(cp);
        return type == Character.CONNECTOR_PUNCTUATION
                || type == Character.DASH_PUNCTUATION
                || type == Character.START_PUNCTUATION
                || type == Character.END_PUNCTUATION
                || type == Character.INITIAL_QUOTE_PUNCTUATION
                || type == Character.FINAL_QUOTE_PUNCTUATION
                || type == Character.OTHER_PUNCTUATION;
    }

    private static boolean isCjk(int cp) {
        return (cp >= 0x4E00 && cp <= 0x9FFF)
                || (cp >= 0x3400 && cp <= 0x4DBF)
                || (cp >= 0x20000 && cp <= 0x2A6DF)
                || (cp >= 0x2A700 && cp <= 0x2B73F)
                || (cp >= 0x2B740 && cp <= 0x2B81F)
                || (cp >= 0x2B820 && cp <= 0x2CEAF)
                || (cp >= 0xF900 && cp <= 0xFAFF)
                || (cp >= 0x2F800 && cp <= 0x2FA1F);
    }
}
