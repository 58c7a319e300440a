package io.engram.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Builds {@code benchmarks/RESULTS.md} from what the benchmark commands wrote to {@code
 * benchmarks/results/}: every section with the command that produced it, and PNG plots (recall by
 * LoCoMo category, recall latency distribution) drawn with XChart. Every benchmark command ends by
 * running this, so the page always shows the newest figures.
 */
public final class ResultsPage {

    /** A section of the page: its title and the result file it shows. */
    private record Section(String title, String file) {}

    private static final List<Section> SECTIONS =
            List.of(
                    new Section("Retrieval quality: LoCoMo (dev split)", "locomo.md"),
                    new Section(
                            "Retrieval quality with e5-small-v2 (opt-in embedding.version)",
                            "locomo-e5-small-v2-int8.md"),
                    new Section("Recall latency and throughput", "recall-load.md"),
                    new Section("Ingestion: throughput and freshness", "ingestion.md"),
                    new Section(
                            "The ExtractionJob on a standalone Flink cluster: scaling",
                            "flink-cluster.md"),
                    new Section(
                            "Write plane: CPU per turn, before and after", "write-plane-cpu.md"),
                    new Section(
                            "Extraction: precision on the labelled corpus", "extraction-corpus.md"),
                    new Section("Faults under load", "faults-under-load.md"),
                    new Section("Maintenance jobs", "maintenance.md"),
                    new Section(
                            "OpenSearch client: hand-written against opensearch-java, before and"
                                    + " after",
                            "opensearch-client.md"),
                    new Section(
                            "OpenSearch transports in the serving tier: Vert.x against Apache",
                            "opensearch-transports.md"),
                    new Section("Micro-benchmarks (JMH)", "jmh-core.md"),
                    new Section("Query embedding after an idle pause (JMH)", "embedding-idle.md"),
                    new Section("Local stack start-up", "stack-startup.md"));

    private ResultsPage() {}

    public static void main(String[] args) throws Exception {
        Path benchmarks = Path.of(args.length > 0 ? args[0] : "benchmarks");
        System.setProperty("java.awt.headless", "true");
        Path results = benchmarks.resolve("results");
        StringBuilder page = new StringBuilder();
        page.append("# Engram benchmark results\n\n")
                .append("Generated ")
                .append(LocalDate.now())
                .append(" by `benchmarks/bin/results` (every benchmark command runs it at the end)")
                .append(" from the files in `benchmarks/results/`. Each section names the command")
                .append(" that produced it, the machine and the date of its run. How to run each")
                .append(" benchmark and what every number means: the README's Benchmarks")
                .append(" section.\n\n");
        for (Section s : SECTIONS) {
            page.append("- [")
                    .append(s.title())
                    .append("](#")
                    .append(anchor(s.title()))
                    .append(")\n");
        }
        page.append('\n');
        for (Section s : SECTIONS) {
            page.append("## ").append(s.title()).append("\n\n");
            Path file = results.resolve(s.file());
            if (!Files.exists(file)) {
                page.append("Not run yet.\n\n");
                continue;
            }
            page.append(demote(Files.readString(file))).append('\n');
            if (s.file().equals("locomo.md")) {
                if (locomoChart(Files.readString(file), results.resolve("locomo-by-category"))) {
                    page.append(
                            "![recall@10 by question category](results/locomo-by-category.png)\n\n");
                }
            }
            if (s.file().equals("recall-load.md")) {
                Path csv = results.resolve("recall-latencies.csv");
                if (Files.exists(csv) && latencyChart(csv, results.resolve("recall-latency"))) {
                    page.append(
                            "![distribution of recall latency](results/recall-latency.png)\n\n"
                                    + "Cumulative share of requests answered within a latency"
                                    + " (log scale), per mode and offered rate, from every sample"
                                    + " of the run (`results/recall-latencies.csv`).\n\n");
                }
            }
        }
        Files.writeString(benchmarks.resolve("RESULTS.md"), page);
        System.out.println("wrote " + benchmarks.resolve("RESULTS.md"));
    }

    /** The result file without its title, its other headings one level down. */
    static String demote(String markdown) {
        StringBuilder out = new StringBuilder();
        boolean first = true;
        for (String line : markdown.split("\n", -1)) {
            if (first && line.startsWith("# ")) {
                first = false;
                continue;
            }
            first = false;
            out.append(line.startsWith("#") ? "#" + line : line).append('\n');
        }
        return out.toString().strip() + "\n";
    }

    /** Bars of any@10 and all@10 per question category, from the LoCoMo table. */
    static boolean locomoChart(String markdown, Path png) throws IOException {
        Map<String, double[]> rows = new LinkedHashMap<>();
        List<String> header = null;
        for (String line : markdown.split("\n")) {
            if (!line.startsWith("|")) {
                header = null;
                continue;
            }
            List<String> cells =
                    Arrays.stream(line.split("\\|")).map(String::strip).skip(1).toList();
            if (cells.contains("any@10") && cells.get(0).equals("category")) {
                header = cells;
            } else if (header != null && !cells.get(0).startsWith("---")) {
                try {
                    rows.put(
                            cells.get(0),
                            new double[] {
                                Double.parseDouble(cells.get(header.indexOf("any@10"))),
                                Double.parseDouble(cells.get(header.indexOf("all@10")))
                            });
                } catch (RuntimeException e) {
                    // not a figures row
                }
            }
        }
        if (rows.isEmpty()) {
            return false;
        }
        CategoryChart chart =
                new CategoryChartBuilder()
                        .width(800)
                        .height(420)
                        .title("LoCoMo dev: recall@10 by question category")
                        .xAxisTitle("category")
                        .yAxisTitle("share of questions")
                        .build();
        chart.getStyler().setYAxisMin(0.0).setYAxisMax(1.0);
        List<String> names = new ArrayList<>(rows.keySet());
        chart.addSeries("any@10", names, names.stream().map(n -> rows.get(n)[0]).toList());
        chart.addSeries("all@10", names, names.stream().map(n -> rows.get(n)[1]).toList());
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        return true;
    }

    /** Cumulative distribution of latency per series, from a "series,latency_ms" CSV. */
    static boolean latencyChart(Path csv, Path png) throws IOException {
        Map<String, List<Double>> series = new LinkedHashMap<>();
        for (String line : Files.readAllLines(csv)) {
            int comma = line.lastIndexOf(',');
            if (comma < 0 || line.startsWith("series,")) {
                continue;
            }
            series.computeIfAbsent(line.substring(0, comma), k -> new ArrayList<>())
                    .add(Double.parseDouble(line.substring(comma + 1)));
        }
        if (series.isEmpty()) {
            return false;
        }
        XYChart chart =
                new XYChartBuilder()
                        .width(900)
                        .height(480)
                        .title("Recall latency (cumulative)")
                        .xAxisTitle("latency, ms (log scale)")
                        .yAxisTitle("share of requests")
                        .build();
        chart.getStyler().setXAxisLogarithmic(true).setYAxisMin(0.0).setYAxisMax(1.0);
        for (Map.Entry<String, List<Double>> e : series.entrySet()) {
            List<Double> values = new ArrayList<>(e.getValue());
            values.replaceAll(v -> Math.max(v, 0.1));
            values.sort(Double::compare);
            List<Double> share = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                share.add((i + 1) / (double) values.size());
            }
            chart.addSeries(e.getKey(), values, share).setMarker(SeriesMarkers.NONE);
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        return true;
    }

    private static String anchor(String title) {
        return title.toLowerCase(java.util.Locale.ROOT)
                .replaceAll("[^a-z0-9 -]", "")
                .replace(' ', '-');
    }
}
