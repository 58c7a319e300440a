package io.engram.client.example;

import io.engram.client.EngramClient;
import io.engram.client.model.ContextRequest;
import io.engram.client.model.Memory;
import io.engram.client.model.SearchRequest;
import io.engram.client.model.SearchResponse;
import io.engram.client.model.Turn;
import io.engram.client.model.TurnBatch;
import java.util.List;

/**
 * Sends a short conversation, waits until its memories can be recalled, then recalls them and
 * builds a prompt block. {@code client/bin/example [url] [api key]} runs it against {@code
 * bin/engram-local} (its defaults: http://127.0.0.1:8080 and ENGRAM_API_KEY).
 */
public final class QuickStart {

    private QuickStart() {}

    public static void main(String[] args) throws Exception {
        String url = args.length > 0 ? args[0] : "http://127.0.0.1:8080";
        String key = args.length > 1 ? args[1] : System.getenv("ENGRAM_API_KEY");
        EngramClient engram = EngramClient.builder(url, key).build();
        String user = "quickstart-" + System.currentTimeMillis();

        engram.sendTurns(
                TurnBatch.of(
                                user,
                                "s1",
                                List.of(
                                        Turn.user("t1", "I just adopted a beagle called Pixel."),
                                        Turn.assistant("t2", "Congratulations! Beagles are great."),
                                        Turn.user("t3", "I'm vegetarian, so no meat recipes.")))
                        .endingSession());

        SearchRequest question = SearchRequest.of(user, "What is my dog called?").forced();
        SearchResponse recalled = engram.search(question);
        for (int i = 0; i < 100 && recalled.memories().isEmpty(); i++) {
            Thread.sleep(200); // extraction takes well under a second
            recalled = engram.search(question);
        }
        for (Memory m : recalled.memories()) {
            System.out.printf("%.3f  %s%n", m.score(), m.content());
        }
        System.out.println(engram.context(new ContextRequest(question.withLimit(5), 300)).text());
    }
}
