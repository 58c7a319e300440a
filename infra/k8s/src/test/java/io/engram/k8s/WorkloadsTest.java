package io.engram.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.config.ConfigKeys;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.kubernetes.operator.api.FlinkDeployment;
import org.apache.flink.kubernetes.operator.api.spec.FlinkDeploymentSpec;
import org.apache.flink.kubernetes.operator.api.spec.UpgradeMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The write plane (the FlinkDeployment, the maintenance CronJobs), what every pod shares (security
 * context, resources, writable directories) and the images the manifests name, against the
 * Dockerfiles that build them.
 */
class WorkloadsTest {

    static final List<String> OVERLAYS = Overlay.NAMES;

    static final String MAINTENANCE_MAIN = "io.engram.jobs.maintenance.MaintenanceMain";

    static FlinkDeploymentSpec flink(Overlay overlay) {
        return overlay.one(FlinkDeployment.class, "engram-extraction").getSpec();
    }

    /** The path a Dockerfile copies a file to (the last argument of the COPY matching). */
    static String copiedTo(String dockerfile, String sourcePattern) {
        Matcher m =
                Pattern.compile("(?m)^COPY (?:--\\S+ )*(" + sourcePattern + ") (\\S+)$")
                        .matcher(Sources.read(dockerfile));
        assertThat(m.find()).as("%s copies %s", dockerfile, sourcePattern).isTrue();
        return m.group(2);
    }

    static String servingJarInImage() {
        return copiedTo(
                "infra/k8s/images/serving/Dockerfile", "serving/target/engram-serving-\\S+\\.jar");
    }

    static String jobsJarInImage() {
        return copiedTo(
                "infra/k8s/images/flink/Dockerfile", "jobs/target/engram-jobs-\\S+-flink\\.jar");
    }

    @Test
    void theFlinkImageIsTheProjectsFlinkWithOnnxRuntimeInLibAndTheS3Plugin() {
        String dockerfile = Sources.read("infra/k8s/images/flink/Dockerfile");
        String version = Sources.flinkVersion();
        assertThat(dockerfile).contains("FROM flink:" + version + "-java17");
        assertThat(dockerfile)
                .contains(
                        "/opt/flink/opt/flink-s3-fs-hadoop-"
                                + version
                                + ".jar /opt/flink/plugins/");
        assertThat(
                        copiedTo(
                                "infra/k8s/images/flink/Dockerfile",
                                "serving/target/lib/onnxruntime-\\S+\\.jar"))
                .isEqualTo("/opt/flink/lib/");
        assertThat(Sources.read("pom.xml"))
                .contains(
                        "<onnxruntime.version>"
                                + argDefault(dockerfile, "ONNXRUNTIME_VERSION")
                                + "<");
        assertThat(Sources.read("pom.xml"))
                .contains(
                        "<postgresql.version>"
                                + argDefault(dockerfile, "POSTGRESQL_VERSION")
                                + "<");
        assertThat(Sources.read("pom.xml"))
                .contains("<version>" + argDefault(dockerfile, "VERSION") + "</version>");
    }

    private static String argDefault(String dockerfile, String arg) {
        Matcher m = Pattern.compile("(?m)^ARG " + arg + "=(\\S+)$").matcher(dockerfile);
        assertThat(m.find()).as("ARG %s", arg).isTrue();
        return m.group(1);
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theExtractionJobRunsInApplicationModeWithSavepointUpgradesAndHa(String name) {
        Overlay overlay = Overlay.of(name);
        FlinkDeploymentSpec spec = flink(overlay);
        // Typed parsing needs a constant the 1.10.0 API knows; the text is checked here.
        String version =
                overlay.documents.stream()
                        .filter(d -> d.path("kind").asText().equals("FlinkDeployment"))
                        .findFirst()
                        .orElseThrow()
                        .path("spec")
                        .path("flinkVersion")
                        .asText();
        assertThat(version)
                .as("flinkVersion of a Flink 2.x image")
                .matches(StrictModel.FLINK_2_VERSION);
        int minor = Integer.parseInt(version.substring(3));
        assertThat(minor)
                .as("flinkVersion no newer than the project's Flink %s", Sources.flinkVersion())
                .isLessThanOrEqualTo(Integer.parseInt(Sources.flinkVersion().split("\\.")[1]));

        assertThat(spec.getJob().getJarURI()).isEqualTo("local://" + jobsJarInImage());
        assertThat(Sources.hasMain("jobs", spec.getJob().getEntryClass()))
                .as("%s has a main method in jobs/", spec.getJob().getEntryClass())
                .isTrue();
        assertThat(spec.getJob().getEntryClass())
                .isEqualTo("io.engram.jobs.extraction.ExtractionJob");
        assertThat(spec.getJob().getUpgradeMode())
                .as("upgrades keep the job's state through a savepoint")
                .isEqualTo(UpgradeMode.SAVEPOINT);
        int parallelism =
                Integer.parseInt(
                        overlay.settings()
                                .getOrDefault(
                                        ConfigKeys.EXTRACTION_PARALLELISM.env(),
                                        ConfigKeys.EXTRACTION_PARALLELISM.defaultValue()));
        assertThat(spec.getJob().getParallelism())
                .as(
                        "the job sets ENGRAM_EXTRACTION_PARALLELISM itself; the operator sizes the cluster by this")
                .isEqualTo(parallelism);
        assertThat(spec.getServiceAccount())
                .isEqualTo(Sources.variableDefault("flink_service_account"));

        Map<String, String> conf = spec.getFlinkConfiguration();
        assertThat(conf).containsEntry("high-availability.type", "kubernetes");
        assertThat(conf.get("classloader.parent-first-patterns.additional").split(";"))
                .as("ONNX Runtime and the PostgreSQL driver loaded parent-first, once per JVM")
                .contains("ai.onnxruntime", "org.postgresql");
        assertThat(conf)
                .containsEntry(
                        "metrics.reporter.prom.factory.class",
                        "org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
        assertThat(conf)
                .as("Flink 1.x names Flink 2 no longer reads")
                .doesNotContainKeys(
                        "state.checkpoints.dir", "state.savepoints.dir", "high-availability");
        for (Pods.Pod pod : Pods.of(overlay)) {
            if (pod.isFlink()) {
                Container main = ManifestsTest.flinkMain(pod);
                assertThat(pod.annotations())
                        .as("%s scraped", pod)
                        .containsEntry("prometheus.io/scrape", "true");
                assertThat(pod.annotations().get("prometheus.io/port"))
                        .as("%s: scraped on the reporter's port", pod)
                        .isEqualTo(conf.get("metrics.reporter.prom.port"));
                assertThat(main.getPorts())
                        .as("%s declares the reporter's port", pod)
                        .extracting(p -> String.valueOf(p.getContainerPort()))
                        .contains(conf.get("metrics.reporter.prom.port"));
            }
        }
        assertThat(spec.getJobManager().getReplicas())
                .as("one JobManager; Kubernetes HA restarts it from its metadata")
                .isEqualTo(1);
        for (var resource :
                List.of(spec.getJobManager().getResource(), spec.getTaskManager().getResource())) {
            assertThat(resource.getCpu()).isPositive();
            assertThat(resource.getMemory()).isNotBlank();
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void checkpointsSavepointsAndHaGoWhereTheOverlaySays(String name) {
        Overlay overlay = Overlay.of(name);
        Map<String, String> conf = flink(overlay).getFlinkConfiguration();
        assertThat(conf)
                .as("the keys of the Terraform output flink_configuration")
                .containsKeys(Sources.flinkConfigurationKeys().toArray(String[]::new));
        List<String> keys = new ArrayList<>(Sources.flinkConfigurationKeys());
        keys.add("high-availability.storageDir");
        if (name.equals("aws")) {
            Map<String, String> terraform =
                    Sources.envFile(Overlay.directory("aws").resolve("terraform.env.example"));
            for (String key : Sources.flinkConfigurationKeys()) {
                assertThat(conf.get(key)).as(key).isEqualTo(terraform.get(key)).startsWith("s3://");
            }
            String bucket = bucketOf(conf.get("execution.checkpointing.dir"));
            assertThat(bucketOf(conf.get("high-availability.storageDir")))
                    .as("HA metadata in the checkpoint bucket (the Flink role's only bucket)")
                    .isEqualTo(bucket);
        } else {
            Pods.Pod jm =
                    Pods.of(overlay).stream().filter(Pods.Pod::isFlink).findFirst().orElseThrow();
            for (String key : keys) {
                assertThat(conf.get(key)).as(key).startsWith("file:///");
                Path dir = Path.of(conf.get(key).substring("file://".length()));
                VolumeMount mount =
                        ManifestsTest.flinkMain(jm).getVolumeMounts().stream()
                                .filter(m -> dir.startsWith(m.getMountPath()))
                                .findFirst()
                                .orElseThrow(
                                        () -> new AssertionError(key + ": no volume at " + dir));
                Volume volume =
                        jm.volumes().stream()
                                .filter(v -> v.getName().equals(mount.getName()))
                                .findFirst()
                                .orElseThrow();
                assertThat(volume.getPersistentVolumeClaim())
                        .as("%s survives a pod: a volume claim", key)
                        .isNotNull();
            }
        }
    }

    private static String bucketOf(String s3) {
        return java.net.URI.create(s3).getHost();
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void maintenanceRunsTheDailyJobsInOrderAndTheRequestedRunsEveryMinute(String name) {
        Overlay overlay = Overlay.of(name);
        List<CronJob> cronJobs = overlay.all(CronJob.class);
        assertThat(Sources.hasMain("jobs", MAINTENANCE_MAIN)).isTrue();
        String jar = jobsJarInImage();
        CronJob daily = overlay.one(CronJob.class, "engram-maintenance-daily");
        CronJob requested = overlay.one(CronJob.class, "engram-maintenance-requested");
        assertThat(cronJobs).containsExactlyInAnyOrder(daily, requested);

        assertThat(daily.getSpec().getSchedule()).matches("\\d{1,2} \\d{1,2} \\* \\* \\*");
        String script = String.join(" ", container(daily).getCommand());
        Matcher loop = Pattern.compile("for job in ([a-z ]+); do").matcher(script);
        assertThat(loop.find()).as("the daily jobs, one after the other: %s", script).isTrue();
        assertThat(List.of(loop.group(1).trim().split(" +")))
                .as("MaintenanceKind.DAILY, in its order")
                .isEqualTo(Sources.dailyMaintenanceJobs());
        assertThat(script).contains(MAINTENANCE_MAIN + " \"$job\"");

        assertThat(requested.getSpec().getSchedule()).isEqualTo("* * * * *");
        List<String> command = container(requested).getCommand();
        assertThat(command.subList(command.size() - 2, command.size()))
                .containsExactly(MAINTENANCE_MAIN, "requested");

        for (CronJob c : cronJobs) {
            String all = String.join(" ", container(c).getCommand());
            assertThat(all)
                    .as("%s class path", c.getMetadata().getName())
                    .contains(jar + ":/opt/flink/lib/*");
            assertThat(c.getSpec().getConcurrencyPolicy()).isEqualTo("Forbid");
            assertThat(c.getSpec().getTimeZone()).isNotBlank();
            assertThat(container(c).getImage()).isEqualTo(flink(overlay).getImage());
            assertThat(
                            c.getSpec()
                                    .getJobTemplate()
                                    .getSpec()
                                    .getTemplate()
                                    .getSpec()
                                    .getRestartPolicy())
                    .isEqualTo("Never");
        }
    }

    private static Container container(CronJob c) {
        return c.getSpec()
                .getJobTemplate()
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyPodRunsUnprivilegedWithResourcesAndWritableDirectories(String name) {
        Overlay overlay = Overlay.of(name);
        String home = overlay.settings().get(ConfigKeys.HOME.env());
        for (Pods.Pod pod : Pods.of(overlay)) {
            PodSecurityContext podContext = pod.spec().getSecurityContext();
            assertThat(podContext.getRunAsNonRoot()).as("%s runAsNonRoot", pod).isTrue();
            assertThat(podContext.getRunAsUser()).as("%s runAsUser", pod).isPositive();
            for (Container c : pod.containers()) {
                SecurityContext sc = c.getSecurityContext();
                assertThat(sc.getAllowPrivilegeEscalation()).as("%s escalation", pod).isFalse();
                assertThat(sc.getCapabilities().getDrop())
                        .as("%s capabilities", pod)
                        .contains("ALL");
                List<String> writable = writableMounts(pod, c);
                assertThat(writable).as("%s: ENGRAM_HOME is a writable volume", pod).contains(home);
                if (pod.isFlink()) {
                    // The image's entrypoint writes under /opt/flink; resources come from the spec.
                    continue;
                }
                assertThat(sc.getReadOnlyRootFilesystem()).as("%s read-only root", pod).isTrue();
                assertThat(writable)
                        .as("%s: /tmp (JVM, ONNX Runtime's library)", pod)
                        .contains("/tmp");
                assertThat(c.getResources().getRequests())
                        .as("%s requests", pod)
                        .containsKeys("cpu", "memory");
                assertThat(c.getResources().getLimits())
                        .as("%s limits", pod)
                        .containsKeys("cpu", "memory");
            }
        }
    }

    private static List<String> writableMounts(Pods.Pod pod, Container c) {
        return c.getVolumeMounts().stream()
                .filter(m -> !Boolean.TRUE.equals(m.getReadOnly()))
                .filter(
                        m ->
                                pod.volumes().stream()
                                        .anyMatch(
                                                v ->
                                                        v.getName().equals(m.getName())
                                                                && (v.getEmptyDir() != null
                                                                        || v
                                                                                        .getPersistentVolumeClaim()
                                                                                != null)))
                .map(VolumeMount::getMountPath)
                .toList();
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theManifestsNameTwoTaggedImages(String name) {
        Overlay overlay = Overlay.of(name);
        String servingImage = ServingTest.serving(overlay).getImage();
        String flinkImage = flink(overlay).getImage();
        for (Pods.Pod pod : Pods.of(overlay)) {
            if (!pod.isFlink()) {
                String expected = pod.owner().startsWith("CronJob/") ? flinkImage : servingImage;
                assertThat(pod.container().getImage()).as("image of %s", pod).isEqualTo(expected);
            }
        }
        for (String image : List.of(servingImage, flinkImage)) {
            assertThat(image).matches("[^:]+:[0-9][^:]*").doesNotEndWith(":latest");
            if (name.equals("aws")) {
                assertThat(image).as("from the account's registry").contains(".dkr.ecr.");
            }
        }
    }
}
