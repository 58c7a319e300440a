# Redis: recall answers cached for 5 minutes and each user's cache generation. The answers expire;
# the generations do not, and must outlive the answers cached against them, so when memory is
# short Redis evicts only keys that expire (volatile-lru).

resource "aws_elasticache_subnet_group" "redis" {
  name       = "${var.name}-redis"
  subnet_ids = aws_subnet.private[*].id
}

resource "aws_elasticache_parameter_group" "redis" {
  name   = "${var.name}-redis${split(".", var.redis.engine_version)[0]}"
  family = "redis${split(".", var.redis.engine_version)[0]}"

  parameter {
    name  = "maxmemory-policy"
    value = "volatile-lru"
  }
}

resource "aws_elasticache_replication_group" "redis" {
  replication_group_id = "${var.name}-redis"
  description          = "${var.name}: Engram caches and rate limits"
  engine               = "redis"
  engine_version       = var.redis.engine_version
  node_type            = var.redis.node_type
  port                 = 6379
  num_cache_clusters   = 1 + var.redis.replicas
  parameter_group_name = aws_elasticache_parameter_group.redis.name
  subnet_group_name    = aws_elasticache_subnet_group.redis.name
  security_group_ids   = [aws_security_group.data["redis"].id]

  automatic_failover_enabled = var.redis.replicas > 0
  multi_az_enabled           = var.redis.replicas > 0
  at_rest_encryption_enabled = true
  kms_key_id                 = aws_kms_key.data.arn
  # TLS only (rediss://; the JVM trusts ElastiCache's certificates and checks the name), and
  # no command without the AUTH token (ENGRAM_REDIS_PASSWORD).
  transit_encryption_enabled = true
  auth_token                 = data.aws_secretsmanager_random_password.engram["redis"].random_password

  snapshot_retention_limit   = 1
  auto_minor_version_upgrade = true
  apply_immediately          = false

  lifecycle {
    # The token is made once, with the group (see below).
    ignore_changes = [auth_token]
  }
}

# The AUTH token, in the secret local.secrets.redis (security.tf). ElastiCache takes it only as a
# plain argument, so it is in the Terraform state. The group and the secret are given the same
# value in the apply that creates them; later plans, which read a new random value, change neither
# (ignore_changes).

resource "aws_secretsmanager_secret_version" "redis" {
  secret_id     = aws_secretsmanager_secret.engram["redis"].id
  secret_string = data.aws_secretsmanager_random_password.engram["redis"].random_password

  lifecycle {
    ignore_changes = [secret_string]
  }
}
