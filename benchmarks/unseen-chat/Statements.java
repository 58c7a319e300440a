// Scores "message|fact" lines: the exact fact, a fact with the same key, another fact, or nothing;
// with a second argument, counts lines of chatter that stored anything. Usage: see README.md.
import io.engram.events.Role;
import io.engram.extraction.*;
import io.engram.extraction.statements.*;
import java.nio.file.*; import java.time.*; import java.util.*;
public class Statements {
  static String norm(String s){ return s.toLowerCase().replaceAll("[.!]+$","").replaceAll("\\s+"," ").strip(); }
  public static void main(String[] a) throws Exception {
    var ex=new HeuristicExtractor(); int exact=0, key=0, some=0, none=0, n=0;
    boolean neg = a.length>1;
    for (String line : Files.readAllLines(Path.of(a[0]))) {
      if (line.isBlank()) continue; n++;
      String[] p=line.split("\\|",2);
      var r=ex.extract(new ExtractionWindow("s",List.of(),List.of(new ConversationTurn("t",Role.USER,Optional.of("Dana"),p[0],Instant.parse("2026-04-10T10:00:00Z"))),false));
      List<String> got=new ArrayList<>();
      if (r instanceof ExtractionResult.Facts f) for (var c: f.facts()) if (!Excerpts.isExcerpt(c.tags()) && !ValueHint.isHint(c.tags())) got.add(c.content());
      String tag;
      if (neg) { tag = got.isEmpty()? "ok  " : "FP  "; if(!got.isEmpty()) some++; }
      else {
        String want=p[1];
        var wk=FactKey.of(want);
        if (got.stream().anyMatch(g->norm(g).equals(norm(want)))) { exact++; tag="EXACT"; }
        else if (wk.isPresent() && got.stream().map(FactKey::of).anyMatch(k->k.isPresent() && k.get().attribute().equals(wk.get().attribute()) && norm(k.get().value()).equals(norm(wk.get().value())))) { key++; tag="KEY  "; }
        else if (!got.isEmpty()) { some++; tag="OTHER"; } else { none++; tag="NONE "; }
      }
      System.out.println(tag+" "+p[0]+(neg?"":"  => want: "+p[1])+"  got: "+got);
    }
    System.out.println(neg? ("false positives "+some+"/"+n) : ("exact "+exact+" key "+key+" other "+some+" none "+none+" / "+n));
  }
}
