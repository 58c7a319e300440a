package io.engram.query;

import io.engram.text.WordLists;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Words a question may ask with, and the words the answer is stored with; a resource line "asked
 * words | cue words".
 */
record CueFamily(Set<String> asked, List<String> cues) {

    static List<CueFamily> load(String resource) {
        return WordLists.lines(CueFamily.class, resource).stream()
                .map(
                        line -> {
                            int bar = line.indexOf('|');
                            if (bar < 0) {
                                throw new IllegalStateException(resource + ": no '|' in: " + line);
                            }
                            return new CueFamily(
                                    Set.copyOf(split(line.substring(0, bar))),
                                    split(line.substring(bar + 1)));
                        })
                .toList();
    }

    private static List<String> split(String words) {
        return Arrays.stream(words.strip().split("\\s+")).distinct().toList();
    }

    /** Adds the cues of every family the words ask with, except words already among them. */
    static void addCues(
            List<CueFamily> families, Collection<String> words, Collection<String> out) {
        for (CueFamily f : families) {
            if (f.asked().stream().anyMatch(words::contains)) {
                f.cues().stream().filter(w -> !words.contains(w)).forEach(out::add);
            }
        }
    }
}
