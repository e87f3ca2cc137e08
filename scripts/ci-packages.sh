#!/usr/bin/env bash
# Installs the Debian packages the test suite drives, as root, only when missing:
# - nginx: the proxy of the scale-out topology (deploy/local.sh, test/deploy/scale-out.test.ts);
# - python3-prometheus-client: the Prometheus project's text-format parser that reads /metrics
#   in test/server/metrics.test.ts (test/support/prometheus-text.ts).
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
  echo "ci-packages.sh: run as root (it installs packages)" >&2
  exit 1
fi

missing=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
/usr/bin/python3 -c 'import prometheus_client' >/dev/null 2>&1 || missing+=(python3-prometheus-client)
if [ "${#missing[@]}" -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
fi
