variable "name" {
  description = "Name of this deployment; prefixes every resource (lower case letters, digits, dashes)."
  type        = string
  default     = "engram"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{1,18}[a-z0-9]$", var.name))
    error_message = "name must be 3-20 characters: lower case letters, digits and dashes, starting with a letter and not ending with a dash."
  }
}

variable "region" {
  description = "AWS region."
  type        = string
  default     = "eu-west-1"
}

variable "availability_zones" {
  description = "Availability zones to spread over (2 or 3); every data service keeps a copy in each."
  type        = list(string)
  default     = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]

  validation {
    condition     = length(var.availability_zones) >= 2 && length(var.availability_zones) <= 3 && length(distinct(var.availability_zones)) == length(var.availability_zones)
    error_message = "availability_zones must name 2 or 3 distinct zones."
  }
}

variable "vpc_cidr" {
  description = "Address range of the VPC; cut into a public and a private /20 per zone."
  type        = string
  default     = "10.40.0.0/16"

  validation {
    condition     = can(cidrhost(var.vpc_cidr, 0)) && tonumber(split("/", var.vpc_cidr)[1]) <= 16
    error_message = "vpc_cidr must be an IPv4 range of /16 or larger."
  }
}

variable "nat_gateway_per_zone" {
  description = "One NAT gateway per zone (a zone outage does not cut the others off), or one shared."
  type        = bool
  default     = true
}

variable "tags" {
  description = "Tags added to every resource."
  type        = map(string)
  default     = {}
}

variable "deletion_protection" {
  description = "Refuse to delete the database (RDS deletion protection, final snapshot) and keep the checkpoint bucket unless it is empty."
  type        = bool
  default     = true
}

# --- Kubernetes (the serving tier and the Flink jobs) ---

variable "kubernetes_version" {
  description = "EKS Kubernetes version."
  type        = string
  default     = "1.33"
}

variable "api_allowed_cidrs" {
  description = "Ranges allowed to reach the Kubernetes API from outside the VPC; empty: private endpoint only."
  type        = list(string)
  default     = []
}

variable "node_groups" {
  description = "Managed node groups: 'serving' (embedding a query is CPU work: compute-optimised) and 'flink' (the job and task managers; extraction embeds every fact)."
  type = map(object({
    instance_types = list(string)
    min            = number
    desired        = number
    max            = number
  }))
  default = {
    serving = {
      instance_types = ["c7i.xlarge"]
      min            = 2
      desired        = 3
      max            = 12
    }
    flink = {
      instance_types = ["c7i.2xlarge"]
      min            = 2
      desired        = 2
      max            = 10
    }
  }

  validation {
    condition     = alltrue([for g in ["serving", "flink"] : contains(keys(var.node_groups), g)])
    error_message = "node_groups needs a 'serving' and a 'flink' group."
  }

  validation {
    condition     = alltrue([for g in values(var.node_groups) : g.min >= 1 && g.min <= g.desired && g.desired <= g.max])
    error_message = "every node group needs 1 <= min <= desired <= max."
  }
}

variable "kubernetes_namespace" {
  description = "Namespace the serving tier and the Flink jobs run in."
  type        = string
  default     = "engram"
}

variable "serving_service_account" {
  description = "Kubernetes service account of the serving pods (and the prepare Job); it may call OpenSearch."
  type        = string
  default     = "engram-serving"
}

variable "flink_service_account" {
  description = "Kubernetes service account of the Flink JobManager and the maintenance jobs; it gets access to the checkpoint bucket and may call OpenSearch."
  type        = string
  default     = "engram-flink"
}

variable "flink_taskmanager_service_account" {
  description = "Kubernetes service account of the Flink task managers; the same AWS access as the JobManager's, less Kubernetes access."
  type        = string
  default     = "engram-flink-taskmanager"
}

# --- PostgreSQL (the truth) ---

variable "external_secrets_namespace" {
  description = "Namespace of the External Secrets Operator (its Helm chart's default)."
  type        = string
  default     = "external-secrets"
}

variable "external_secrets_service_account" {
  description = "Service account of the External Secrets controller: gets a role that may read Engram's secrets."
  type        = string
  default     = "external-secrets"
}

variable "postgres" {
  description = "RDS PostgreSQL: the schema migrations are tested on major version 15."
  type = object({
    engine_version        = string
    instance_class        = string
    allocated_storage_gb  = number
    max_storage_gb        = number
    multi_az              = bool
    backup_retention_days = number
  })
  default = {
    engine_version        = "15"
    instance_class        = "db.r7g.large"
    allocated_storage_gb  = 100
    max_storage_gb        = 1000
    multi_az              = true
    backup_retention_days = 14
  }

  validation {
    condition     = var.postgres.allocated_storage_gb >= 20 && var.postgres.max_storage_gb >= var.postgres.allocated_storage_gb
    error_message = "postgres needs allocated_storage_gb >= 20 and max_storage_gb >= allocated_storage_gb."
  }

  validation {
    condition     = var.postgres.backup_retention_days >= 1 && var.postgres.backup_retention_days <= 35
    error_message = "postgres.backup_retention_days must be 1-35 (RDS' range; 0 would turn backups off)."
  }
}

variable "postgres_ca_bundle_path" {
  description = "Where the pods find the RDS CA bundle (PEM, https://truststore.pki.rds.amazonaws.com/global/global-bundle.pem): set, Engram checks the database's certificate and name (sslmode=verify-full); empty, the connection is encrypted without that check (sslmode=require)."
  type        = string
  default     = ""

  validation {
    condition     = var.postgres_ca_bundle_path == "" || startswith(var.postgres_ca_bundle_path, "/")
    error_message = "postgres_ca_bundle_path must be an absolute path inside the pods, or empty."
  }
}

# --- OpenSearch (vectors + BM25) ---

variable "opensearch" {
  description = "OpenSearch domain with the k-NN plugin; the index is built for engine version 2.19."
  type = object({
    engine_version   = string
    instance_type    = string
    instance_count   = number
    volume_gb        = number
    dedicated_master = bool
  })
  default = {
    engine_version   = "OpenSearch_2.19"
    instance_type    = "r7g.large.search"
    instance_count   = 3
    volume_gb        = 100
    dedicated_master = false
  }

  validation {
    condition     = startswith(var.opensearch.engine_version, "OpenSearch_2.")
    error_message = "opensearch.engine_version must be an OpenSearch 2.x version such as OpenSearch_2.19."
  }
}

# --- Kafka (chat turns) ---

variable "kafka" {
  description = "MSK cluster of the engram.turns topic; brokers are a multiple of the zones. Raising password_version writes a new Kafka password (restart the pods after)."
  type = object({
    version          = string
    instance_type    = string
    brokers          = number
    volume_gb        = number
    password_version = optional(number, 1)
  })
  default = {
    version       = "3.9.x"
    instance_type = "kafka.m7g.large"
    brokers       = 3
    volume_gb     = 500
  }
}

# --- Redis (caches, rate limits) ---

variable "redis" {
  description = "ElastiCache Redis: a primary and its replicas, one per zone at most."
  type = object({
    engine_version = string
    node_type      = string
    replicas       = number
  })
  default = {
    engine_version = "7.1"
    node_type      = "cache.r7g.large"
    replicas       = 1
  }

  validation {
    condition     = var.redis.replicas >= 0 && var.redis.replicas <= 5
    error_message = "redis.replicas must be 0-5."
  }
}
