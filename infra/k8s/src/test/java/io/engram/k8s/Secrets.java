package io.engram.k8s;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a pod's secret settings come from: an environment variable from a Secret's key, or, for the
 * database password, a file of a mounted Secret named by ENGRAM_POSTGRES_PASSWORD_FILE; and where
 * that Secret comes from in the overlay: a Secret resource (local) or the target of an
 * ExternalSecret (aws).
 */
final class Secrets {

    private Secrets() {}

    static final String POSTGRES_PASSWORD = "ENGRAM_POSTGRES_PASSWORD";
    static final String POSTGRES_PASSWORD_FILE = "ENGRAM_POSTGRES_PASSWORD_FILE";

    /** A key of a Secret. */
    record Ref(String secret, String key) {}

    /**
     * The Secret key that gives {@code env} to the pod's main container, if any: a secretKeyRef, or
     * for ENGRAM_POSTGRES_PASSWORD the file ENGRAM_POSTGRES_PASSWORD_FILE (from the settings or the
     * container) names, when a Secret volume mounted in the container holds it.
     */
    static Optional<Ref> source(
            Pods.Pod pod, Container c, Map<String, String> settings, String env) {
        Optional<Ref> direct = fromEnv(c, env);
        if (direct.isPresent() || !env.equals(POSTGRES_PASSWORD)) {
            return direct;
        }
        String file =
                envValue(c, POSTGRES_PASSWORD_FILE).orElse(settings.get(POSTGRES_PASSWORD_FILE));
        return file == null ? Optional.empty() : mountedSecretFile(pod, c, Path.of(file));
    }

    static Optional<Ref> fromEnv(Container c, String env) {
        return envs(c).stream()
                .filter(e -> e.getName().equals(env))
                .map(EnvVar::getValueFrom)
                .filter(Objects::nonNull)
                .map(v -> v.getSecretKeyRef())
                .filter(Objects::nonNull)
                .map((SecretKeySelector s) -> new Ref(s.getName(), s.getKey()))
                .findFirst();
    }

    static Optional<String> envValue(Container c, String env) {
        return envs(c).stream()
                .filter(e -> e.getName().equals(env) && e.getValue() != null)
                .map(EnvVar::getValue)
                .findFirst();
    }

    /** The Secret key behind a file path, when a Secret volume is mounted over it. */
    static Optional<Ref> mountedSecretFile(Pods.Pod pod, Container c, Path file) {
        for (VolumeMount m :
                c.getVolumeMounts() == null ? List.<VolumeMount>of() : c.getVolumeMounts()) {
            Path mount = Path.of(m.getMountPath());
            if (!file.startsWith(mount) || file.equals(mount) || m.getSubPath() != null) {
                continue;
            }
            String inside = mount.relativize(file).toString();
            for (Volume v : pod.volumes()) {
                if (!v.getName().equals(m.getName()) || v.getSecret() == null) {
                    continue;
                }
                String secret = v.getSecret().getSecretName();
                if (v.getSecret().getItems() == null || v.getSecret().getItems().isEmpty()) {
                    return Optional.of(new Ref(secret, inside));
                }
                return v.getSecret().getItems().stream()
                        .filter(i -> i.getPath().equals(inside))
                        .map(i -> new Ref(secret, i.getKey()))
                        .findFirst();
            }
        }
        return Optional.empty();
    }

    /**
     * Whether the overlay provides the Secret key: a Secret with it, or an ExternalSecret whose
     * target is the Secret and whose data gives the key.
     */
    static boolean provided(Overlay overlay, Ref ref) {
        boolean secret =
                overlay.all(Secret.class).stream()
                        .anyMatch(
                                s ->
                                        s.getMetadata().getName().equals(ref.secret())
                                                && s.getData() != null
                                                && s.getData().containsKey(ref.key()));
        return secret || externalSecretEntry(overlay, ref).isPresent();
    }

    /** Whether the overlay has a Secret of that name, or an ExternalSecret making it. */
    static boolean secretExists(Overlay overlay, String name) {
        return overlay.find(Secret.class, name).isPresent()
                || overlay.generic("ExternalSecret").stream().anyMatch(e -> target(e).equals(name));
    }

    /** The data entry of an ExternalSecret that makes the Secret key. */
    static Optional<Map<String, Object>> externalSecretEntry(Overlay overlay, Ref ref) {
        for (GenericKubernetesResource e : overlay.generic("ExternalSecret")) {
            if (!target(e).equals(ref.secret())) {
                continue;
            }
            for (Map<String, Object> entry : data(e)) {
                if (ref.key().equals(entry.get("secretKey"))) {
                    return Optional.of(entry);
                }
            }
        }
        return Optional.empty();
    }

    /** The name of the Secret an ExternalSecret makes (its target, else its own name). */
    static String target(GenericKubernetesResource externalSecret) {
        Object name = field(externalSecret, "spec", "target", "name");
        return name == null ? externalSecret.getMetadata().getName() : name.toString();
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> data(GenericKubernetesResource externalSecret) {
        Object data = field(externalSecret, "spec", "data");
        return data instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
    }

    /** A nested field of a generic resource, or null. */
    @SuppressWarnings("unchecked")
    static Object field(GenericKubernetesResource r, String... path) {
        Object at = r.getAdditionalProperties();
        for (String p : path) {
            if (!(at instanceof Map<?, ?> m)) {
                return null;
            }
            at = ((Map<String, Object>) m).get(p);
        }
        return at;
    }

    private static List<EnvVar> envs(Container c) {
        return c.getEnv() == null ? List.of() : c.getEnv();
    }
}
