package io.engram.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.engram.config.ConfigKeys;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The overlays against the Terraform outputs: the aws overlay's settings are the output
 * engram_environment, its passwords the Secrets Manager secrets the outputs name (through the
 * External Secrets Operator, whose resources are checked field by field: no typed classes here),
 * and the script that writes its env files from {@code terraform output -json} writes what the
 * overlay reads. The local overlay's secrets are literals a local stack accepts.
 */
class SecretsAndTerraformTest {

    static final Path AWS = Overlay.directory("aws");

    static Map<String, String> terraformEnv() {
        return Sources.envFile(AWS.resolve("terraform.env.example"));
    }

    @Test
    void theAwsSettingsAreTheTerraformEnvironment() {
        Map<String, String> example = Sources.envFile(AWS.resolve("engram.env.example"));
        assertThat(example.keySet())
                .as("engram.env.example has the keys of output engram_environment")
                .containsExactlyInAnyOrderElementsOf(Sources.engramEnvironmentKeys());
        assertThat(Overlay.of("aws").settings()).containsAllEntriesOf(example);
    }

    @Test
    void thePasswordsComeFromTheSecretsTheTerraformOutputsName() {
        Overlay aws = Overlay.of("aws");
        Map<String, String> terraform = terraformEnv();
        Deployment serving = aws.one(Deployment.class, ServingTest.NAME);
        Pods.Pod pod =
                Pods.of(aws).stream()
                        .filter(p -> p.owner().equals("Deployment/" + ServingTest.NAME))
                        .findFirst()
                        .orElseThrow();
        Container c = serving.getSpec().getTemplate().getSpec().getContainers().get(0);
        Sources.secretOutputs()
                .forEach(
                        (output, env) -> {
                            Secrets.Ref ref =
                                    Secrets.source(pod, c, aws.settings(), env).orElseThrow();
                            Map<String, Object> entry =
                                    Secrets.externalSecretEntry(aws, ref)
                                            .orElseThrow(
                                                    () ->
                                                            new AssertionError(
                                                                    "no ExternalSecret makes "
                                                                            + ref));
                            @SuppressWarnings("unchecked")
                            Map<String, Object> remote =
                                    (Map<String, Object>) entry.get("remoteRef");
                            assertThat(remote.get("key"))
                                    .as("%s: the secret of output %s", env, output)
                                    .isEqualTo(terraform.get(output));
                            boolean json = Sources.outputDescription(output).contains("JSON");
                            assertThat(remote.get("property"))
                                    .as(
                                            "%s: the 'password' field of a JSON secret, else the whole secret",
                                            env)
                                    .isEqualTo(json ? "password" : null);
                        });
        Container prepare =
                aws.one(Job.class, "engram-prepare")
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0);
        Secrets.Ref bootstrap =
                Secrets.fromEnv(prepare, ConfigKeys.AUTH_BOOTSTRAP_KEY.env()).orElseThrow();
        assertThat(Secrets.externalSecretEntry(aws, bootstrap).orElseThrow().get("remoteRef"))
                .isEqualTo(Map.of("key", terraform.get("bootstrap_key_secret")));
    }

    @Test
    void theExternalSecretsReadThroughTheOverlaysSecretStore() {
        Overlay aws = Overlay.of("aws");
        List<GenericKubernetesResource> stores = aws.generic("SecretStore");
        assertThat(stores).hasSize(1);
        GenericKubernetesResource store = stores.get(0);
        assertThat(Secrets.field(store, "spec", "provider", "aws", "service"))
                .isEqualTo("SecretsManager");
        assertThat(Secrets.field(store, "spec", "provider", "aws", "region"))
                .isEqualTo(aws.settings().get(ConfigKeys.OPENSEARCH_AWS_REGION.env()));
        List<GenericKubernetesResource> externalSecrets = aws.generic("ExternalSecret");
        assertThat(externalSecrets)
                .extracting(Secrets::target)
                .containsExactlyInAnyOrder("engram-secrets", "engram-bootstrap");
        for (GenericKubernetesResource e : externalSecrets) {
            String name = e.getMetadata().getName();
            assertThat(e.getApiVersion()).isEqualTo("external-secrets.io/v1");
            assertThat(Secrets.field(e, "spec", "secretStoreRef"))
                    .as("%s reads through the SecretStore", name)
                    .isEqualTo(
                            Map.of("kind", "SecretStore", "name", store.getMetadata().getName()));
            assertThat(Secrets.field(e, "spec", "refreshInterval"))
                    .as("%s refresh", name)
                    .isNotNull();
            assertThat(Secrets.field(e, "spec", "target", "creationPolicy")).isEqualTo("Owner");
            for (Map<String, Object> entry : Secrets.data(e)) {
                assertThat(entry.keySet()).containsExactlyInAnyOrder("secretKey", "remoteRef");
            }
        }
        // RDS rotates its password weekly; the pods read the file for each new connection.
        assertThat(
                        Secrets.field(
                                externalSecrets.stream()
                                        .filter(e -> Secrets.target(e).equals("engram-secrets"))
                                        .findFirst()
                                        .orElseThrow(),
                                "spec",
                                "refreshInterval"))
                .isEqualTo("1m");
        for (var doc : aws.documents) {
            assertThat(doc.toString())
                    .as("every placeholder replaced")
                    .doesNotContain("from terraform.env", "from engram.env", "from-terraform-env");
        }
        assertThat(aws.all(ConfigMap.class))
                .as("terraform-outputs is a source of replacements, not applied")
                .noneMatch(m -> m.getMetadata().getName().startsWith("terraform-outputs"));
    }

    @Test
    void theGeneratorWritesWhatTheOverlayReads(@TempDir Path dir) throws IOException {
        Map<String, String> settings = Sources.envFile(AWS.resolve("engram.env.example"));
        Map<String, String> terraform = new LinkedHashMap<>(terraformEnv());
        ObjectMapper json = new ObjectMapper();
        ObjectNode outputs = json.createObjectNode();
        outputs.putObject("engram_environment").set("value", json.valueToTree(settings));
        Map<String, String> flink = new LinkedHashMap<>();
        for (String key : Sources.flinkConfigurationKeys()) {
            flink.put(key, terraform.get(key));
        }
        outputs.putObject("flink_configuration").set("value", json.valueToTree(flink));
        for (String output : Sources.secretOutputs().keySet()) {
            outputs.putObject(output).put("value", terraform.get(output));
        }
        outputs.putObject("kubernetes").putObject("value").put("namespace", "engram");
        assertThat(outputs.properties())
                .extracting(Map.Entry::getKey)
                .as("every output the generator reads is one outputs.tf has")
                .allMatch(Sources.outputNames()::contains);

        Path script = dir.resolve("from-terraform.sh");
        Files.copy(AWS.resolve("from-terraform.sh"), script);
        Overlay.run(
                dir,
                List.of("bash", script.toString(), terraform.get("bootstrap_key_secret")),
                json.writeValueAsString(outputs));
        assertThat(Sources.envFile(dir.resolve("engram.env"))).isEqualTo(settings);
        assertThat(Sources.envFile(dir.resolve("terraform.env"))).isEqualTo(terraform);
        assertThat(Files.readAllLines(AWS.resolve(".gitignore")))
                .as("the generated files, with the deployment's addresses, are not committed")
                .contains("engram.env", "terraform.env");
    }

    @Test
    void theLocalSecretsAreValuesTheLocalStackAccepts() {
        Overlay local = Overlay.of("local");
        Container prepare =
                local.one(Job.class, "engram-prepare")
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0);
        Secrets.Ref ref =
                Secrets.fromEnv(prepare, ConfigKeys.AUTH_BOOTSTRAP_KEY.env()).orElseThrow();
        Secret secret = local.one(Secret.class, ref.secret());
        String key =
                new String(
                        Base64.getDecoder().decode(secret.getData().get(ref.key())),
                        StandardCharsets.UTF_8);
        assertThat(ConfigKeys.AUTH_BOOTSTRAP_KEY.parser().apply(key)).isNotNull();
        assertThat(local.generic("ExternalSecret")).isEmpty();
    }
}
