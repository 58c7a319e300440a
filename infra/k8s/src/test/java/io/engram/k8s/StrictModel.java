package io.engram.k8s;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.kubernetes.operator.api.FlinkDeployment;
import org.apache.flink.kubernetes.operator.api.spec.FlinkVersion;

/**
 * Parses rendered documents into their typed classes, strictly: a field the class does not have
 * fails, and so does a value of the wrong type. fabric8's classes keep unknown fields in an
 * any-setter map and the operator's classes ignore them; here the any-setters are switched off and
 * {@code ignoreUnknown} is overridden, so both fail on them. After parsing, the typed object is
 * written back and every field of the input must come out with its value: nothing was dropped or
 * changed on the way.
 */
final class StrictModel {

    private StrictModel() {}

    /** The classes of the kinds the manifests may hold, by apiVersion and kind. */
    static final Map<String, Class<?>> TYPED =
            Map.ofEntries(
                    Map.entry("v1/Namespace", Namespace.class),
                    Map.entry("v1/ServiceAccount", ServiceAccount.class),
                    Map.entry("v1/ConfigMap", ConfigMap.class),
                    Map.entry("v1/Secret", Secret.class),
                    Map.entry("v1/Service", Service.class),
                    Map.entry("v1/PersistentVolumeClaim", PersistentVolumeClaim.class),
                    Map.entry("apps/v1/Deployment", Deployment.class),
                    Map.entry("batch/v1/Job", Job.class),
                    Map.entry("batch/v1/CronJob", CronJob.class),
                    Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
                    Map.entry(
                            "autoscaling/v2/HorizontalPodAutoscaler",
                            HorizontalPodAutoscaler.class),
                    Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
                    Map.entry("rbac.authorization.k8s.io/v1/Role", Role.class),
                    Map.entry("rbac.authorization.k8s.io/v1/RoleBinding", RoleBinding.class),
                    Map.entry("flink.apache.org/v1beta1/FlinkDeployment", FlinkDeployment.class));

    /**
     * Kinds without classes here (External Secrets Operator): parsed generically, their fields
     * checked one by one by the tests.
     */
    static final List<String> GENERIC =
            List.of("external-secrets.io/v1/ExternalSecret", "external-secrets.io/v1/SecretStore");

    /**
     * The operator API on Maven Central (1.10.0) knows Flink versions up to v1_20; the operator
     * releases that run Flink 2.x add v2_0 and later. Such a value is checked by the tests and
     * replaced by the newest constant the class knows, for parsing only.
     */
    static final Pattern FLINK_2_VERSION = Pattern.compile("v2_\\d+");

    private static final ObjectMapper STRICT = strictMapper();
    private static final ObjectMapper PLAIN = new ObjectMapper();

    private static ObjectMapper strictMapper() {
        ObjectMapper mapper =
                JsonMapper.builder()
                        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                        .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                        .annotationIntrospector(new NoUnknownFields())
                        .build();
        // Kubernetes refuses "8080" for a number and 8080 for a string; so does this mapper.
        for (CoercionInputShape shape :
                List.of(
                        CoercionInputShape.Integer,
                        CoercionInputShape.Float,
                        CoercionInputShape.Boolean)) {
            mapper.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
        }
        for (LogicalType type :
                List.of(LogicalType.Integer, LogicalType.Float, LogicalType.Boolean)) {
            mapper.coercionConfigFor(type)
                    .setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        }
        return mapper;
    }

    /** Ignores the any-setters and every {@code ignoreUnknown = true}. */
    private static final class NoUnknownFields extends JacksonAnnotationIntrospector {
        @Override
        public Boolean hasAnySetter(Annotated a) {
            return null;
        }

        @Override
        public JsonIgnoreProperties.Value findPropertyIgnoralByName(
                MapperConfig<?> config, Annotated a) {
            return super.findPropertyIgnoralByName(config, a).withoutIgnoreUnknown();
        }
    }

    /** "apiVersion/kind" of a document. */
    static String typeOf(JsonNode doc) {
        return doc.path("apiVersion").asText() + "/" + doc.path("kind").asText();
    }

    /**
     * The document as its typed class, or as a {@link GenericKubernetesResource} for the kinds in
     * {@link #GENERIC}; fails for any other kind and for a document that does not parse strictly.
     */
    static Object parse(JsonNode doc) {
        String type = typeOf(doc);
        String name = type + " " + doc.path("metadata").path("name").asText();
        if (GENERIC.contains(type)) {
            return PLAIN.convertValue(doc, GenericKubernetesResource.class);
        }
        Class<?> typed = TYPED.get(type);
        if (typed == null) {
            throw new AssertionError(
                    name
                            + ": a kind the manifests are not expected to hold (add it to StrictModel)");
        }
        JsonNode input = doc;
        if (typed == FlinkDeployment.class) {
            input = withKnownFlinkVersion(doc);
        }
        Object value;
        try {
            value = STRICT.treeToValue(input, typed);
        } catch (Exception e) {
            throw new AssertionError(
                    name + " does not parse as " + typed.getName() + ": " + e.getMessage(), e);
        }
        String lost = firstDifference(input, PLAIN.valueToTree(value), "");
        if (lost != null) {
            throw new AssertionError(
                    name + ": " + lost + " does not survive " + typed.getSimpleName());
        }
        return value;
    }

    private static JsonNode withKnownFlinkVersion(JsonNode doc) {
        String version = doc.path("spec").path("flinkVersion").asText();
        if (!FLINK_2_VERSION.matcher(version).matches()) {
            return doc;
        }
        ObjectNode copy = doc.deepCopy();
        ((ObjectNode) copy.get("spec")).put("flinkVersion", FlinkVersion.current().name());
        return copy;
    }

    /**
     * Where {@code input} has something {@code output} has not (a field, an element, a value), or
     * null. Scalars are equal when their text is: a quantity written as a number comes back as a
     * string, and a number as an integer or a decimal.
     */
    static String firstDifference(JsonNode input, JsonNode output, String path) {
        if (input.isObject()) {
            if (!output.isObject()) {
                return path + " (an object became " + output.getNodeType() + ")";
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = input.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                String at = path + "." + field.getKey();
                if (!output.has(field.getKey())) {
                    return at;
                }
                String d = firstDifference(field.getValue(), output.get(field.getKey()), at);
                if (d != null) {
                    return d;
                }
            }
            return null;
        }
        if (input.isArray()) {
            if (!output.isArray() || output.size() != input.size()) {
                return path + " (a list of " + input.size() + ")";
            }
            for (int i = 0; i < input.size(); i++) {
                String d = firstDifference(input.get(i), output.get(i), path + "[" + i + "]");
                if (d != null) {
                    return d;
                }
            }
            return null;
        }
        if (input.isNumber() && output.isNumber()) {
            return input.decimalValue().compareTo(output.decimalValue()) == 0 ? null : path;
        }
        if (input.isNumber() && output.isTextual()) {
            try {
                return new BigDecimal(output.asText()).compareTo(input.decimalValue()) == 0
                        ? null
                        : path;
            } catch (NumberFormatException e) {
                return path;
            }
        }
        return input.asText().equals(output.asText()) && !output.isContainerNode() ? null : path;
    }
}
