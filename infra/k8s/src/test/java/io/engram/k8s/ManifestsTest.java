package io.engram.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.config.ConfigKey;
import io.engram.config.ConfigKeys;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.kubernetes.operator.api.FlinkDeployment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The overlays as a whole: every document parses strictly into its class, everything is in the
 * Terraform module's namespace with its service accounts, the settings are real configuration keys
 * with values they accept, and every pod gets the settings and the passwords the Terraform outputs
 * name from a Secret the overlay provides.
 */
class ManifestsTest {

    static final List<String> OVERLAYS = Overlay.NAMES;

    static final Map<String, ConfigKey<?>> KEYS_BY_ENV =
            ConfigKeys.ALL.stream().collect(Collectors.toMap(ConfigKey::env, Function.identity()));

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyDocumentParsesStrictlyIntoItsClass(String name) {
        Overlay overlay = Overlay.of(name);
        assertThat(overlay.resources).hasSameSizeAs(overlay.documents);
        Set<Class<?>> classes =
                overlay.resources.stream().map(Object::getClass).collect(Collectors.toSet());
        assertThat(classes)
                .as("kinds of overlay %s", name)
                .contains(
                        Namespace.class,
                        ServiceAccount.class,
                        Deployment.class,
                        Service.class,
                        PodDisruptionBudget.class,
                        HorizontalPodAutoscaler.class,
                        Job.class,
                        CronJob.class,
                        NetworkPolicy.class,
                        Role.class,
                        RoleBinding.class,
                        FlinkDeployment.class);
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void namespaceAndServiceAccountsAreTheTerraformDefaults(String name) {
        Overlay overlay = Overlay.of(name);
        String namespace = Sources.variableDefault("kubernetes_namespace");
        assertThat(namespace).isEqualTo(Sources.kubernetesOutputVariable("namespace"));
        assertThat(overlay.all(Namespace.class))
                .extracting(n -> n.getMetadata().getName())
                .containsExactly(namespace);
        for (Object r : overlay.resources) {
            HasMetadata m = (HasMetadata) r;
            if (!(r instanceof Namespace)) {
                assertThat(m.getMetadata().getNamespace())
                        .as("namespace of %s %s", m.getKind(), m.getMetadata().getName())
                        .isEqualTo(namespace);
            }
        }
        String serving = Sources.variableDefault("serving_service_account");
        String flink = Sources.variableDefault("flink_service_account");
        String taskManagers = Sources.variableDefault("flink_taskmanager_service_account");
        assertThat(serving).isEqualTo(Sources.kubernetesOutputVariable("serving_service_account"));
        assertThat(flink).isEqualTo(Sources.kubernetesOutputVariable("flink_service_account"));
        assertThat(taskManagers)
                .isEqualTo(Sources.kubernetesOutputVariable("flink_taskmanager_service_account"));
        assertThat(overlay.all(ServiceAccount.class))
                .extracting(a -> a.getMetadata().getName())
                .containsExactlyInAnyOrder(serving, flink, taskManagers);

        for (Pods.Pod pod : Pods.of(overlay)) {
            String expected =
                    pod.owner().endsWith("/taskmanager")
                            ? taskManagers
                            : pod.isFlink() || pod.owner().startsWith("CronJob/") ? flink : serving;
            assertThat(pod.serviceAccount()).as("service account of %s", pod).isEqualTo(expected);
        }
        // The task managers run the job's code: of the Kubernetes API they may read ConfigMaps
        // (the HA leader's address), nothing else.
        RoleBinding tmBinding = overlay.one(RoleBinding.class, taskManagers);
        assertThat(tmBinding.getSubjects())
                .singleElement()
                .satisfies(s -> assertThat(s.getName()).isEqualTo(taskManagers));
        Role tmRole = overlay.find(Role.class, tmBinding.getRoleRef().getName()).orElseThrow();
        assertThat(tmRole.getRules())
                .allSatisfy(
                        rule -> {
                            assertThat(rule.getResources()).containsOnly("configmaps");
                            assertThat(rule.getVerbs()).containsOnly("get", "list", "watch");
                        });
        RoleBinding binding = overlay.one(RoleBinding.class, flink);
        assertThat(overlay.find(Role.class, binding.getRoleRef().getName()))
                .as("the Role the binding names")
                .isPresent();
        assertThat(binding.getSubjects())
                .as("the binding's subject: the Flink service account")
                .singleElement()
                .satisfies(
                        s -> {
                            assertThat(s.getKind()).isEqualTo("ServiceAccount");
                            assertThat(s.getName()).isEqualTo(flink);
                            assertThat(s.getNamespace()).isEqualTo(namespace);
                        });
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void settingsAreConfigurationKeysWithValuesTheyAccept(String name) {
        Map<String, String> settings = Overlay.of(name).settings();
        settings.forEach(
                (env, value) -> {
                    ConfigKey<?> key = KEYS_BY_ENV.get(env);
                    assertThat(key)
                            .as("%s: %s is the variable of a key in ConfigKeys", name, env)
                            .isNotNull();
                    assertThat(key.secret()).as("%s is a secret, not a setting", env).isFalse();
                    if (!env.equals(Secrets.POSTGRES_PASSWORD_FILE)) {
                        try {
                            key.parser().apply(value);
                        } catch (RuntimeException e) {
                            throw new AssertionError(
                                    name
                                            + ": "
                                            + env
                                            + "="
                                            + value
                                            + " is refused: "
                                            + e.getMessage(),
                                    e);
                        }
                    }
                });
        // The listener binds 127.0.0.1 unless told otherwise: no probe or Service could reach it.
        assertThat(settings)
                .as("%s: the listener on every interface", name)
                .containsEntry(ConfigKeys.SERVER_HOST.env(), "0.0.0.0");
        assertThat(settings).containsKey(ConfigKeys.HOME.env());
        for (ConfigKey<String> service :
                List.of(
                        ConfigKeys.POSTGRES_URL,
                        ConfigKeys.KAFKA_BOOTSTRAP_SERVERS,
                        ConfigKeys.OPENSEARCH_URL,
                        ConfigKeys.REDIS_URL)) {
            assertThat(settings.get(service.env())).as("%s: %s", name, service.env()).isNotBlank();
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyVariableThePodsSetIsAConfigurationKeyAndSecretsComeFromSecrets(String name) {
        for (Pods.Pod pod : Pods.of(Overlay.of(name))) {
            for (Container c : pod.containers()) {
                for (EnvVar e : c.getEnv() == null ? List.<EnvVar>of() : c.getEnv()) {
                    ConfigKey<?> key = KEYS_BY_ENV.get(e.getName());
                    assertThat(key)
                            .as("%s sets %s: the variable of a key in ConfigKeys", pod, e.getName())
                            .isNotNull();
                    if (key.secret()) {
                        assertThat(e.getValue())
                                .as("%s: %s as a literal", pod, e.getName())
                                .isNull();
                        assertThat(e.getValueFrom().getSecretKeyRef())
                                .as("%s: %s from a Secret", pod, e.getName())
                                .isNotNull();
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyPodGetsTheSettingsAndThePasswordsOfTheTerraformOutputs(String name) {
        Overlay overlay = Overlay.of(name);
        String settingsName = overlay.generatedConfigMap("engram-settings").getMetadata().getName();
        Map<String, String> settings = overlay.settings();
        Map<String, Secrets.Ref> used = new HashMap<>();
        List<Pods.Pod> pods = Pods.of(overlay);
        assertThat(pods)
                .extracting(Pods.Pod::owner)
                .contains(
                        "Deployment/engram-serving",
                        "Job/engram-prepare",
                        "FlinkDeployment/engram-extraction/jobmanager",
                        "FlinkDeployment/engram-extraction/taskmanager",
                        "CronJob/engram-maintenance-daily",
                        "CronJob/engram-maintenance-requested");
        for (Pods.Pod pod : pods) {
            Container c = pod.isFlink() ? flinkMain(pod) : pod.container();
            assertThat(c.getEnvFrom())
                    .as("%s reads the settings", pod)
                    .extracting(EnvFromSource::getConfigMapRef)
                    .anySatisfy(ref -> assertThat(ref.getName()).isEqualTo(settingsName));
            for (String env : Sources.secretOutputs().values()) {
                Secrets.Ref ref =
                        Secrets.source(pod, c, settings, env)
                                .orElseThrow(
                                        () -> new AssertionError(pod + " does not get " + env));
                assertThat(Secrets.provided(overlay, ref))
                        .as("%s: %s from %s, which overlay %s provides", pod, env, ref, name)
                        .isTrue();
                assertThat(used.computeIfAbsent(env, k -> ref))
                        .as("%s comes from one Secret key in every pod", env)
                        .isEqualTo(ref);
            }
        }
        Pods.Pod prepare =
                pods.stream()
                        .filter(p -> p.owner().equals("Job/engram-prepare"))
                        .findFirst()
                        .orElseThrow();
        Secrets.Ref bootstrap =
                Secrets.fromEnv(prepare.container(), ConfigKeys.AUTH_BOOTSTRAP_KEY.env())
                        .orElseThrow(
                                () -> new AssertionError("prepare gets no ENGRAM_BOOTSTRAP_KEY"));
        assertThat(Secrets.provided(overlay, bootstrap)).as("%s provided", bootstrap).isTrue();
        for (Pods.Pod pod : pods) {
            if (pod != prepare) {
                assertThat(
                                Secrets.fromEnv(
                                        pod.containers().get(0),
                                        ConfigKeys.AUTH_BOOTSTRAP_KEY.env()))
                        .as("only the prepare Job gets the bootstrap key, not %s", pod)
                        .isEmpty();
            }
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyConfigMapSecretAndClaimAPodNamesExists(String name) {
        Overlay overlay = Overlay.of(name);
        for (Pods.Pod pod : Pods.of(overlay)) {
            for (Container c : pod.containers()) {
                for (EnvFromSource from :
                        c.getEnvFrom() == null ? List.<EnvFromSource>of() : c.getEnvFrom()) {
                    if (from.getConfigMapRef() != null) {
                        assertThat(overlay.find(ConfigMap.class, from.getConfigMapRef().getName()))
                                .as("%s: ConfigMap %s", pod, from.getConfigMapRef().getName())
                                .isPresent();
                    }
                }
                for (EnvVar e : c.getEnv() == null ? List.<EnvVar>of() : c.getEnv()) {
                    var ref = e.getValueFrom() == null ? null : e.getValueFrom().getSecretKeyRef();
                    if (ref != null && !Boolean.TRUE.equals(ref.getOptional())) {
                        assertThat(
                                        Secrets.provided(
                                                overlay,
                                                new Secrets.Ref(ref.getName(), ref.getKey())))
                                .as(
                                        "%s: %s from Secret %s key %s",
                                        pod, e.getName(), ref.getName(), ref.getKey())
                                .isTrue();
                    }
                }
            }
            for (Volume v : pod.volumes()) {
                if (v.getSecret() != null) {
                    assertThat(Secrets.secretExists(overlay, v.getSecret().getSecretName()))
                            .as("%s: Secret %s", pod, v.getSecret().getSecretName())
                            .isTrue();
                }
                if (v.getPersistentVolumeClaim() != null) {
                    assertThat(
                                    overlay.find(
                                            PersistentVolumeClaim.class,
                                            v.getPersistentVolumeClaim().getClaimName()))
                            .as("%s: claim %s", pod, v.getPersistentVolumeClaim().getClaimName())
                            .isPresent();
                }
            }
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void podsRunOnTheirNodeGroup(String name) {
        String key = Sources.kubernetesOutput("node_selector_key");
        for (Pods.Pod pod : Pods.of(Overlay.of(name))) {
            String role = pod.isFlink() || pod.owner().startsWith("CronJob/") ? "flink" : "serving";
            if (name.equals("local")) {
                // One node without the node groups' labels: a node selector would leave the pod
                // pending.
                assertThat(pod.nodeSelector()).as("%s node selector", pod).isEmpty();
            } else {
                assertThat(pod.nodeSelector())
                        .as("%s node selector", pod)
                        .isEqualTo(Map.of(key, role));
            }
        }
    }

    static Container flinkMain(Pods.Pod pod) {
        Optional<Container> main =
                pod.containers().stream()
                        .filter(c -> c.getName().equals("flink-main-container"))
                        .findFirst();
        assertThat(main)
                .as("%s: the operator merges only a container named flink-main-container", pod)
                .isPresent();
        return main.get();
    }
}
