package io.engram.k8s;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.networking.v1.IPBlock;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.util.List;
import java.util.Map;

/**
 * NetworkPolicy semantics, as the Kubernetes documentation states them, for the checks: a pod
 * selected by a policy of a direction is isolated in it and admits only what one of the rules of
 * the policies selecting it admits; rules with no ports admit every port, with no peers every peer.
 */
final class Policies {

    private Policies() {}

    /** One end of a connection: a pod (in a namespace, with labels) or an address. */
    record Peer(String namespace, Map<String, String> podLabels, String ip) {

        static Peer pod(String namespace, Map<String, String> labels) {
            return new Peer(namespace, labels, null);
        }

        static Peer address(String ip) {
            return new Peer(null, Map.of(), ip);
        }

        @Override
        public String toString() {
            return ip != null ? ip : namespace + "/" + podLabels;
        }
    }

    /** Whether a label selector selects the labels (an empty selector selects everything). */
    static boolean selects(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return false;
        }
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
        }
        for (LabelSelectorRequirement r :
                selector.getMatchExpressions() == null
                        ? List.<LabelSelectorRequirement>of()
                        : selector.getMatchExpressions()) {
            String value = labels.get(r.getKey());
            boolean ok =
                    switch (r.getOperator()) {
                        case "In" -> value != null && r.getValues().contains(value);
                        case "NotIn" -> value == null || !r.getValues().contains(value);
                        case "Exists" -> value != null;
                        case "DoesNotExist" -> value == null;
                        default -> throw new AssertionError("operator " + r.getOperator());
                    };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code to} (a pod of the namespace) admits {@code from} on a TCP or UDP port. */
    static boolean admits(
            List<NetworkPolicy> policies, Peer to, Peer from, String protocol, int port) {
        return allowed(policies, to, from, protocol, port, true);
    }

    /** Whether {@code from} (a pod of the namespace) may open a connection to {@code to}. */
    static boolean mayReach(
            List<NetworkPolicy> policies, Peer from, Peer to, String protocol, int port) {
        return allowed(policies, from, to, protocol, port, false);
    }

    private static boolean allowed(
            List<NetworkPolicy> policies,
            Peer subject,
            Peer other,
            String protocol,
            int port,
            boolean ingress) {
        String type = ingress ? "Ingress" : "Egress";
        boolean isolated = false;
        for (NetworkPolicy p : policies) {
            if (!p.getMetadata().getNamespace().equals(subject.namespace())
                    || !selects(p.getSpec().getPodSelector(), subject.podLabels())
                    || !types(p).contains(type)) {
                continue;
            }
            isolated = true;
            List<?> rules = ingress ? p.getSpec().getIngress() : p.getSpec().getEgress();
            for (Object rule : rules == null ? List.of() : rules) {
                List<NetworkPolicyPort> ports;
                List<NetworkPolicyPeer> peers;
                if (rule instanceof NetworkPolicyIngressRule in) {
                    ports = in.getPorts();
                    peers = in.getFrom();
                } else {
                    var out = (NetworkPolicyEgressRule) rule;
                    ports = out.getPorts();
                    peers = out.getTo();
                }
                if (portMatches(ports, protocol, port)
                        && peerMatches(peers, other, p.getMetadata().getNamespace())) {
                    return true;
                }
            }
        }
        return !isolated;
    }

    /** The directions a policy isolates (policyTypes, or what its rules imply). */
    static List<String> types(NetworkPolicy p) {
        if (p.getSpec().getPolicyTypes() != null && !p.getSpec().getPolicyTypes().isEmpty()) {
            return p.getSpec().getPolicyTypes();
        }
        return p.getSpec().getEgress() == null || p.getSpec().getEgress().isEmpty()
                ? List.of("Ingress")
                : List.of("Ingress", "Egress");
    }

    private static boolean portMatches(List<NetworkPolicyPort> ports, String protocol, int port) {
        if (ports == null || ports.isEmpty()) {
            return true;
        }
        for (NetworkPolicyPort p : ports) {
            String proto = p.getProtocol() == null ? "TCP" : p.getProtocol();
            if (!proto.equals(protocol)) {
                continue;
            }
            if (p.getPort() == null) {
                return true;
            }
            if (p.getPort().getIntVal() == null) {
                throw new AssertionError("named port " + p.getPort().getStrVal() + ": use numbers");
            }
            int first = p.getPort().getIntVal();
            int last = p.getEndPort() == null ? first : p.getEndPort();
            if (port >= first && port <= last) {
                return true;
            }
        }
        return false;
    }

    private static boolean peerMatches(
            List<NetworkPolicyPeer> peers, Peer other, String namespace) {
        if (peers == null || peers.isEmpty()) {
            return true;
        }
        for (NetworkPolicyPeer p : peers) {
            if (p.getIpBlock() != null) {
                if (other.ip() != null && inBlock(p.getIpBlock(), other.ip())) {
                    return true;
                }
                continue;
            }
            if (other.namespace() == null) {
                continue;
            }
            boolean namespaceOk =
                    p.getNamespaceSelector() == null
                            ? other.namespace().equals(namespace)
                            : selects(
                                    p.getNamespaceSelector(),
                                    Map.of("kubernetes.io/metadata.name", other.namespace()));
            boolean podOk =
                    p.getPodSelector() == null || selects(p.getPodSelector(), other.podLabels());
            if (namespaceOk && podOk) {
                return true;
            }
        }
        return false;
    }

    static boolean inBlock(IPBlock block, String ip) {
        if (!inCidr(block.getCidr(), ip)) {
            return false;
        }
        for (String except : block.getExcept() == null ? List.<String>of() : block.getExcept()) {
            if (inCidr(except, ip)) {
                return false;
            }
        }
        return true;
    }

    static boolean inCidr(String cidr, String ip) {
        String[] parts = cidr.split("/");
        int bits = Integer.parseInt(parts[1]);
        long mask = bits == 0 ? 0 : (0xFFFFFFFFL << (32 - bits)) & 0xFFFFFFFFL;
        return (address(parts[0]) & mask) == (address(ip) & mask);
    }

    static long address(String ip) {
        String[] octets = ip.split("\\.");
        if (octets.length != 4) {
            throw new AssertionError("not an IPv4 address: " + ip);
        }
        long value = 0;
        for (String o : octets) {
            value = (value << 8) | Integer.parseInt(o);
        }
        return value;
    }

    /** The address {@code offset} places after the start of a range, e.g. a host in the VPC. */
    static String hostIn(String cidr, int offset) {
        long a = address(cidr.split("/")[0]) + offset;
        return ((a >> 24) & 255)
                + "."
                + ((a >> 16) & 255)
                + "."
                + ((a >> 8) & 255)
                + "."
                + (a & 255);
    }
}
