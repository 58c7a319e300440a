# Encryption at rest with one customer-managed key, and security groups that let each data
# service be reached from the Kubernetes nodes only, on its own port.

resource "aws_kms_key" "data" {
  description             = "${var.name}: memories and chat turns at rest (database, index, topics, caches, checkpoints, cluster secrets)"
  enable_key_rotation     = true
  deletion_window_in_days = 30
}

resource "aws_kms_alias" "data" {
  name          = "alias/${var.name}-data"
  target_key_id = aws_kms_key.data.key_id
}

locals {
  # The data services and the ports the nodes may open to them.
  data_ports = {
    postgres   = [5432]
    opensearch = [443]
    kafka      = [9096]
    redis      = [6379]
  }
  data_rules = merge([
    for service, ports in local.data_ports : {
      for port in ports : "${service}-${port}" => { service = service, port = port }
    }
  ]...)
}

resource "aws_security_group" "data" {
  for_each    = local.data_ports
  name        = "${var.name}-${each.key}"
  description = "${var.name} ${each.key}: reachable from the Kubernetes nodes only"
  vpc_id      = aws_vpc.this.id
  tags        = { Name = "${var.name}-${each.key}" }
}

resource "aws_vpc_security_group_ingress_rule" "data_from_nodes" {
  for_each                     = local.data_rules
  security_group_id            = aws_security_group.data[each.value.service].id
  referenced_security_group_id = aws_eks_cluster.this.vpc_config[0].cluster_security_group_id
  ip_protocol                  = "tcp"
  from_port                    = each.value.port
  to_port                      = each.value.port
  description                  = "${each.value.service} from the Kubernetes nodes"
}

# Engram's passwords for Kafka and Redis, made by Secrets Manager and kept there, encrypted with
# the module's key. MSK reads SCRAM logins only from secrets whose names start with AmazonMSK_ and
# that use a customer-managed key. The random values each plan reads are in the Terraform state:
# keep the state encrypted and private.
locals {
  secrets = {
    kafka = {
      name        = "AmazonMSK_${var.name}-engram"
      description = "Engram's SCRAM login to MSK (username, password): ENGRAM_KAFKA_SASL_PASSWORD"
      length      = 48
    }
    redis = {
      name        = "${var.name}-redis-auth-token"
      description = "the AUTH token of Engram's Redis: ENGRAM_REDIS_PASSWORD"
      length      = 64
    }
  }
}

data "aws_secretsmanager_random_password" "engram" {
  for_each            = local.secrets
  password_length     = each.value.length
  exclude_punctuation = true
}

resource "aws_secretsmanager_secret" "engram" {
  for_each                = local.secrets
  name                    = each.value.name
  description             = "${var.name}: ${each.value.description}"
  kms_key_id              = aws_kms_key.data.arn
  recovery_window_in_days = 7
}
