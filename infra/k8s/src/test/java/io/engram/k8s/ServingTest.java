package io.engram.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.config.ConfigKeys;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The serving tier: its Deployment (port, probes on the contract's health paths, drain on
 * termination, metrics), the Service, PodDisruptionBudget and HorizontalPodAutoscaler that must
 * reach exactly its pods, and the prepare Job.
 */
class ServingTest {

    static final List<String> OVERLAYS = Overlay.NAMES;

    static final String NAME = "engram-serving";

    static Container serving(Overlay overlay) {
        return overlay.one(Deployment.class, NAME)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
    }

    /** The container port a probe or Service port names (by name or number). */
    static ContainerPort port(Container c, IntOrString ref) {
        return c.getPorts().stream()
                .filter(
                        p ->
                                ref.getStrVal() != null
                                        ? ref.getStrVal().equals(p.getName())
                                        : ref.getIntVal().equals(p.getContainerPort()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no container port " + ref));
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void listensWhereTheSettingsSayAndProbesTheContractsHealthPaths(String name) {
        Overlay overlay = Overlay.of(name);
        Container c = serving(overlay);
        int port =
                Integer.parseInt(
                        overlay.settings()
                                .getOrDefault(
                                        ConfigKeys.SERVER_PORT.env(),
                                        ConfigKeys.SERVER_PORT.defaultValue()));
        assertThat(c.getPorts()).extracting(ContainerPort::getContainerPort).containsExactly(port);

        Map<String, Probe> probes =
                Map.of(
                        "/health/live", c.getLivenessProbe(),
                        "/health/ready", c.getReadinessProbe());
        assertThat(c.getStartupProbe()).as("startup probe").isNotNull();
        Set<String> paths = Sources.openApiPaths();
        probes.forEach(
                (path, probe) -> {
                    assertThat(probe).as("probe of %s", path).isNotNull();
                    assertThat(probe.getHttpGet().getPath()).as("probe path").isEqualTo(path);
                });
        for (Probe probe :
                List.of(c.getStartupProbe(), c.getLivenessProbe(), c.getReadinessProbe())) {
            HTTPGetAction get = probe.getHttpGet();
            assertThat(paths)
                    .as("openapi.yaml has the probed path %s", get.getPath())
                    .contains(get.getPath());
            assertThat(port(c, get.getPort()).getContainerPort()).isEqualTo(port);
        }
        assertThat(c.getCommand()).containsSubsequence("-jar", "/opt/engram/engram-serving.jar");
        assertThat(c.getCommand()).as("the Deployment serves").doesNotContain("prepare");
        assertThat(c.getCommand().get(c.getCommand().indexOf("-jar") + 1))
                .as("the jar the serving image holds")
                .isEqualTo(WorkloadsTest.servingJarInImage());
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void waitsForEndpointRemovalAndTheDrainBeforeBeingKilled(String name) {
        Deployment d = Overlay.of(name).one(Deployment.class, NAME);
        Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(c.getLifecycle().getPreStop().getSleep())
                .as("preStop sleep: the pod leaves the endpoints before SIGTERM")
                .isNotNull();
        int sleep = c.getLifecycle().getPreStop().getSleep().getSeconds().intValue();
        assertThat(sleep).isPositive();
        // The grace period counts from the start of preStop: sleep and drain must both fit.
        assertThat(d.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds())
                .as(
                        "terminationGracePeriodSeconds ≥ preStop sleep %d s + drain %d s",
                        sleep, Sources.drainSeconds())
                .isGreaterThanOrEqualTo((long) sleep + Sources.drainSeconds());
        assertThat(d.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable())
                .isEqualTo(new IntOrString(0));
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void prometheusScrapesTheMetricsPath(String name) {
        Overlay overlay = Overlay.of(name);
        Deployment d = overlay.one(Deployment.class, NAME);
        Map<String, String> annotations = d.getSpec().getTemplate().getMetadata().getAnnotations();
        assertThat(annotations).containsEntry("prometheus.io/scrape", "true");
        assertThat(Sources.openApiPaths()).contains(annotations.get("prometheus.io/path"));
        assertThat(annotations.get("prometheus.io/path"))
                .as("where the serving tier serves its metrics")
                .isEqualTo("/metrics");
        assertThat(serving(overlay).getPorts())
                .extracting(p -> String.valueOf(p.getContainerPort()))
                .contains(annotations.get("prometheus.io/port"));
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void serviceBudgetAndAutoscalerReachExactlyTheServingPods(String name) {
        Overlay overlay = Overlay.of(name);
        Deployment d = overlay.one(Deployment.class, NAME);
        Map<String, String> labels = d.getSpec().getTemplate().getMetadata().getLabels();
        assertThat(Policies.selects(d.getSpec().getSelector(), labels))
                .as("the Deployment's selector selects its own pods")
                .isTrue();
        List<Pods.Pod> others =
                Pods.of(overlay).stream()
                        .filter(p -> !p.owner().equals("Deployment/" + NAME))
                        .toList();

        Service service = overlay.one(Service.class, NAME);
        LabelSelector serviceSelector = new LabelSelector(null, service.getSpec().getSelector());
        assertThat(Policies.selects(serviceSelector, labels))
                .as("Service selects the pods")
                .isTrue();
        for (Pods.Pod other : others) {
            assertThat(Policies.selects(serviceSelector, other.labels()))
                    .as("Service also selects %s", other)
                    .isFalse();
        }
        for (ServicePort p : service.getSpec().getPorts()) {
            assertThat(port(serving(overlay), p.getTargetPort())).isNotNull();
        }

        PodDisruptionBudget pdb = overlay.one(PodDisruptionBudget.class, NAME);
        assertThat(Policies.selects(pdb.getSpec().getSelector(), labels)).isTrue();
        for (Pods.Pod other : others) {
            assertThat(Policies.selects(pdb.getSpec().getSelector(), other.labels()))
                    .as("budget also counts %s", other)
                    .isFalse();
        }

        HorizontalPodAutoscaler hpa = overlay.one(HorizontalPodAutoscaler.class, NAME);
        var target = hpa.getSpec().getScaleTargetRef();
        assertThat(target.getApiVersion()).isEqualTo("apps/v1");
        assertThat(target.getKind()).as("autoscaler target kind").isEqualTo("Deployment");
        assertThat(target.getName()).as("autoscaler target").isEqualTo(NAME);
        assertThat(hpa.getSpec().getMetrics())
                .extracting(MetricSpec::getResource)
                .anySatisfy(r -> assertThat(r.getName()).isEqualTo("cpu"));
        assertThat(serving(overlay).getResources().getRequests())
                .as("CPU utilisation is measured against the request")
                .containsKey("cpu");
        assertThat(hpa.getSpec().getMinReplicas())
                .isPositive()
                .isLessThanOrEqualTo(hpa.getSpec().getMaxReplicas());
        assertThat(d.getSpec().getReplicas())
                .as("replicas left to the autoscaler (an apply would reset them)")
                .isNull();
        // A budget that admits no disruption at the least replica count blocks every node drain.
        if (pdb.getSpec().getMinAvailable() != null) {
            assertThat(pdb.getSpec().getMinAvailable().getIntVal())
                    .isLessThan(hpa.getSpec().getMinReplicas());
        } else {
            assertThat(pdb.getSpec().getMaxUnavailable().getIntVal()).isPositive();
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void prepareJobRunsPrepareFromTheServingImage(String name) {
        Overlay overlay = Overlay.of(name);
        Job job = overlay.one(Job.class, "engram-prepare");
        Container c = job.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(c.getImage()).isEqualTo(serving(overlay).getImage());
        assertThat(c.getCommand())
                .as("the prepare Job runs the prepare command")
                .containsSubsequence("-jar", WorkloadsTest.servingJarInImage(), "prepare");
        assertThat(c.getCommand().get(c.getCommand().size() - 1))
                .as("the prepare Job runs the prepare command")
                .isEqualTo("prepare");
        assertThat(job.getSpec().getTemplate().getSpec().getRestartPolicy())
                .isIn("Never", "OnFailure");
        assertThat(job.getSpec().getBackoffLimit()).isNotNull();
    }
}
