package io.engram.k8s;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.kubernetes.operator.api.FlinkDeployment;
import org.apache.flink.kubernetes.operator.api.spec.FlinkDeploymentSpec;

/**
 * The pods an overlay makes, as they will run: the templates of the Deployment, the Job and the
 * CronJobs, and the Flink JobManager and task managers as the operator builds them (the
 * FlinkDeployment's pod template with the JobManager's or task managers' merged on top).
 */
final class Pods {

    private Pods() {}

    /**
     * One kind of pod.
     *
     * @param owner the resource that makes it, e.g. "Deployment/engram-serving"
     * @param serviceAccount its service account ("default" when none is named)
     * @param containers its containers (the main container of a Flink pod is flink-main-container)
     */
    record Pod(
            String owner,
            Map<String, String> labels,
            Map<String, String> annotations,
            String serviceAccount,
            Map<String, String> nodeSelector,
            PodSpec spec,
            List<Container> containers,
            List<Volume> volumes) {

        Container container() {
            if (containers.size() != 1) {
                throw new AssertionError(owner + " has " + containers.size() + " containers");
            }
            return containers.get(0);
        }

        boolean isFlink() {
            return owner.startsWith("FlinkDeployment/");
        }

        @Override
        public String toString() {
            return owner;
        }
    }

    static List<Pod> of(Overlay overlay) {
        List<Pod> pods = new ArrayList<>();
        for (Deployment d : overlay.all(Deployment.class)) {
            pods.add(pod("Deployment/" + d.getMetadata().getName(), d.getSpec().getTemplate()));
        }
        for (Job j : overlay.all(Job.class)) {
            pods.add(pod("Job/" + j.getMetadata().getName(), j.getSpec().getTemplate()));
        }
        for (CronJob c : overlay.all(CronJob.class)) {
            pods.add(
                    pod(
                            "CronJob/" + c.getMetadata().getName(),
                            c.getSpec().getJobTemplate().getSpec().getTemplate()));
        }
        for (FlinkDeployment f : overlay.all(FlinkDeployment.class)) {
            FlinkDeploymentSpec spec = f.getSpec();
            String name = "FlinkDeployment/" + f.getMetadata().getName();
            pods.add(
                    flinkPod(
                            name + "/jobmanager",
                            spec,
                            spec.getJobManager() == null
                                    ? null
                                    : spec.getJobManager().getPodTemplate()));
            pods.add(
                    flinkPod(
                            name + "/taskmanager",
                            spec,
                            spec.getTaskManager() == null
                                    ? null
                                    : spec.getTaskManager().getPodTemplate()));
        }
        return pods;
    }

    private static Pod pod(String owner, PodTemplateSpec template) {
        PodSpec spec = template.getSpec();
        return new Pod(
                owner,
                map(template.getMetadata() == null ? null : template.getMetadata().getLabels()),
                map(
                        template.getMetadata() == null
                                ? null
                                : template.getMetadata().getAnnotations()),
                spec.getServiceAccountName() == null ? "default" : spec.getServiceAccountName(),
                map(spec.getNodeSelector()),
                spec,
                list(spec.getContainers()),
                list(spec.getVolumes()));
    }

    /** The operator's merge: maps key by key, containers by name, lists appended. */
    private static Pod flinkPod(String owner, FlinkDeploymentSpec spec, PodTemplateSpec role) {
        PodTemplateSpec common = spec.getPodTemplate();
        ObjectMeta commonMeta = common == null ? null : common.getMetadata();
        ObjectMeta roleMeta = role == null ? null : role.getMetadata();
        PodSpec commonSpec =
                common == null || common.getSpec() == null ? new PodSpec() : common.getSpec();
        PodSpec roleSpec = role == null || role.getSpec() == null ? new PodSpec() : role.getSpec();

        Map<String, String> labels = map(commonMeta == null ? null : commonMeta.getLabels());
        labels.putAll(map(roleMeta == null ? null : roleMeta.getLabels()));
        Map<String, String> annotations =
                map(commonMeta == null ? null : commonMeta.getAnnotations());
        annotations.putAll(map(roleMeta == null ? null : roleMeta.getAnnotations()));
        Map<String, String> nodeSelector = map(commonSpec.getNodeSelector());
        nodeSelector.putAll(map(roleSpec.getNodeSelector()));

        Map<String, Container> containers = new LinkedHashMap<>();
        for (Container c : list(commonSpec.getContainers())) {
            containers.put(c.getName(), c);
        }
        for (Container c : list(roleSpec.getContainers())) {
            Container base = containers.get(c.getName());
            containers.put(c.getName(), base == null ? c : merge(base, c));
        }
        List<Volume> volumes = new ArrayList<>(list(commonSpec.getVolumes()));
        volumes.addAll(list(roleSpec.getVolumes()));
        return new Pod(
                owner,
                labels,
                annotations,
                serviceAccount(spec, owner.endsWith("/taskmanager")),
                nodeSelector,
                commonSpec,
                new ArrayList<>(containers.values()),
                volumes);
    }

    /**
     * The account Flink runs a pod of the deployment under: {@code
     * kubernetes.taskmanager.service-account} for task managers when set, else the deployment's.
     */
    private static String serviceAccount(FlinkDeploymentSpec spec, boolean taskManager) {
        String own =
                taskManager && spec.getFlinkConfiguration() != null
                        ? spec.getFlinkConfiguration().get("kubernetes.taskmanager.service-account")
                        : null;
        if (own != null) {
            return own;
        }
        return spec.getServiceAccount() == null ? "default" : spec.getServiceAccount();
    }

    private static Container merge(Container base, Container more) {
        return new ContainerBuilder(base)
                .addAllToEnv(list(more.getEnv()))
                .addAllToEnvFrom(list(more.getEnvFrom()))
                .addAllToVolumeMounts(list(more.getVolumeMounts()))
                .addAllToPorts(list(more.getPorts()))
                .build();
    }

    private static Map<String, String> map(Map<String, String> m) {
        return m == null ? new LinkedHashMap<>() : new LinkedHashMap<>(m);
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
