// Counts how many "before|after" lines of a set end with the first statement superseded, through
// the heuristic extractor and the change planner (no services), and how many more leave it
// contradicted by the second message's excerpt ("CON"). Usage: see README.md.
import io.engram.events.Role;
import io.engram.extraction.*;
import io.engram.dedup.*;
import io.engram.memory.Scope;
import java.nio.file.*;
import java.time.*;
import java.util.*;
public class Supersedes {
  static HeuristicExtractor ex = new HeuristicExtractor();
  static List<CandidateFact> facts(String s, Instant at) {
    ExtractionWindow w = new ExtractionWindow("s", List.of(), List.of(new ConversationTurn("t" + at.getEpochSecond(), Role.USER, Optional.of("Dana"), s, at)), false);
    ExtractionResult r = ex.extract(w);
    List<CandidateFact> out = new ArrayList<>();
    // As the job does: the facts, then the excerpt of the turn.
    if (r instanceof ExtractionResult.Facts f) { out.addAll(f.facts()); out.addAll(Excerpts.of(w, 3, 1000, f.facts())); }
    return out;
  }
  static List<float[]> axes(int n, int from) { List<float[]> o = new ArrayList<>(); for (int i = 0; i < n; i++) { float[] v = new float[64]; v[from + i] = 1; o.add(v);} return o; }
  public static void main(String[] a) throws Exception {
    Scope dana = new Scope("acme", "default", "prod", "dana");
    Instant t = Instant.parse("2026-03-15T10:00:00Z"), later = t.plus(Duration.ofDays(60));
    int sup = 0, con = 0, n = 0;
    for (String line : Files.readAllLines(Path.of(a[0]))) {
      if (line.isBlank() || line.startsWith("#")) continue;
      String[] p = line.split("\\|");
      ChangePlanner planner = new ChangePlanner(new DedupPolicy(), "test");
      UserMemories known = new UserMemories(100);
      List<CandidateFact> first = facts(p[0], t);
      List<ChangePlanner.Planned> stored = planner.plan(dana, Optional.of("s1"), "conversation", first, axes(first.size(), 0), known, t);
      List<CandidateFact> next = facts(p[1], later);
      List<ChangePlanner.Planned> planned = planner.plan(dana, Optional.of("s2"), "conversation", next, axes(next.size(), first.size()), known, later);
      boolean s = planned.stream().anyMatch(x -> x.change() instanceof io.engram.memory.MemoryChange.Superseded);
      boolean c = !s && planned.stream().anyMatch(x -> x.change() instanceof io.engram.memory.MemoryChange.Contradicted);
      n++; if (s) sup++; if (c) con++;
      System.out.println((s ? "SUP " : c ? "CON " : "--- ") + line + "   first=" + stored.stream().filter(x -> !Excerpts.isExcerpt(x.change().memory().tags())).map(x -> x.change().memory().content()).toList() + " next=" + planned.stream().filter(x -> !Excerpts.isExcerpt(x.change().memory().tags())).map(x -> x.decision().kind() + ":" + x.change().memory().content()).toList());
    }
    System.out.println(sup + "/" + n + " superseded, " + con + " more contradicted");
  }
}
