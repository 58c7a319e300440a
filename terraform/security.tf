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
    kafka      = [9094]
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
