# The Kubernetes cluster both planes run on: the serving tier as a Deployment, the Flink jobs
# under the Flink Kubernetes operator. Two managed node groups keep the latency-bound serving pods
# away from the throughput-bound task managers.

# Who may assume each role: the EKS control plane, the nodes, and pods through EKS Pod Identity.
locals {
  role_principals = {
    cluster = "eks.amazonaws.com"
    node    = "ec2.amazonaws.com"
    pods    = "pods.eks.amazonaws.com"
  }
}

data "aws_iam_policy_document" "assume" {
  for_each = local.role_principals
  statement {
    # Pod Identity and EKS tag their sessions; EC2 does not ask to.
    actions = each.key == "node" ? ["sts:AssumeRole"] : ["sts:AssumeRole", "sts:TagSession"]
    principals {
      type        = "Service"
      identifiers = [each.value]
    }
  }
}

resource "aws_iam_role" "cluster" {
  name               = "${var.name}-eks-cluster"
  assume_role_policy = data.aws_iam_policy_document.assume["cluster"].json
}

resource "aws_iam_role_policy_attachment" "cluster" {
  role       = aws_iam_role.cluster.name
  policy_arn = "arn:aws:iam::aws:policy/AmazonEKSClusterPolicy"
}

resource "aws_eks_cluster" "this" {
  name                          = var.name
  version                       = var.kubernetes_version
  role_arn                      = aws_iam_role.cluster.arn
  bootstrap_self_managed_addons = false

  access_config {
    authentication_mode                         = "API"
    bootstrap_cluster_creator_admin_permissions = true
  }

  vpc_config {
    subnet_ids              = aws_subnet.private[*].id
    endpoint_private_access = true
    endpoint_public_access  = length(var.api_allowed_cidrs) > 0
    public_access_cidrs     = length(var.api_allowed_cidrs) > 0 ? var.api_allowed_cidrs : null
  }

  encryption_config {
    resources = ["secrets"]
    provider {
      key_arn = aws_kms_key.data.arn
    }
  }

  enabled_cluster_log_types = ["api", "audit", "authenticator"]

  depends_on = [aws_iam_role_policy_attachment.cluster]
}

resource "aws_iam_role" "node" {
  name               = "${var.name}-eks-node"
  assume_role_policy = data.aws_iam_policy_document.assume["node"].json
}

resource "aws_iam_role_policy_attachment" "node" {
  for_each = toset([
    "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy",
    "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy",
    "arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly",
  ])
  role       = aws_iam_role.node.name
  policy_arn = each.value
}

resource "aws_eks_node_group" "this" {
  for_each        = var.node_groups
  cluster_name    = aws_eks_cluster.this.name
  node_group_name = each.key
  node_role_arn   = aws_iam_role.node.arn
  subnet_ids      = aws_subnet.private[*].id
  instance_types  = each.value.instance_types
  ami_type        = "AL2023_x86_64_STANDARD"
  capacity_type   = "ON_DEMAND"

  scaling_config {
    min_size     = each.value.min
    desired_size = each.value.desired
    max_size     = each.value.max
  }

  update_config {
    max_unavailable = 1
  }

  # Pods choose their group with a node selector on this label.
  labels = { "engram.io/role" = each.key }

  lifecycle {
    # The cluster autoscaler moves the size between min and max.
    ignore_changes = [scaling_config[0].desired_size]
  }

  depends_on = [aws_iam_role_policy_attachment.node, aws_eks_addon.before_nodes]
}

# The cluster is created without the default add-ons: networking and pod identity go in before
# the nodes (a node without the CNI never becomes ready), DNS after them (it needs nodes to run on).
resource "aws_eks_addon" "before_nodes" {
  for_each                    = toset(["vpc-cni", "kube-proxy", "eks-pod-identity-agent"])
  cluster_name                = aws_eks_cluster.this.name
  addon_name                  = each.key
  resolve_conflicts_on_update = "OVERWRITE"
  # The CNI enforces NetworkPolicies (infra/k8s admits only what each component talks to) only
  # when asked to.
  configuration_values = each.key == "vpc-cni" ? jsonencode({ enableNetworkPolicy = "true" }) : null
}

resource "aws_eks_addon" "coredns" {
  cluster_name                = aws_eks_cluster.this.name
  addon_name                  = "coredns"
  resolve_conflicts_on_update = "OVERWRITE"

  depends_on = [aws_eks_node_group.this]
}
