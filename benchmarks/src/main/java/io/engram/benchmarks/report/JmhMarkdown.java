package io.engram.benchmarks.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Turns a JMH JSON result file into a Markdown table (score, error, and p50/p99 for sampled
 * latencies), headed by the command that produced it, the machine and the date.
 *
 * <p>{@code JmhMarkdown <jmh.json> <out.md> <command>}
 */
public final class JmhMarkdown {

    private JmhMarkdown() {}

    public static void main(String[] args) throws Exception {
        JsonNode runs = new ObjectMapper().readTree(new File(args[0]));
        List<String> lines = new ArrayList<>();
        lines.add("# JMH micro-benchmarks");
        lines.add("");
        lines.add("Command: `" + args[2] + "`");
        lines.add("");
        lines.add(
                "Machine: "
                        + Runtime.getRuntime().availableProcessors()
                        + " cores, "
                        + System.getProperty("java.vm.name")
                        + " "
                        + System.getProperty("java.version")
                        + "; date "
                        + LocalDate.now()
                        + ". One fork, 3 × 2 s warm-up, 5 × 2 s measurement; the machine is shared,"
                        + " so compare figures from one run only.");
        lines.add("");
        lines.add("| benchmark | params | mode | score | ± error | unit | p50 | p99 |");
        lines.add("|---|---|---|---|---|---|---|---|");
        for (JsonNode run : runs) {
            String name = run.path("benchmark").asText().replaceAll("^.*\\.(\\w+\\.\\w+)$", "$1");
            StringBuilder params = new StringBuilder();
            Iterator<Map.Entry<String, JsonNode>> it = run.path("params").fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> p = it.next();
                params.append(p.getKey()).append('=').append(p.getValue().asText()).append(' ');
            }
            JsonNode primary = run.path("primaryMetric");
            JsonNode percentiles = primary.path("scorePercentiles");
            boolean sampled = "sample".equals(run.path("mode").asText());
            lines.add(
                    "| "
                            + name
                            + " | "
                            + params.toString().trim()
                            + " | "
                            + run.path("mode").asText()
                            + " | "
                            + fmt(primary.path("score").asDouble())
                            + " | "
                            + fmt(primary.path("scoreError").asDouble())
                            + " | "
                            + primary.path("scoreUnit").asText()
                            + " | "
                            + (sampled ? fmt(percentiles.path("50.0").asDouble()) : "")
                            + " | "
                            + (sampled ? fmt(percentiles.path("99.0").asDouble()) : "")
                            + " |");
        }
        lines.add("");
        Files.write(Path.of(args[1]), lines);
        System.out.println(String.join("\n", lines));
    }

    private static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "";
        }
        return v >= 100 ? String.format("%,.0f", v) : String.format("%.3f", v);
    }
}
