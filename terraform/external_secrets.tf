# The External Secrets controller (infra/k8s) copies the database, Kafka and Redis passwords and the
# bootstrap key into the Secret Engram's pods read. Its role, given through EKS Pod Identity like
# Engram's own, may read those secrets and decrypt them with the module's key, nothing else.
data "aws_caller_identity" "current" {}

data "aws_partition" "current" {}

resource "aws_iam_role" "external_secrets" {
  name               = "${var.name}-external-secrets"
  assume_role_policy = data.aws_iam_policy_document.assume["pods"].json
}

data "aws_iam_policy_document" "external_secrets" {
  statement {
    actions = ["secretsmanager:GetSecretValue", "secretsmanager:DescribeSecret"]
    # The database secret is RDS's own, null where the instance does not say it.
    resources = [for arn in [
      local.postgres_secret_arn,
      aws_secretsmanager_secret.engram["kafka"].arn,
      aws_secretsmanager_secret.engram["redis"].arn,
      # Made by hand (infra/k8s/README.md); Secrets Manager appends six characters to the name.
      "arn:${data.aws_partition.current.partition}:secretsmanager:${var.region}:${data.aws_caller_identity.current.account_id}:secret:${var.name}/bootstrap-key-??????",
    ] : arn if arn != null]
  }
  statement {
    actions   = ["kms:Decrypt"]
    resources = [aws_kms_key.data.arn]
    # Only to read those secrets through Secrets Manager, not to decrypt anything else.
    condition {
      test     = "StringEquals"
      variable = "kms:ViaService"
      values   = ["secretsmanager.${var.region}.amazonaws.com"]
    }
  }
}

resource "aws_iam_role_policy" "external_secrets" {
  name   = "engram-secrets"
  role   = aws_iam_role.external_secrets.id
  policy = data.aws_iam_policy_document.external_secrets.json
}

resource "aws_eks_pod_identity_association" "external_secrets" {
  cluster_name    = aws_eks_cluster.this.name
  namespace       = var.external_secrets_namespace
  service_account = var.external_secrets_service_account
  role_arn        = aws_iam_role.external_secrets.arn
}
