# MSK: the engram.turns topic (and its dead-letter topic), which engram-serving prepare creates
# with kafka.replication_factor copies. The brokers take the append time as each record's
# timestamp, which the extraction job's forget relies on.

resource "aws_msk_configuration" "this" {
  name = "${var.name}-kafka"

  server_properties = <<-PROPERTIES
    auto.create.topics.enable=false
    default.replication.factor=3
    min.insync.replicas=2
    log.message.timestamp.type=LogAppendTime
    unclean.leader.election.enable=false
  PROPERTIES
}

resource "aws_msk_cluster" "this" {
  cluster_name           = var.name
  kafka_version          = var.kafka.version
  number_of_broker_nodes = var.kafka.brokers

  broker_node_group_info {
    instance_type   = var.kafka.instance_type
    client_subnets  = aws_subnet.private[*].id
    security_groups = [aws_security_group.data["kafka"].id]

    storage_info {
      ebs_storage_info {
        volume_size = var.kafka.volume_gb
      }
    }
  }

  configuration_info {
    arn      = aws_msk_configuration.this.arn
    revision = aws_msk_configuration.this.latest_revision
  }

  encryption_info {
    encryption_at_rest_kms_key_arn = aws_kms_key.data.arn

    encryption_in_transit {
      # TLS only (the JVM trusts MSK's certificates).
      client_broker = "TLS"
      in_cluster    = true
    }
  }

  # Every client logs in with SCRAM-SHA-512 over TLS, on 9096 (ENGRAM_KAFKA_SECURITY_PROTOCOL=
  # SASL_SSL); none is admitted without a login.
  client_authentication {
    unauthenticated = false

    sasl {
      scram = true
    }
  }

  lifecycle {
    precondition {
      condition     = var.kafka.brokers % length(local.zones) == 0
      error_message = "kafka.brokers must be a multiple of the number of availability zones."
    }
  }
}

# Engram's Kafka login, in the secret local.secrets.kafka (security.tf). The secret is written
# when kafka.password_version changes (write-only), not on every apply, although each plan reads a
# new random value. Bump kafka.password_version to write a new password; the pods read it at start.

resource "aws_secretsmanager_secret_version" "kafka" {
  secret_id = aws_secretsmanager_secret.engram["kafka"].id
  secret_string_wo = jsonencode({
    username = local.kafka_user
    password = data.aws_secretsmanager_random_password.engram["kafka"].random_password
  })
  secret_string_wo_version = var.kafka.password_version
}

resource "aws_msk_single_scram_secret_association" "engram" {
  cluster_arn = aws_msk_cluster.this.arn
  secret_arn  = aws_secretsmanager_secret.engram["kafka"].arn

  depends_on = [aws_secretsmanager_secret_version.kafka]
}

locals {
  kafka_user = "engram"
}
