package io.engram.config;

/**
 * {@code docs/configuration.md}: every key of {@link ConfigKeys#ALL} with its environment variable,
 * default and description, generated from the keys themselves (a test checks it is current).
 */
public final class ConfigurationDoc {

    private ConfigurationDoc() {}

    public static String render() {
        StringBuilder md =
                new StringBuilder("# Configuration\n\n")
                        .append(
                                "Generated from `core/src/main/java/io/engram/config/ConfigKeys.java`")
                        .append(
                                " (`ConfigurationDocTest` fails when this page is not current; run it")
                        .append(" with `-Dconfiguration.doc.write=true` to write it again).\n\n")
                        .append(
                                "Every key is set, last wins: its default (which runs the local stack),")
                        .append(" the YAML file (`--config engram.yaml` or `ENGRAM_CONFIG`), its")
                        .append(" environment variable. Secrets come from the environment only. An")
                        .append(" unknown key or a bad value stops start-up naming the key.\n\n")
                        .append("| key | environment variable | default | what it does |\n")
                        .append("|---|---|---|---|\n");
        for (ConfigKey<?> k : ConfigKeys.ALL) {
            md.append("| `")
                    .append(k.name())
                    .append("` | `")
                    .append(k.env())
                    .append("` | ")
                    .append(k.secret() ? "(secret, environment only)" : code(k.defaultValue()))
                    .append(" | ")
                    .append(k.description().replace("|", "\\|").replace("\n", " "))
                    .append(" |\n");
        }
        return md.toString();
    }

    private static String code(String value) {
        return value.isEmpty() ? "—" : "`" + value.replace("|", "\\|") + "`";
    }
}
