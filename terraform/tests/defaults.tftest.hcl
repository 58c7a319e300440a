# Plans and applies the module against a mocked AWS provider (no account, no network): the
# defaults are what a production deployment should get, the outputs are what Engram's
# configuration accepts, and bad sizes are refused before anything is created.

mock_provider "aws" {
  # The provider still checks what it is given: policies must be JSON, keys and roles ARNs.
  mock_data "aws_iam_policy_document" {
    defaults = {
      json = "{\"Version\":\"2012-10-17\",\"Statement\":[]}"
    }
  }
  # Stands for the password Secrets Manager would make (ElastiCache checks a token's form).
  mock_data "aws_secretsmanager_random_password" {
    defaults = {
      random_password = "mockTokenmockTokenmockTokenmockTokenmockTokenmockTokenmockToken12"
    }
  }
  mock_resource "aws_kms_key" {
    defaults = {
      arn    = "arn:aws:kms:eu-west-1:111122223333:key/0b9a7c3e-0000-4000-8000-000000000001"
      key_id = "0b9a7c3e-0000-4000-8000-000000000001"
    }
  }
  mock_resource "aws_iam_role" {
    defaults = {
      arn = "arn:aws:iam::111122223333:role/engram-mock"
    }
  }
  mock_resource "aws_msk_configuration" {
    defaults = {
      arn             = "arn:aws:kafka:eu-west-1:111122223333:configuration/engram-kafka/0b9a7c3e"
      latest_revision = 1
    }
  }
  mock_resource "aws_msk_cluster" {
    defaults = {
      arn = "arn:aws:kafka:eu-west-1:111122223333:cluster/engram/0b9a7c3e-0000-4000-8000-000000000002-1"
    }
  }
  mock_resource "aws_secretsmanager_secret" {
    defaults = {
      arn = "arn:aws:secretsmanager:eu-west-1:111122223333:secret:engram-mock-AbCdEf"
    }
  }
  mock_resource "aws_s3_bucket" {
    defaults = {
      arn = "arn:aws:s3:::engram-flink-mock"
    }
  }
}

run "defaults_keep_data_private_and_encrypted" {
  command = plan

  assert {
    condition     = length(aws_subnet.private) == 3 && length(aws_nat_gateway.this) == 3
    error_message = "three zones, each with its own private subnet and NAT gateway"
  }
  assert {
    condition     = alltrue([for s in aws_subnet.public : !s.map_public_ip_on_launch])
    error_message = "nothing launched in a public subnet gets a public address"
  }
  assert {
    condition     = !aws_eks_cluster.this.vpc_config[0].endpoint_public_access
    error_message = "the Kubernetes API is private unless api_allowed_cidrs names who may reach it"
  }
  assert {
    condition = (
      length(aws_vpc_security_group_ingress_rule.data_from_nodes) == 4 &&
      alltrue([for r in aws_vpc_security_group_ingress_rule.data_from_nodes : r.cidr_ipv4 == null && r.cidr_ipv6 == null])
    )
    error_message = "each data service admits the Kubernetes nodes' security group only, on its own ports"
  }
  assert {
    condition = (
      !aws_db_instance.postgres.publicly_accessible &&
      aws_db_instance.postgres.storage_encrypted &&
      aws_db_instance.postgres.multi_az &&
      aws_db_instance.postgres.deletion_protection &&
      !aws_db_instance.postgres.skip_final_snapshot &&
      aws_db_instance.postgres.manage_master_user_password &&
      aws_db_instance.postgres.engine_version == "15"
    )
    error_message = "PostgreSQL 15, private, encrypted, in two zones, protected, password kept by RDS"
  }
  assert {
    condition = (
      aws_opensearch_domain.this.engine_version == "OpenSearch_2.19" &&
      aws_opensearch_domain.this.encrypt_at_rest[0].enabled &&
      aws_opensearch_domain.this.node_to_node_encryption[0].enabled &&
      aws_opensearch_domain.this.domain_endpoint_options[0].enforce_https &&
      aws_opensearch_domain.this.cluster_config[0].zone_awareness_config[0].availability_zone_count == 3
    )
    error_message = "OpenSearch 2.19 in three zones, encrypted at rest and between nodes, HTTPS only"
  }
  assert {
    condition = (
      strcontains(aws_msk_configuration.this.server_properties, "log.message.timestamp.type=LogAppendTime") &&
      strcontains(aws_msk_configuration.this.server_properties, "min.insync.replicas=2") &&
      aws_msk_cluster.this.encryption_info[0].encryption_in_transit[0].in_cluster &&
      aws_msk_cluster.this.encryption_info[0].encryption_in_transit[0].client_broker == "TLS"
    )
    error_message = "Kafka stamps records with the append time (the job's forget relies on it), acknowledges two copies and speaks TLS only"
  }
  assert {
    condition     = toset([for r in aws_vpc_security_group_ingress_rule.data_from_nodes : r.to_port if startswith(r.description, "kafka")]) == toset([9096])
    error_message = "the nodes reach Kafka on its SCRAM listener only"
  }
  assert {
    condition = (
      one([for p in aws_elasticache_parameter_group.redis.parameter : p.value if p.name == "maxmemory-policy"]) == "volatile-lru" &&
      aws_elasticache_replication_group.redis.at_rest_encryption_enabled &&
      aws_elasticache_replication_group.redis.transit_encryption_enabled &&
      aws_elasticache_replication_group.redis.automatic_failover_enabled
    )
    error_message = "Redis never evicts the cache generations (no TTL), is encrypted at rest and in transit, and fails over"
  }
  assert {
    condition = (
      aws_s3_bucket_public_access_block.checkpoints.block_public_acls &&
      aws_s3_bucket_public_access_block.checkpoints.block_public_policy &&
      aws_s3_bucket_public_access_block.checkpoints.restrict_public_buckets &&
      !aws_s3_bucket.checkpoints.force_destroy
    )
    error_message = "the checkpoint bucket is never public and is not emptied by a destroy"
  }
  assert {
    condition     = aws_eks_pod_identity_association.flink.service_account == "engram-flink" && aws_eks_pod_identity_association.flink.namespace == "engram"
    error_message = "only the Flink pods' service account gets the checkpoint bucket"
  }
  assert {
    condition     = aws_eks_pod_identity_association.flink_taskmanager.service_account == "engram-flink-taskmanager" && aws_eks_pod_identity_association.flink_taskmanager.namespace == "engram"
    error_message = "the Flink task managers get the Flink role through an account of their own"
  }
  assert {
    condition     = aws_eks_pod_identity_association.serving.service_account == "engram-serving" && aws_eks_pod_identity_association.serving.namespace == "engram"
    error_message = "the serving pods' service account gets a role of its own"
  }
  assert {
    condition     = toset(keys(aws_eks_node_group.this)) == toset(["serving", "flink"])
    error_message = "one node group for the serving tier, one for Flink"
  }
  assert {
    condition     = toset(keys(aws_eks_addon.before_nodes)) == toset(["vpc-cni", "kube-proxy", "eks-pod-identity-agent"]) && aws_eks_addon.coredns.addon_name == "coredns"
    error_message = "the CNI, kube-proxy and the pod identity agent are installed (before the nodes), DNS too"
  }
}

run "every_client_logs_in" {
  command = apply

  assert {
    condition = (
      !aws_msk_cluster.this.client_authentication[0].unauthenticated &&
      aws_msk_cluster.this.client_authentication[0].sasl[0].scram &&
      startswith(aws_secretsmanager_secret.engram["kafka"].name, "AmazonMSK_") &&
      aws_secretsmanager_secret.engram["kafka"].kms_key_id == aws_kms_key.data.arn &&
      aws_secretsmanager_secret_version.kafka.secret_string_wo_version == 1 &&
      aws_msk_single_scram_secret_association.engram.secret_arn == aws_secretsmanager_secret.engram["kafka"].arn
    )
    error_message = "Kafka admits SCRAM logins only; Engram's is in a customer-key secret MSK can read (AmazonMSK_ prefix), written once"
  }
  assert {
    condition = (
      data.aws_secretsmanager_random_password.engram["redis"].password_length == 64 &&
      aws_elasticache_replication_group.redis.auth_token == data.aws_secretsmanager_random_password.engram["redis"].random_password &&
      aws_secretsmanager_secret_version.redis.secret_string == aws_elasticache_replication_group.redis.auth_token &&
      aws_secretsmanager_secret.engram["redis"].kms_key_id == aws_kms_key.data.arn
    )
    error_message = "Redis wants an AUTH token, the one kept in the customer-key secret"
  }
}

run "opensearch_admits_the_engram_pods_roles_only" {
  command = apply

  assert {
    condition = (
      aws_eks_pod_identity_association.external_secrets.service_account == "external-secrets" &&
      aws_eks_pod_identity_association.external_secrets.namespace == "external-secrets" &&
      alltrue([for st in data.aws_iam_policy_document.external_secrets.statement : alltrue([for a in st.actions : contains(["secretsmanager:GetSecretValue", "secretsmanager:DescribeSecret", "kms:Decrypt"], a)])]) &&
      toset(flatten([for st in data.aws_iam_policy_document.external_secrets.statement : st.resources])) ==
      toset(concat([for a in [output.postgres_password_secret_arn] : a if a != null], [
        aws_secretsmanager_secret.engram["kafka"].arn,
        aws_secretsmanager_secret.engram["redis"].arn,
        one([for r in flatten([for st in data.aws_iam_policy_document.external_secrets.statement : st.resources]) : r if endswith(r, ":secret:engram/bootstrap-key-??????")]),
        aws_kms_key.data.arn,
      ])) &&
      alltrue([for st in data.aws_iam_policy_document.external_secrets.statement : alltrue([for c in st.condition : c.variable == "kms:ViaService"]) && (contains(st.actions, "kms:Decrypt") ? length(st.condition) == 1 : true)])
    )
    error_message = "the External Secrets controller may read Engram's secrets and decrypt them, nothing else"
  }

  assert {
    condition = (
      toset(flatten([for st in data.aws_iam_policy_document.opensearch_access.statement : [for p in st.principals : p.identifiers]])) ==
      toset([aws_iam_role.serving.arn, aws_iam_role.flink.arn]) &&
      output.engram_environment.ENGRAM_OPENSEARCH_AUTH == "aws-sigv4" &&
      output.engram_environment.ENGRAM_OPENSEARCH_AWS_REGION == "eu-west-1"
    )
    error_message = "the domain admits the serving and Flink roles, not any principal, and Engram signs its requests"
  }
}

run "outputs_are_what_engram_reads" {
  command = apply

  assert {
    condition = (
      startswith(output.engram_environment.ENGRAM_POSTGRES_URL, "jdbc:postgresql://") &&
      endswith(output.engram_environment.ENGRAM_POSTGRES_URL, "/engram?sslmode=require") &&
      startswith(output.engram_environment.ENGRAM_OPENSEARCH_URL, "https://") &&
      startswith(output.engram_environment.ENGRAM_REDIS_URL, "rediss://") &&
      endswith(output.engram_environment.ENGRAM_REDIS_URL, ":6379") &&
      output.engram_environment.ENGRAM_KAFKA_REPLICATION_FACTOR == "3" &&
      output.engram_environment.ENGRAM_KAFKA_SECURITY_PROTOCOL == "SASL_SSL" &&
      output.engram_environment.ENGRAM_KAFKA_SASL_MECHANISM == "SCRAM-SHA-512" &&
      output.engram_environment.ENGRAM_KAFKA_SASL_USERNAME == "engram" &&
      output.engram_environment.ENGRAM_POSTGRES_USER == "engram"
    )
    error_message = "the ENGRAM_* settings have the forms Engram's configuration accepts"
  }
  assert {
    condition     = alltrue([for k, v in output.engram_environment : startswith(k, "ENGRAM_") && !strcontains(lower(k), "password")])
    error_message = "the settings output holds ENGRAM_* variables and no password"
  }
  assert {
    condition     = alltrue([for v in values(output.engram_environment) : !strcontains(v, aws_elasticache_replication_group.redis.auth_token)])
    error_message = "the settings output does not hold the Redis token either"
  }
  assert {
    condition     = output.kafka_password_secret_arn == aws_secretsmanager_secret.engram["kafka"].arn && output.redis_password_secret_arn == aws_secretsmanager_secret.engram["redis"].arn
    error_message = "the outputs name the secrets of the Kafka and Redis passwords"
  }
  assert {
    condition     = startswith(output.flink_configuration["execution.checkpointing.dir"], "s3://")
    error_message = "checkpoints go to the bucket"
  }
}

run "with_the_rds_ca_bundle_engram_checks_the_database_certificate" {
  command = apply

  variables {
    postgres_ca_bundle_path = "/etc/engram/rds-global-bundle.pem"
  }

  assert {
    condition     = endswith(output.engram_environment.ENGRAM_POSTGRES_URL, "/engram?sslmode=verify-full&sslrootcert=/etc/engram/rds-global-bundle.pem")
    error_message = "with a CA bundle the URL asks for verify-full against it"
  }
}

run "two_zones_and_one_nat_gateway" {
  command = plan

  variables {
    availability_zones   = ["eu-west-1a", "eu-west-1b"]
    nat_gateway_per_zone = false
    opensearch = {
      engine_version   = "OpenSearch_2.19"
      instance_type    = "r7g.large.search"
      instance_count   = 2
      volume_gb        = 50
      dedicated_master = false
    }
    kafka = {
      version       = "3.9.x"
      instance_type = "kafka.m7g.large"
      brokers       = 2
      volume_gb     = 100
    }
    api_allowed_cidrs = ["203.0.113.0/24"]
  }

  assert {
    condition     = length(aws_subnet.private) == 2 && length(aws_nat_gateway.this) == 1 && length(aws_route.private_nat) == 2
    error_message = "two zones share one NAT gateway"
  }
  assert {
    condition     = aws_eks_cluster.this.vpc_config[0].endpoint_public_access && contains(aws_eks_cluster.this.vpc_config[0].public_access_cidrs, "203.0.113.0/24")
    error_message = "the Kubernetes API is reachable from the named ranges only"
  }
}

run "opensearch_nodes_must_cover_every_zone" {
  command = plan

  variables {
    opensearch = {
      engine_version   = "OpenSearch_2.19"
      instance_type    = "r7g.large.search"
      instance_count   = 4
      volume_gb        = 100
      dedicated_master = false
    }
  }

  expect_failures = [aws_opensearch_domain.this]
}

run "kafka_brokers_must_cover_every_zone" {
  command = plan

  variables {
    kafka = {
      version       = "3.9.x"
      instance_type = "kafka.m7g.large"
      brokers       = 4
      volume_gb     = 100
    }
  }

  expect_failures = [aws_msk_cluster.this]
}

run "a_bad_name_is_refused" {
  command = plan

  variables {
    name = "Engram_Prod"
  }

  expect_failures = [var.name]
}

run "both_node_groups_are_required" {
  command = plan

  variables {
    node_groups = {
      serving = { instance_types = ["c7i.xlarge"], min = 2, desired = 3, max = 12 }
    }
  }

  expect_failures = [var.node_groups]
}

run "an_opensearch_1_engine_is_refused" {
  command = plan

  variables {
    opensearch = {
      engine_version   = "Elasticsearch_7.10"
      instance_type    = "r7g.large.search"
      instance_count   = 3
      volume_gb        = 100
      dedicated_master = false
    }
  }

  expect_failures = [var.opensearch]
}
