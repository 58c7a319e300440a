// Prints every fact the heuristic extractor reads from each LoCoMo turn alone: "conversation turn<TAB>fact<TAB>|| the turn".
// Usage (from the repository root, after ./mvnw -q -B install -DskipTests):
//   java -cp "core/target/classes:$(cat benchmarks/target/runtime.classpath)" benchmarks/unseen-chat/LocomoFacts.java ../shared/bench/locomo/locomo_dev.jsonl
import io.engram.events.Role;
import io.engram.extraction.*;
import io.engram.extraction.statements.*;
import com.fasterxml.jackson.databind.*;
import java.nio.file.*; import java.time.*; import java.util.*;
public class LocomoFacts {
  public static void main(String[] a) throws Exception {
    var ex=new HeuristicExtractor(); var om=new ObjectMapper();
    for (String line : Files.readAllLines(Path.of(a[0]))) {
      JsonNode c=om.readTree(line); String cid=c.get("conversation_id").asText();
      for (JsonNode t : c.get("turns")) {
        String text=t.get("text").asText();
        if (t.hasNonNull("image_caption")) text=text+" [shares a photo: "+t.get("image_caption").asText()+"]";
        Instant ts=LocalDateTime.parse(t.get("timestamp").asText()).toInstant(ZoneOffset.UTC);
        var r=ex.extract(new ExtractionWindow("s",List.of(),List.of(new ConversationTurn(t.get("turn_id").asText(),Role.USER,Optional.of(t.get("speaker").asText()),text,ts)),false));
        if (r instanceof ExtractionResult.Facts f) for (var x: f.facts()) if (!Excerpts.isExcerpt(x.tags()) && !ValueHint.isHint(x.tags()) && !x.tags().contains("summary")) System.out.println(cid+" "+t.get("turn_id").asText()+"\t"+x.content()+"\t|| "+text);
      }
    }
  }
}
