package io.engram.query;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The words the members of a kind of thing are said with, for a question that asks for the kind:
 * "What instruments does Sam play?" finds "I play my violin", "Which cities has Sam visited?" finds
 * "our trip to Boston". Read from {@code kinds.txt} beside this class; added to the words search
 * only, never to the embedded question.
 */
public final class KindCues {

    /** A kind's words in a question, and the words its members are said with. */
    record Kind(Set<String> asked, List<String> members) {}

    static final List<Kind> KINDS = load("kinds.txt");

    private KindCues() {}

    /** The member words of every kind the words name, without words already among them. */
    public static List<String> of(Collection<String> words) {
        Set<String> out = new LinkedHashSet<>();
        for (Kind k : KINDS) {
            if (k.asked().stream().anyMatch(words::contains)) {
                k.members().stream().filter(w -> !words.contains(w)).forEach(out::add);
            }
        }
        return List.copyOf(out);
    }

    static List<Kind> load(String resource) {
        try (InputStream in = KindCues.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            BufferedReader reader =
                    new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            List<Kind> kinds = new ArrayList<>();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                String text = line.strip();
                if (text.isEmpty() || text.startsWith("#")) {
                    continue;
                }
                int bar = text.indexOf('|');
                if (bar < 0) {
                    throw new IllegalStateException(resource + ": no '|' in: " + text);
                }
                kinds.add(
                        new Kind(
                                Set.copyOf(split(text.substring(0, bar))),
                                split(text.substring(bar + 1))));
            }
            return List.copyOf(kinds);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> split(String words) {
        return Arrays.stream(words.strip().split("\\s+")).distinct().toList();
    }
}
