# PostgreSQL, the truth: memories, their versions, events, API keys, maintenance runs. The master
# password is generated and kept by RDS in Secrets Manager; nothing secret is in the state.

resource "aws_db_subnet_group" "postgres" {
  name       = "${var.name}-postgres"
  subnet_ids = aws_subnet.private[*].id
}

resource "aws_db_parameter_group" "postgres" {
  name   = "${var.name}-postgres${var.postgres.engine_version}"
  family = "postgres${split(".", var.postgres.engine_version)[0]}"

  # Statements slower than this are logged: recall hydrates take well under a millisecond.
  parameter {
    name  = "log_min_duration_statement"
    value = "250"
  }

  # Recall bookkeeping updates the same rows all day; vacuum them sooner than the default 20%.
  parameter {
    name  = "autovacuum_vacuum_scale_factor"
    value = "0.05"
  }

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_db_instance" "postgres" {
  identifier     = "${var.name}-postgres"
  engine         = "postgres"
  engine_version = var.postgres.engine_version
  instance_class = var.postgres.instance_class

  db_name                       = "engram"
  username                      = "engram"
  manage_master_user_password   = true
  master_user_secret_kms_key_id = aws_kms_key.data.key_id

  allocated_storage     = var.postgres.allocated_storage_gb
  max_allocated_storage = var.postgres.max_storage_gb
  storage_type          = "gp3"
  storage_encrypted     = true
  kms_key_id            = aws_kms_key.data.arn

  multi_az               = var.postgres.multi_az
  db_subnet_group_name   = aws_db_subnet_group.postgres.name
  vpc_security_group_ids = [aws_security_group.data["postgres"].id]
  publicly_accessible    = false
  parameter_group_name   = aws_db_parameter_group.postgres.name

  backup_retention_period         = var.postgres.backup_retention_days
  backup_window                   = "02:00-03:00"
  maintenance_window              = "sun:03:30-sun:04:30"
  copy_tags_to_snapshot           = true
  deletion_protection             = var.deletion_protection
  skip_final_snapshot             = !var.deletion_protection
  final_snapshot_identifier       = "${var.name}-postgres-final"
  auto_minor_version_upgrade      = true
  performance_insights_enabled    = true
  performance_insights_kms_key_id = aws_kms_key.data.arn
  enabled_cloudwatch_logs_exports = ["postgresql"]
}
