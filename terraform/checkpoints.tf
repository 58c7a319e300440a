# Flink's checkpoints and savepoints: the streaming job's windows, dedup state and Kafka offsets.
# Only the Flink pods' service account may use the bucket (EKS Pod Identity).

resource "aws_s3_bucket" "checkpoints" {
  bucket_prefix = "${var.name}-flink-"
  force_destroy = !var.deletion_protection
}

resource "aws_s3_bucket_public_access_block" "checkpoints" {
  bucket                  = aws_s3_bucket.checkpoints.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_ownership_controls" "checkpoints" {
  bucket = aws_s3_bucket.checkpoints.id
  rule {
    object_ownership = "BucketOwnerEnforced"
  }
}

resource "aws_s3_bucket_server_side_encryption_configuration" "checkpoints" {
  bucket = aws_s3_bucket.checkpoints.id
  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm     = "aws:kms"
      kms_master_key_id = aws_kms_key.data.arn
    }
    bucket_key_enabled = true
  }
}

resource "aws_s3_bucket_lifecycle_configuration" "checkpoints" {
  bucket = aws_s3_bucket.checkpoints.id

  # Flink deletes the checkpoints it no longer needs; uploads a crash cut short are not.
  rule {
    id     = "abandoned-uploads"
    status = "Enabled"
    filter {}
    abort_incomplete_multipart_upload {
      days_after_initiation = 2
    }
  }
}

data "aws_iam_policy_document" "checkpoints_tls_only" {
  statement {
    sid     = "DenyWithoutTls"
    effect  = "Deny"
    actions = ["s3:*"]
    principals {
      type        = "*"
      identifiers = ["*"]
    }
    resources = [aws_s3_bucket.checkpoints.arn, "${aws_s3_bucket.checkpoints.arn}/*"]
    condition {
      test     = "Bool"
      variable = "aws:SecureTransport"
      values   = ["false"]
    }
  }
}

resource "aws_s3_bucket_policy" "checkpoints" {
  bucket = aws_s3_bucket.checkpoints.id
  policy = data.aws_iam_policy_document.checkpoints_tls_only.json

  depends_on = [aws_s3_bucket_public_access_block.checkpoints]
}

resource "aws_iam_role" "flink" {
  name               = "${var.name}-flink"
  assume_role_policy = data.aws_iam_policy_document.assume["pods"].json
}

data "aws_iam_policy_document" "flink_checkpoints" {
  statement {
    actions   = ["s3:ListBucket", "s3:GetBucketLocation"]
    resources = [aws_s3_bucket.checkpoints.arn]
  }
  statement {
    actions   = ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload"]
    resources = ["${aws_s3_bucket.checkpoints.arn}/*"]
  }
  statement {
    actions   = ["kms:Decrypt", "kms:GenerateDataKey"]
    resources = [aws_kms_key.data.arn]
  }
}

resource "aws_iam_role_policy" "flink_checkpoints" {
  name   = "checkpoints"
  role   = aws_iam_role.flink.id
  policy = data.aws_iam_policy_document.flink_checkpoints.json
}

resource "aws_eks_pod_identity_association" "flink" {
  cluster_name    = aws_eks_cluster.this.name
  namespace       = var.kubernetes_namespace
  service_account = var.flink_service_account
  role_arn        = aws_iam_role.flink.arn
}

resource "aws_eks_pod_identity_association" "flink_taskmanager" {
  cluster_name    = aws_eks_cluster.this.name
  namespace       = var.kubernetes_namespace
  service_account = var.flink_taskmanager_service_account
  role_arn        = aws_iam_role.flink.arn
}
