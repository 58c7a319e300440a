package io.engram.client.springai;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.client.EngramClient;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class EngramAutoConfigurationTest {

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(EngramAutoConfiguration.class));

    @Test
    void engramPropertiesMakeAClientAndAnAdvisor() {
        runner.withPropertyValues(
                        "engram.url=http://127.0.0.1:8080",
                        "engram.api-key=ek_test",
                        "engram.token-budget=300",
                        "engram.advisor-order=5")
                .run(
                        context -> {
                            assertThat(context).hasSingleBean(EngramClient.class);
                            assertThat(context).hasSingleBean(EngramMemoryAdvisor.class);
                            assertThat(context.getBean(EngramMemoryAdvisor.class).getOrder())
                                    .isEqualTo(5);
                            assertThat(context.getBean(EngramProperties.class).getTokenBudget())
                                    .isEqualTo(300);
                        });
    }

    @Test
    void withoutAUrlNothingIsConfigured() {
        runner.run(
                context -> {
                    assertThat(context).doesNotHaveBean(EngramClient.class);
                    assertThat(context).doesNotHaveBean(EngramMemoryAdvisor.class);
                });
    }

    @Test
    void theAutoConfigurationIsRegistered() throws Exception {
        try (var in =
                getClass()
                        .getResourceAsStream(
                                "/META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
            assertThat(new String(in.readAllBytes()).strip())
                    .isEqualTo(EngramAutoConfiguration.class.getName());
        }
    }
}
