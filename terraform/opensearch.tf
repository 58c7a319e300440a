# OpenSearch: the k-NN (lucene HNSW, cosine) and BM25 index of every memory, behind the alias
# engram-memories-<embedding version>. The domain lives in the private subnets; its security group
# admits the Kubernetes nodes only, and the domain policy admits the IAM roles of the serving and
# Flink pods only: Engram signs every request (ENGRAM_OPENSEARCH_AUTH=aws-sigv4) with the
# credentials EKS Pod Identity gives each pod.

resource "aws_opensearch_domain" "this" {
  domain_name    = var.name
  engine_version = var.opensearch.engine_version

  cluster_config {
    instance_type            = var.opensearch.instance_type
    instance_count           = var.opensearch.instance_count
    zone_awareness_enabled   = true
    dedicated_master_enabled = var.opensearch.dedicated_master
    dedicated_master_type    = var.opensearch.dedicated_master ? var.opensearch.instance_type : null
    dedicated_master_count   = var.opensearch.dedicated_master ? 3 : null

    zone_awareness_config {
      availability_zone_count = length(local.zones)
    }
  }

  ebs_options {
    ebs_enabled = true
    volume_type = "gp3"
    volume_size = var.opensearch.volume_gb
  }

  vpc_options {
    subnet_ids         = aws_subnet.private[*].id
    security_group_ids = [aws_security_group.data["opensearch"].id]
  }

  encrypt_at_rest {
    enabled    = true
    kms_key_id = aws_kms_key.data.key_id
  }

  node_to_node_encryption {
    enabled = true
  }

  domain_endpoint_options {
    enforce_https       = true
    tls_security_policy = "Policy-Min-TLS-1-2-2019-07"
  }

  advanced_options = {
    # Bulk and msearch name the index in each line.
    "rest.action.multi.allow_explicit_index" = "true"
  }

  lifecycle {
    precondition {
      condition     = var.opensearch.instance_count % length(local.zones) == 0
      error_message = "opensearch.instance_count must be a multiple of the number of availability zones, so every zone holds a copy."
    }
  }
}

data "aws_iam_policy_document" "opensearch_access" {
  statement {
    actions   = ["es:ESHttp*"]
    resources = ["${aws_opensearch_domain.this.arn}/*"]
    principals {
      type        = "AWS"
      identifiers = [aws_iam_role.serving.arn, aws_iam_role.flink.arn]
    }
  }
}

# The serving pods' role: OpenSearch (above) and nothing else. The Flink pods' role is in
# checkpoints.tf.
resource "aws_iam_role" "serving" {
  name               = "${var.name}-serving"
  assume_role_policy = data.aws_iam_policy_document.assume["pods"].json
}

resource "aws_eks_pod_identity_association" "serving" {
  cluster_name    = aws_eks_cluster.this.name
  namespace       = var.kubernetes_namespace
  service_account = var.serving_service_account
  role_arn        = aws_iam_role.serving.arn
}

resource "aws_opensearch_domain_policy" "this" {
  domain_name     = aws_opensearch_domain.this.domain_name
  access_policies = data.aws_iam_policy_document.opensearch_access.json
}
