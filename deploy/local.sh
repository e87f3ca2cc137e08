#!/usr/bin/env bash
# The scale-out topology on this machine, without containers: three storedb processes, each
# with its own data directory, behind Debian's nginx with deploy/nginx.conf. Runs in the
# foreground; Ctrl-C (or SIGTERM) stops nginx and drains every instance.
#
#   deploy/local.sh [base-dir]       default base-dir: ./scale-out
#
# Environment:
#   PROXY_PORT      the proxy's port (default 8080)
#   INSTANCE_PORTS  the instances' ports, space-separated (default "3001 3002 3003")
#   STOREDB_CMD     how to start one instance (default: node dist/cli.js serve, after npm run build)
#   STORE_*         passed to every instance (STORE_API_KEY, STORE_LOG_LEVEL, ...)
#
# Layout under base-dir: data-<n>/ (instance n's data directory), instance-<n>.log,
# nginx/ (nginx's prefix: nginx.conf, the generated upstreams.conf, its log and temp files).
# Once everything answers it prints one line per instance, "instance <n> pid <pid> port
# <port> data <dir>", then "ready <proxy url>".
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
base="$(mkdir -p "${1:-scale-out}" && cd "${1:-scale-out}" && pwd)"
proxy_port="${PROXY_PORT:-8080}"
read -r -a ports <<< "${INSTANCE_PORTS:-3001 3002 3003}"
storedb_cmd="${STOREDB_CMD:-node $here/../dist/cli.js serve}"
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
for port in "${ports[@]}"; do
  [ "$port" != "$proxy_port" ] || { echo "local.sh: the proxy and an instance cannot share port $port" >&2; exit 1; }
done
[ -x "$nginx_bin" ] || { echo "local.sh: nginx is not installed (Debian: apt-get install nginx)" >&2; exit 1; }

pids=()
stop() {
  trap - INT TERM EXIT
  [ -n "${nginx_pid:-}" ] && kill "$nginx_pid" 2>/dev/null || true
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop EXIT
trap 'stop; exit 0' INT TERM

# The instances.
for i in "${!ports[@]}"; do
  n=$((i + 1))
  mkdir -p "$base/data-$n"
  STORE_DATA_PATH="$base/data-$n" STORE_PORT="${ports[$i]}" STORE_BIND_ADDRESS=127.0.0.1 \
    $storedb_cmd > "$base/instance-$n.log" 2>&1 &
  pids+=($!)
done

# nginx.conf and the upstreams of these instances, in nginx's own prefix.
mkdir -p "$base/nginx/tmp"
sed "s/listen 8080;/listen 127.0.0.1:$proxy_port;/" "$here/nginx.conf" > "$base/nginx/nginx.conf"
{
  echo "# Written by deploy/local.sh for the instances it started."
  echo "upstream storedb_databases {"
  echo "  hash \$storedb_database consistent;"
  for port in "${ports[@]}"; do echo "  server 127.0.0.1:$port max_fails=0;"; done
  echo "  keepalive 32;"
  echo "}"
  echo "upstream storedb_any {"
  for port in "${ports[@]}"; do echo "  server 127.0.0.1:$port;"; done
  echo "  keepalive 8;"
  echo "}"
  for i in "${!ports[@]}"; do echo "upstream storedb_$((i + 1)) { server 127.0.0.1:${ports[$i]} max_fails=0; }"; done
} > "$base/nginx/upstreams.conf"

# Wait for every instance, then start nginx.
for i in "${!ports[@]}"; do
  for _ in $(seq 1 100); do
    if node -e "fetch('http://127.0.0.1:${ports[$i]}/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; then break; fi
    kill -0 "${pids[$i]}" 2>/dev/null || { echo "local.sh: instance $((i + 1)) exited:" >&2; cat "$base/instance-$((i + 1)).log" >&2; exit 1; }
    sleep 0.1
  done
done
"$nginx_bin" -p "$base/nginx" -c nginx.conf -g 'daemon off;' > "$base/nginx/access.log" 2> "$base/nginx/error.log" &
nginx_pid=$!
for _ in $(seq 1 100); do
  if node -e "fetch('http://127.0.0.1:$proxy_port/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; then break; fi
  kill -0 "$nginx_pid" 2>/dev/null || { echo "local.sh: nginx exited:" >&2; cat "$base/nginx/error.log" >&2; exit 1; }
  sleep 0.1
done
# Something else may answer on the port (nginx then fails to bind): nginx must still run.
sleep 0.2
kill -0 "$nginx_pid" 2>/dev/null || { echo "local.sh: nginx exited:" >&2; cat "$base/nginx/error.log" >&2; exit 1; }

for i in "${!ports[@]}"; do echo "instance $((i + 1)) pid ${pids[$i]} port ${ports[$i]} data $base/data-$((i + 1))"; done
echo "ready http://127.0.0.1:$proxy_port"
wait "$nginx_pid"
