package io.engram.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.engram.config.ConfigKeys;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.kubernetes.operator.api.FlinkDeployment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The NetworkPolicies, evaluated for the pods the overlay makes: everything is denied unless
 * admitted; the API and metrics are reachable, the Flink pods reach each other on the ports their
 * configuration fixes and admit the operator; every pod reaches DNS and every data service the
 * settings name, on its port; and nothing else gets through.
 */
class NetworkPoliciesTest {

    static final List<String> OVERLAYS = Overlay.NAMES;

    static final String NAMESPACE = "engram";
    static final Policies.Peer OUTSIDE = Policies.Peer.address("203.0.113.10");
    static final Policies.Peer PROMETHEUS =
            Policies.Peer.pod("monitoring", Map.of("app.kubernetes.io/name", "prometheus"));
    static final Policies.Peer OPERATOR =
            Policies.Peer.pod(
                    "flink-operator",
                    Map.of("app.kubernetes.io/name", "flink-kubernetes-operator"));
    static final Policies.Peer DNS =
            Policies.Peer.pod("kube-system", Map.of("k8s-app", "kube-dns"));

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }

    /** The internet (S3, an LLM endpoint) is for serving and Flink; the jobs reach the VPC only. */
    @org.junit.jupiter.api.Test
    void onlyServingAndFlinkReachHttpsOutsideTheVpc() {
        Overlay overlay = Overlay.of("aws");
        List<NetworkPolicy> policies = overlay.all(NetworkPolicy.class);
        Policies.Peer internet = Policies.Peer.address("52.95.110.1");
        for (Pods.Pod pod : Pods.of(overlay)) {
            boolean needs =
                    pod.owner().equals("Deployment/engram-serving")
                            || pod.owner().startsWith("FlinkDeployment/");
            assertThat(Policies.mayReach(policies, peer(pod), internet, "TCP", 443))
                    .as("%s reaches HTTPS outside the VPC", pod)
                    .isEqualTo(needs);
        }
    }

    private static Policies.Peer peer(Pods.Pod pod) {
        return Policies.Peer.pod(NAMESPACE, pod.labels());
    }

    private static Pods.Pod pod(List<Pods.Pod> pods, String owner) {
        return pods.stream().filter(p -> p.owner().equals(owner)).findFirst().orElseThrow();
    }

    private static int flinkPort(Overlay overlay, String key) {
        Map<String, String> conf =
                overlay.one(FlinkDeployment.class, "engram-extraction")
                        .getSpec()
                        .getFlinkConfiguration();
        assertThat(conf).as("flinkConfiguration fixes %s", key).containsKey(key);
        int port = Integer.parseInt(conf.get(key));
        assertThat(port).as("%s is a fixed port", key).isPositive();
        return port;
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everythingIsDeniedUnlessAdmittedAndEveryPolicySelectsPods(String name) {
        Overlay overlay = Overlay.of(name);
        List<NetworkPolicy> policies = overlay.all(NetworkPolicy.class);
        assertThat(policies)
                .as("a policy isolating every pod in both directions, admitting nothing")
                .anySatisfy(
                        p -> {
                            assertThat(p.getSpec().getPodSelector().getMatchLabels())
                                    .isNullOrEmpty();
                            assertThat(p.getSpec().getPodSelector().getMatchExpressions())
                                    .isNullOrEmpty();
                            assertThat(p.getSpec().getPolicyTypes())
                                    .containsExactlyInAnyOrder("Ingress", "Egress");
                            assertThat(p.getSpec().getIngress()).isNullOrEmpty();
                            assertThat(p.getSpec().getEgress()).isNullOrEmpty();
                        });
        List<Pods.Pod> pods = Pods.of(overlay);
        for (NetworkPolicy p : policies) {
            assertThat(pods)
                    .as("policy %s selects a pod", p.getMetadata().getName())
                    .anyMatch(pod -> Policies.selects(p.getSpec().getPodSelector(), pod.labels()));
            List<NetworkPolicyPeer> peers = new ArrayList<>();
            for (NetworkPolicyIngressRule r : orEmpty(p.getSpec().getIngress())) {
                peers.addAll(orEmpty(r.getFrom()));
            }
            for (NetworkPolicyEgressRule r : orEmpty(p.getSpec().getEgress())) {
                peers.addAll(orEmpty(r.getTo()));
            }
            for (NetworkPolicyPeer peer : peers) {
                if (peer.getPodSelector() != null && peer.getNamespaceSelector() == null) {
                    assertThat(pods)
                            .as(
                                    "a peer of policy %s selects a pod of the namespace",
                                    p.getMetadata().getName())
                            .anyMatch(pod -> Policies.selects(peer.getPodSelector(), pod.labels()));
                }
            }
        }
        for (Pods.Pod pod : pods) {
            assertThat(Policies.admits(policies, peer(pod), OUTSIDE, "TCP", 22))
                    .as("%s admits port 22 from outside", pod)
                    .isFalse();
            assertThat(Policies.mayReach(policies, peer(pod), OUTSIDE, "TCP", 22))
                    .as("%s reaches port 22 outside", pod)
                    .isFalse();
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theApiAndTheMetricsAreReachableAndTheJobsAdmitNothing(String name) {
        Overlay overlay = Overlay.of(name);
        List<NetworkPolicy> policies = overlay.all(NetworkPolicy.class);
        List<Pods.Pod> pods = Pods.of(overlay);
        Pods.Pod serving = pod(pods, "Deployment/engram-serving");
        int port = ServingTest.serving(overlay).getPorts().get(0).getContainerPort();
        assertThat(Policies.admits(policies, peer(serving), OUTSIDE, "TCP", port)).isTrue();
        assertThat(Policies.admits(policies, peer(serving), PROMETHEUS, "TCP", port)).isTrue();
        assertThat(Policies.admits(policies, peer(serving), OUTSIDE, "TCP", port + 1)).isFalse();
        for (Pods.Pod pod : pods) {
            String scrape = pod.annotations().get("prometheus.io/port");
            if (scrape != null) {
                assertThat(
                                Policies.admits(
                                        policies,
                                        peer(pod),
                                        PROMETHEUS,
                                        "TCP",
                                        Integer.parseInt(scrape)))
                        .as("Prometheus scrapes %s on %s", pod, scrape)
                        .isTrue();
            }
            if (pod.owner().startsWith("Job/") || pod.owner().startsWith("CronJob/")) {
                for (Policies.Peer from : List.of(OUTSIDE, PROMETHEUS, peer(serving))) {
                    assertThat(Policies.admits(policies, peer(pod), from, "TCP", port))
                            .as("%s admits %s", pod, from)
                            .isFalse();
                }
            }
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theFlinkPodsReachEachOtherOnTheirConfiguredPortsAndAdmitTheOperator(String name) {
        Overlay overlay = Overlay.of(name);
        List<NetworkPolicy> policies = overlay.all(NetworkPolicy.class);
        List<Pods.Pod> pods = Pods.of(overlay);
        Policies.Peer jm = peer(pod(pods, "FlinkDeployment/engram-extraction/jobmanager"));
        Policies.Peer tm = peer(pod(pods, "FlinkDeployment/engram-extraction/taskmanager"));
        Policies.Peer serving = peer(pod(pods, "Deployment/engram-serving"));
        int rpc = flinkPort(overlay, "jobmanager.rpc.port");
        assertThat(flinkPort(overlay, "high-availability.jobmanager.port")).isEqualTo(rpc);
        int blob = flinkPort(overlay, "blob.server.port");
        int rest = flinkPort(overlay, "rest.port");
        int tmRpc = flinkPort(overlay, "taskmanager.rpc.port");
        int data = flinkPort(overlay, "taskmanager.data.port");
        int metrics = flinkPort(overlay, "metrics.reporter.prom.port");

        for (int port : List.of(rpc, blob)) {
            assertThat(Policies.mayReach(policies, tm, jm, "TCP", port))
                    .as("TM → JM %d", port)
                    .isTrue();
            assertThat(Policies.admits(policies, jm, tm, "TCP", port))
                    .as("JM admits TM %d", port)
                    .isTrue();
            assertThat(Policies.admits(policies, jm, serving, "TCP", port)).isFalse();
        }
        assertThat(Policies.mayReach(policies, jm, tm, "TCP", tmRpc)).as("JM → TM rpc").isTrue();
        assertThat(Policies.admits(policies, tm, jm, "TCP", tmRpc)).as("TM admits JM rpc").isTrue();
        assertThat(Policies.mayReach(policies, tm, tm, "TCP", data)).as("TM → TM data").isTrue();
        assertThat(Policies.admits(policies, tm, tm, "TCP", data)).as("TM admits TM data").isTrue();
        assertThat(Policies.admits(policies, tm, serving, "TCP", data)).isFalse();
        // Nothing more than that between them: task managers call neither the JobManager's REST
        // API nor each other's RPC port.
        assertThat(Policies.admits(policies, jm, tm, "TCP", rest))
                .as("JM admits TM REST")
                .isFalse();
        assertThat(Policies.mayReach(policies, tm, jm, "TCP", rest)).as("TM → JM REST").isFalse();
        assertThat(Policies.admits(policies, tm, tm, "TCP", tmRpc))
                .as("TM admits TM rpc")
                .isFalse();
        assertThat(Policies.admits(policies, jm, OPERATOR, "TCP", rest))
                .as("operator → JM REST")
                .isTrue();
        assertThat(Policies.admits(policies, jm, OUTSIDE, "TCP", rest)).isFalse();
        for (Policies.Peer flink : List.of(jm, tm)) {
            assertThat(Policies.admits(policies, flink, PROMETHEUS, "TCP", metrics)).isTrue();
        }
        // The JobManager and task managers talk to the Kubernetes API (pods, HA ConfigMaps).
        Policies.Peer api =
                name.equals("aws")
                        ? Policies.Peer.address(
                                Policies.hostIn(Sources.variableDefault("vpc_cidr"), 200))
                        : Policies.Peer.address("172.18.0.2");
        int apiPort = name.equals("aws") ? 443 : 6443;
        for (Policies.Peer flink : List.of(jm, tm)) {
            assertThat(Policies.mayReach(policies, flink, api, "TCP", apiPort))
                    .as("Flink pod → Kubernetes API %s:%d", api, apiPort)
                    .isTrue();
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyPodReachesDnsAndEveryDataServiceTheSettingsName(String name) {
        Overlay overlay = Overlay.of(name);
        List<NetworkPolicy> policies = overlay.all(NetworkPolicy.class);
        List<Endpoint> endpoints = endpoints(overlay.settings());
        for (Pods.Pod pod : Pods.of(overlay)) {
            for (String protocol : List.of("UDP", "TCP")) {
                assertThat(Policies.mayReach(policies, peer(pod), DNS, protocol, 53))
                        .as("%s → DNS %s", pod, protocol)
                        .isTrue();
            }
            for (Endpoint e : endpoints) {
                assertThat(Policies.mayReach(policies, peer(pod), e.peer(), "TCP", e.port()))
                        .as("%s → %s", pod, e)
                        .isTrue();
                assertThat(Policies.mayReach(policies, peer(pod), e.peer(), "TCP", 22))
                        .as("%s → %s port 22", pod, e.host())
                        .isFalse();
            }
            if (name.equals("aws")) {
                assertThat(
                                Policies.mayReach(
                                        policies,
                                        peer(pod),
                                        Policies.Peer.address("169.254.170.23"),
                                        "TCP",
                                        80))
                        .as("%s → EKS Pod Identity agent", pod)
                        .isTrue();
            } else {
                assertThat(
                                Policies.mayReach(
                                        policies,
                                        peer(pod),
                                        Policies.Peer.pod("default", Map.of()),
                                        "TCP",
                                        5432))
                        .as("%s → another namespace", pod)
                        .isFalse();
            }
        }
        if (name.equals("aws")) {
            for (Pods.Pod pod : Pods.of(overlay)) {
                if (pod.isFlink()) {
                    assertThat(
                                    Policies.mayReach(
                                            policies,
                                            peer(pod),
                                            Policies.Peer.address("52.218.0.10"),
                                            "TCP",
                                            443))
                            .as("%s → S3 (checkpoints)", pod)
                            .isTrue();
                }
            }
        }
    }

    /** A data service the settings name. */
    record Endpoint(String setting, String host, int port, Policies.Peer peer) {
        @Override
        public String toString() {
            return setting + " " + host + ":" + port;
        }
    }

    private static final Pattern SERVICE_DNS =
            Pattern.compile("[a-z0-9-]+\\.([a-z0-9-]+)\\.svc(\\.cluster\\.local)?");

    /**
     * The hosts and ports of the services: a Service's DNS name is a pod of its namespace, any
     * other name an address in the Terraform module's VPC (where RDS, MSK, ElastiCache and
     * OpenSearch are).
     */
    static List<Endpoint> endpoints(Map<String, String> settings) {
        List<Endpoint> endpoints = new ArrayList<>();
        URI postgres =
                URI.create(settings.get(ConfigKeys.POSTGRES_URL.env()).substring("jdbc:".length()));
        endpoints.add(endpoint(ConfigKeys.POSTGRES_URL.env(), postgres, 5432));
        for (String broker : settings.get(ConfigKeys.KAFKA_BOOTSTRAP_SERVERS.env()).split(",")) {
            endpoints.add(
                    endpoint(
                            ConfigKeys.KAFKA_BOOTSTRAP_SERVERS.env(),
                            URI.create("kafka://" + broker.trim()),
                            -1));
        }
        URI openSearch = URI.create(settings.get(ConfigKeys.OPENSEARCH_URL.env()));
        endpoints.add(
                endpoint(
                        ConfigKeys.OPENSEARCH_URL.env(),
                        openSearch,
                        openSearch.getScheme().equals("https") ? 443 : 80));
        endpoints.add(
                endpoint(
                        ConfigKeys.REDIS_URL.env(),
                        URI.create(settings.get(ConfigKeys.REDIS_URL.env())),
                        6379));
        return endpoints;
    }

    private static Endpoint endpoint(String setting, URI uri, int defaultPort) {
        int port = uri.getPort() == -1 ? defaultPort : uri.getPort();
        assertThat(port).as("port of %s", setting).isPositive();
        Matcher m = SERVICE_DNS.matcher(uri.getHost());
        Policies.Peer peer =
                m.matches()
                        ? Policies.Peer.pod(m.group(1), Map.of())
                        : Policies.Peer.address(
                                Policies.hostIn(Sources.variableDefault("vpc_cidr"), 100));
        return new Endpoint(setting, uri.getHost(), port, peer);
    }
}
