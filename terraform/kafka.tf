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
      # TLS only, on 9094 (ENGRAM_KAFKA_SECURITY_PROTOCOL=SSL; the JVM trusts MSK's certificates).
      client_broker = "TLS"
      in_cluster    = true
    }
  }

  # Who may connect is decided by the network (private subnets, a security group that admits
  # the nodes only); Engram's clients do not authenticate to Kafka (no mTLS, SASL or IAM).
  client_authentication {
    unauthenticated = true
  }

  lifecycle {
    precondition {
      condition     = var.kafka.brokers % length(local.zones) == 0
      error_message = "kafka.brokers must be a multiple of the number of availability zones."
    }
  }
}
