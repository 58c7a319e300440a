#!/usr/bin/env bash
# Writes engram.env and terraform.env beside this script from `terraform output -json` on standard
# input. The argument names the Secrets Manager secret of ENGRAM_BOOTSTRAP_KEY (created by hand).
#   terraform -chdir=terraform output -json | infra/k8s/overlays/aws/from-terraform.sh engram-prod/bootstrap-key
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: terraform output -json | $0 BOOTSTRAP_KEY_SECRET_NAME" >&2
  exit 2
fi
dir="$(cd "$(dirname "$0")" && pwd)"
outputs="$(cat)"
jq -r '.engram_environment.value | to_entries[] | "\(.key)=\(.value)"' <<<"$outputs" >"$dir/engram.env"
{
  jq -r '(["postgres_password_secret_arn", "kafka_password_secret_arn", "redis_password_secret_arn"][] as $k
            | "\($k)=\(.[$k].value)"),
         (.flink_configuration.value | to_entries[] | "\(.key)=\(.value)")' <<<"$outputs"
  echo "bootstrap_key_secret=$1"
} >"$dir/terraform.env"
