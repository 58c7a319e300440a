package io.engram.config;

import java.util.Locale;
import java.util.function.Function;

/**
 * One configuration setting: its dotted name, the environment variable that overrides it, its
 * default, and how its text is parsed and checked.
 *
 * @param name dotted key as written in the YAML file, e.g. {@code server.port}
 * @param env environment variable that overrides the file
 * @param defaultValue text used when neither file nor environment sets it ("" means unset)
 * @param secret secrets may come only from the environment, never from the file
 * @param parser turns the text into a value or throws {@link IllegalArgumentException} saying why
 */
public record ConfigKey<T>(
        String name,
        String env,
        String defaultValue,
        boolean secret,
        String description,
        Function<String, T> parser) {

    static <T> ConfigKey<T> of(
            String name, String defaultValue, String description, Function<String, T> parser) {
        return new ConfigKey<>(name, envName(name), defaultValue, false, description, parser);
    }

    static ConfigKey<String> secret(String name, String env, String description) {
        return secret(name, env, description, s -> s);
    }

    /** A secret whose parser must not put the value in its message. */
    static ConfigKey<String> secret(
            String name, String env, String description, Function<String, String> parser) {
        return new ConfigKey<>(name, env, "", true, description, parser);
    }

    ConfigKey<T> withEnv(String env) {
        return new ConfigKey<>(name, env, defaultValue, secret, description, parser);
    }

    static String envName(String name) {
        return "ENGRAM_" + name.toUpperCase(Locale.ROOT).replace('.', '_');
    }
}
