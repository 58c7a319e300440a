package io.engram.client.springai;

import io.engram.client.EngramClient;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * With {@code engram.url} set: an {@link EngramClient} and an {@link EngramMemoryAdvisor} to add to
 * a {@code ChatClient} ({@code .defaultAdvisors(engramMemoryAdvisor)}).
 */
@AutoConfiguration
@ConditionalOnProperty(prefix = "engram", name = "url")
@EnableConfigurationProperties(EngramProperties.class)
public class EngramAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public EngramClient engramClient(EngramProperties properties) {
        return EngramClient.builder(properties.getUrl(), properties.getApiKey())
                .timeout(properties.getTimeout())
                .build();
    }

    @Bean
    @ConditionalOnMissingBean
    public EngramMemoryAdvisor engramMemoryAdvisor(
            EngramClient engramClient, EngramProperties properties) {
        return new EngramMemoryAdvisor(
                engramClient, properties.getTokenBudget(), properties.getAdvisorOrder());
    }
}
