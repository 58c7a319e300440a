locals {
  # RDS for PostgreSQL 15 refuses connections without TLS (rds.force_ssl defaults to 1).
  postgres_tls = var.postgres_ca_bundle_path == "" ? "sslmode=require" : "sslmode=verify-full&sslrootcert=${var.postgres_ca_bundle_path}"

  postgres_secret_arn = one(aws_db_instance.postgres.master_user_secret[*].secret_arn)

  # What engram-serving and the Flink jobs read (ENGRAM_* variables); none of it is secret. The
  # passwords come from the secrets the *_secret_arn outputs name: ENGRAM_POSTGRES_PASSWORD,
  # ENGRAM_KAFKA_SASL_PASSWORD and ENGRAM_REDIS_PASSWORD.
  engram_environment = {
    ENGRAM_POSTGRES_URL             = "jdbc:postgresql://${aws_db_instance.postgres.address}:${aws_db_instance.postgres.port}/${aws_db_instance.postgres.db_name}?${local.postgres_tls}"
    ENGRAM_POSTGRES_USER            = aws_db_instance.postgres.username
    ENGRAM_KAFKA_BOOTSTRAP_SERVERS  = aws_msk_cluster.this.bootstrap_brokers_sasl_scram
    ENGRAM_KAFKA_SECURITY_PROTOCOL  = "SASL_SSL"
    ENGRAM_KAFKA_SASL_MECHANISM     = "SCRAM-SHA-512"
    ENGRAM_KAFKA_SASL_USERNAME      = local.kafka_user
    ENGRAM_KAFKA_REPLICATION_FACTOR = tostring(min(3, var.kafka.brokers))
    ENGRAM_KAFKA_PARTITIONS         = tostring(max(12, 4 * var.kafka.brokers))
    ENGRAM_OPENSEARCH_URL           = "https://${aws_opensearch_domain.this.endpoint}"
    ENGRAM_OPENSEARCH_AUTH          = "aws-sigv4"
    ENGRAM_OPENSEARCH_AWS_REGION    = var.region
    ENGRAM_OPENSEARCH_SHARDS        = tostring(var.opensearch.instance_count)
    ENGRAM_OPENSEARCH_REPLICAS      = "1"
    ENGRAM_REDIS_URL                = "rediss://${aws_elasticache_replication_group.redis.primary_endpoint_address}:6379"
  }
}

output "engram_environment" {
  description = "ENGRAM_* settings of engram-serving and the Flink jobs (put them in a ConfigMap)."
  value       = local.engram_environment
}

output "postgres_password_secret_arn" {
  description = "Secrets Manager secret (JSON with 'username' and 'password') of the database user: ENGRAM_POSTGRES_PASSWORD."
  value       = local.postgres_secret_arn
}

output "kafka_password_secret_arn" {
  description = "Secrets Manager secret (JSON with 'username' and 'password') of Engram's Kafka login: ENGRAM_KAFKA_SASL_PASSWORD."
  value       = aws_secretsmanager_secret.engram["kafka"].arn
}

output "redis_password_secret_arn" {
  description = "Secrets Manager secret (the token as plain text) of Redis's AUTH token: ENGRAM_REDIS_PASSWORD."
  value       = aws_secretsmanager_secret.engram["redis"].arn
}

output "flink_configuration" {
  description = "Flink settings for the FlinkDeployment: where checkpoints and savepoints go (needs Flink's S3 file system plugin)."
  value = {
    "execution.checkpointing.dir"           = "s3://${aws_s3_bucket.checkpoints.bucket}/checkpoints"
    "execution.checkpointing.savepoint-dir" = "s3://${aws_s3_bucket.checkpoints.bucket}/savepoints"
  }
}

output "kubernetes" {
  description = "The cluster, where the pods go, and the command that points kubectl at it."
  value = {
    cluster                           = aws_eks_cluster.this.name
    endpoint                          = aws_eks_cluster.this.endpoint
    namespace                         = var.kubernetes_namespace
    serving_service_account           = var.serving_service_account
    flink_service_account             = var.flink_service_account
    flink_taskmanager_service_account = var.flink_taskmanager_service_account
    node_selector_key                 = "engram.io/role"
    kubeconfig_command                = "aws eks update-kubeconfig --region ${var.region} --name ${aws_eks_cluster.this.name}"
  }
}
