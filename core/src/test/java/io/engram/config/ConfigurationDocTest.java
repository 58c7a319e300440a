package io.engram.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConfigurationDocTest {

    private static final Path DOC = Path.of("..", "docs", "configuration.md");

    @Test
    void theConfigurationPageListsEveryKeyAsTheCodeDefinesIt() throws Exception {
        String rendered = ConfigurationDoc.render();
        if (Boolean.getBoolean("configuration.doc.write")) {
            Files.writeString(DOC, rendered);
        }
        assertThat(Files.exists(DOC))
                .as("docs/configuration.md; write it with -Dconfiguration.doc.write=true")
                .isTrue();
        assertThat(Files.readString(DOC))
                .as(
                        "docs/configuration.md is not current: run ConfigurationDocTest with"
                                + " -Dconfiguration.doc.write=true")
                .isEqualTo(rendered);
        for (ConfigKey<?> k : ConfigKeys.ALL) {
            assertThat(rendered).contains("`" + k.name() + "`");
        }
    }
}
