#!/usr/bin/env bash
# Issue 17, part 4: raw URLSession + JSONDecoder, the package's path and the full composer stack,
# end to end against nginx on 127.0.0.1 (a server none of this package's code wrote).
#
#   bash Benchmarks/nginx-comparison.sh [rounds]     # default: 3 rounds
#   NGINX_PATHS=raw,package bash Benchmarks/nginx-comparison.sh 3     # only these paths
#
# Installs Debian's nginx-light with apt-get when nginx is missing; runs it from a temporary
# prefix of its own (its own configuration, logs and pid file, on a free port of 127.0.0.1,
# one worker) serving 1,000 distinct JSON files, /products/<n>.json; builds NginxComparison in
# release mode and runs it; stops nginx on exit.
set -euo pipefail
cd "$(dirname "$0")"
rounds=${1:-3}

nginx=$(command -v nginx || true)
[ -n "$nginx" ] || [ ! -x /usr/sbin/nginx ] || nginx=/usr/sbin/nginx
if [ -z "$nginx" ]; then
    echo "Installing nginx-light (apt-get)..."
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq > /dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nginx-light > /dev/null
    nginx=/usr/sbin/nginx
fi

swift build -c release --product NginxComparison > /dev/null

prefix=$(mktemp -d)
chmod 755 "$prefix"
mkdir -p "$prefix/html/products" "$prefix/logs"
for index in $(seq 0 999); do
    printf '{"id":%d,"name":"Product %d","price":%d.5,"currency":"EUR","inStock":true}' \
        "$index" "$index" "$index" > "$prefix/html/products/$index.json"
done
chmod -R a+rX "$prefix/html"

stop() {
    if [ -f "$prefix/nginx.pid" ]; then kill "$(cat "$prefix/nginx.pid")" 2> /dev/null || true; fi
    sleep 0.2
    rm -rf "$prefix"
}
trap stop EXIT

started=""
for attempt in $(seq 1 20); do
    port=$((20000 + RANDOM % 20000))
    cat > "$prefix/nginx.conf" <<CONF
worker_processes 1;
pid $prefix/nginx.pid;
error_log $prefix/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    keepalive_timeout 60s;
    default_type application/json;
    client_body_temp_path $prefix/tmp;
    server {
        listen 127.0.0.1:$port;
        root $prefix/html;
    }
}
CONF
    if "$nginx" -p "$prefix" -c "$prefix/nginx.conf" 2> "$prefix/logs/start.log"; then
        started=yes
        break
    fi
done
if [ -z "$started" ]; then
    cat "$prefix/logs/start.log"
    echo "Could not start nginx."
    exit 1
fi
for attempt in $(seq 1 50); do
    [ -f "$prefix/nginx.pid" ] && break
    sleep 0.1
done
echo "nginx $("$nginx" -v 2>&1 | sed 's/.*nginx\///') on 127.0.0.1:$port; $rounds rounds of 1,000 requests per path and mode."
# NGINX_RUNNER, when set, runs the program under another (a profiler: "perf record -g -o run.data").
${NGINX_RUNNER:-} .build/release/NginxComparison "$port" "$rounds"
