#!/usr/bin/env bash
# Installs and configures podman for the container test (test/container/), as root, idempotently.
# Why this configuration: these CI machines run no Docker engine; Debian's podman builds and runs
# the image, but crun (its default runtime) refuses the hybrid cgroups here, while runc with the
# cgroupfs manager works, and podman's default ulimits are not permitted (see /work/shared/CONTAINERS.md).
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
  echo "ci-podman.sh: run as root (it installs packages and writes /etc/containers)" >&2
  exit 1
fi

if ! command -v podman >/dev/null 2>&1 || ! command -v runc >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y podman runc
fi

mkdir -p /etc/containers
conf='[containers]
default_ulimits = []
[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
runtime = "runc"'
if [ "$(cat /etc/containers/containers.conf 2>/dev/null)" != "$conf" ]; then
  printf '%s\n' "$conf" > /etc/containers/containers.conf
fi

podman --version
