package io.engram.text;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Word lists kept as text resources beside the class that reads them: data, not code. Blank lines
 * and lines starting with {@code #} are left out.
 */
public final class WordLists {

    private WordLists() {}

    /** The resource's lines, stripped, without blank lines and comments. */
    public static List<String> lines(Class<?> owner, String resource) {
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource + " of " + owner);
            }
            BufferedReader reader =
                    new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            List<String> out = new ArrayList<>();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                String text = line.strip();
                if (!text.isEmpty() && !text.startsWith("#")) {
                    out.add(text);
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Named lists: a {@code [name]} line, then the list's entries separated by commas over as many
     * lines as it takes (an entry may hold spaces: "social worker").
     */
    public static Map<String, Set<String>> sections(Class<?> owner, String resource) {
        Map<String, List<String>> entries = new LinkedHashMap<>();
        List<String> current = null;
        for (String line : lines(owner, resource)) {
            if (line.startsWith("[") && line.endsWith("]")) {
                current = new ArrayList<>();
                entries.put(line.substring(1, line.length() - 1), current);
                continue;
            }
            if (current == null) {
                throw new IllegalStateException(resource + ": entries before a [section]: " + line);
            }
            for (String entry : line.split(",")) {
                if (!entry.isBlank()) {
                    current.add(entry.strip());
                }
            }
        }
        Map<String, Set<String>> out = new LinkedHashMap<>();
        entries.forEach((name, list) -> out.put(name, Set.copyOf(list)));
        return out;
    }
}
