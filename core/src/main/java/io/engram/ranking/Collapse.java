package io.engram.ranking;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The best {@code limit} of ranked memories, each telling turns none above it told: an excerpt
 * whose source turns are all in the memories above is left out, and a fact whose turns are all in
 * excerpts recalled above (a fact and the excerpt it was read from tell the same turn twice). A
 * fact takes along, as its context, the excerpt of the turns it was read from when that excerpt was
 * recalled too: one place in the answer for the clean statement and the words around it. An excerpt
 * that holds every turn of an excerpt above takes that one's place (a session's first turns are
 * excerpts of one, two and three turns: one slot, not three). Memories without source turns (stored
 * through the API) are always kept.
 */
public final class Collapse {

    private Collapse() {}

    /** A ranked memory: its id, its source turns (oldest first), and whether it is an excerpt. */
    public record Item(String id, List<String> sourceTurnIds, boolean excerpt) {}

    /** A memory of the answer, and the excerpt it takes along (null when none). */
    public record Pick(String id, String contextId, List<String> sourceTurnIds) {}

    public static List<Pick> of(List<Item> ranked, int limit) {
        return of(ranked, limit, fact -> null);
    }

    /**
     * As {@link #of(List, int)}; a fact whose excerpt was not recalled takes the one {@code
     * unranked} finds (the user's memories the caller holds), if any.
     */
    public static List<Pick> of(
            List<Item> ranked, int limit, java.util.function.Function<Item, Item> unranked) {
        List<Pick> out = new ArrayList<>(limit);
        Set<String> covered = new HashSet<>();
        Set<String> taken = new HashSet<>();
        Set<String> excerpts = new HashSet<>();
        // The turns of the excerpts recalled in their own right.
        Set<String> quoted = new HashSet<>();
        for (Item item : ranked) {
            if (out.size() >= limit) {
                break;
            }
            if (taken.contains(item.id())) {
                continue;
            }
            List<String> sources = item.sourceTurnIds();
            // An excerpt adds nothing when its turns are told above. A fact does when they are
            // told only by other facts and the excerpt one of them took along: "Ann works as a
            // pharmacist there" and "Ann moved to Lisbon" are read from one turn, and an answer
            // of the first alone would not say where Ann lives.
            if (!sources.isEmpty() && (item.excerpt() ? covered : quoted).containsAll(sources)) {
                continue;
            }
            // An excerpt that holds every turn of an excerpt above takes its place: one slot for
            // the longer passage instead of two for the same words (a session's first turns are
            // excerpts of one, two and three turns).
            int wider = item.excerpt() ? narrowerAbove(out, excerpts, sources) : -1;
            if (wider >= 0) {
                out.set(wider, new Pick(item.id(), null, List.copyOf(sources)));
                excerpts.add(item.id());
                taken.add(item.id());
                covered.addAll(sources);
                quoted.addAll(sources);
                continue;
            }
            Item context =
                    item.excerpt() || sources.isEmpty() ? null : contextOf(item, ranked, taken);
            if (context == null && !item.excerpt() && !sources.isEmpty()) {
                Item held = unranked.apply(item);
                if (held != null
                        && !taken.contains(held.id())
                        && held.sourceTurnIds().containsAll(sources)) {
                    context = held;
                }
            }
            Set<String> told = new LinkedHashSet<>(sources);
            if (context != null) {
                taken.add(context.id());
                told.addAll(context.sourceTurnIds());
            }
            taken.add(item.id());
            covered.addAll(told);
            if (item.excerpt()) {
                excerpts.add(item.id());
                quoted.addAll(sources);
            }
            out.add(new Pick(item.id(), context == null ? null : context.id(), List.copyOf(told)));
        }
        return out;
    }

    /**
     * The first {@code limit} picks for a question that asks for several things ("what activities
     * …", "which cities …"): a pick that shares two or more turns with one placed above (the next
     * overlapping excerpt of the same exchange) waits until the others are placed. Such answers are
     * spread over a conversation; neighbouring excerpts of one exchange tell one of its items.
     */
    public static List<Pick> spread(List<Pick> picks, int limit) {
        List<Pick> out = new ArrayList<>(limit);
        List<Pick> waiting = new ArrayList<>();
        for (Pick p : picks) {
            if (out.size() >= limit) {
                break;
            }
            if (sharesTwoTurns(p, out)) {
                waiting.add(p);
            } else {
                out.add(p);
            }
        }
        for (Pick p : waiting) {
            if (out.size() >= limit) {
                break;
            }
            out.add(p);
        }
        return out;
    }

    private static boolean sharesTwoTurns(Pick p, List<Pick> above) {
        for (Pick a : above) {
            int shared = 0;
            for (String turn : p.sourceTurnIds()) {
                if (a.sourceTurnIds().contains(turn) && ++shared >= 2) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The place of a picked excerpt whose turns {@code turns} all hold, or -1. */
    private static int narrowerAbove(List<Pick> out, Set<String> excerpts, List<String> turns) {
        for (int i = 0; i < out.size(); i++) {
            Pick p = out.get(i);
            if (excerpts.contains(p.id())
                    && p.contextId() == null
                    && turns.size() > p.sourceTurnIds().size()
                    && turns.containsAll(p.sourceTurnIds())) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The recalled excerpt that holds every source turn of {@code fact}, preferring the one that
     * ends with the fact's newest turn (the excerpt of the turn it was read from).
     */
    private static Item contextOf(Item fact, List<Item> ranked, Set<String> taken) {
        String newest = fact.sourceTurnIds().get(fact.sourceTurnIds().size() - 1);
        Item best = null;
        for (Item e : ranked) {
            if (!e.excerpt()
                    || taken.contains(e.id())
                    || !e.sourceTurnIds().containsAll(fact.sourceTurnIds())) {
                continue;
            }
            List<String> turns = e.sourceTurnIds();
            if (turns.get(turns.size() - 1).equals(newest)) {
                return e;
            }
            if (best == null) {
                best = e;
            }
        }
        return best;
    }
}
