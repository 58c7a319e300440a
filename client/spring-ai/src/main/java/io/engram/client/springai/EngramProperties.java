package io.engram.client.springai;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code engram.*}: where Engram is, its API key, and how the advisor uses it. */
@ConfigurationProperties("engram")
public class EngramProperties {

    /** Engram's base URL; without it nothing is configured. */
    private String url;

    /** The API key (read and write scopes). */
    private String apiKey;

    /** How long one call to Engram may take. */
    private Duration timeout = Duration.ofSeconds(5);

    /** Tokens of recalled memories the advisor adds to a prompt at most. */
    private int tokenBudget = 800;

    /** The advisor's order among the chat client's advisors. */
    private int advisorOrder = 0;

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public String getApiKey() {
        return apiKey;
    }

    public void setApiKey(String apiKey) {
        this.apiKey = apiKey;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public int getTokenBudget() {
        return tokenBudget;
    }

    public void setTokenBudget(int tokenBudget) {
        this.tokenBudget = tokenBudget;
    }

    public int getAdvisorOrder() {
        return advisorOrder;
    }

    public void setAdvisorOrder(int advisorOrder) {
        this.advisorOrder = advisorOrder;
    }
}
