#!/usr/bin/env bash
# HTTPS (and HTTP/2) in front of LoopbackServer, for the TLS step of .ci/run only.
#
#   bash .ci/tls-setup.sh up     # prints: export FUNCTIONAL_NETWORKING_TLS=https://127.0.0.1:A,https://127.0.0.1:B
#   bash .ci/tls-setup.sh down   # stops nginx, takes the CA out of the trust store, removes the files
#
# This changes the machine: it installs nginx-light and openssl with apt-get when they are
# missing, and puts a throwaway CA into the system trust store (/usr/local/share/ca-certificates
# and update-ca-certificates, without its update.d hooks, so that the CA reaches /etc/ssl/certs
# and nothing else, such as Java's keystore), which libcurl, and so FoundationNetworking's
# URLSession, reads through /etc/ssl/certs/ca-certificates.crt (checked with strace: the CA
# makes the difference between "SSL certificate problem: unable to get local issuer
# certificate" and a 200). So it must run as root, and only from .ci/run (CI runs as root),
# which calls `down` from a trap, whatever happens. `swift test` never runs it: without
# FUNCTIONAL_NETWORKING_TLS the TLS suite is skipped.
#
# `up` is idempotent: it first undoes what an earlier `up` left (the state is named in
# /run/functional-networking-tls), then makes, in a new temporary directory, a CA and a
# certificate for 127.0.0.1 (IP SAN) and localhost (DNS SAN) signed by it, valid for two days,
# and starts nginx with a configuration of its own (its own pid file, logs and temporary
# files; no system nginx configuration is read or changed) listening with TLS and HTTP/2 on two
# ports of 127.0.0.1: two origins. On both, /to/<port>/<path> is proxied to
# http://127.0.0.1:<port>/<path> (a LoopbackServer), the request target byte for byte;
# `Host` is the LoopbackServer's own authority, as if the client had called it directly, and
# the client's authority goes along as X-Forwarded-Host; Location headers naming the
# LoopbackServer (absolute or as a path) come back as https URLs on the origin that was asked;
# Authorization, Cookie and every other header pass unchanged; bodies stream both ways
# (no buffering) and may be of any size. Every response carries X-Served-Protocol
# (HTTP/2.0 or HTTP/1.1: what the client spoke to nginx). `down` is idempotent too.
set -euo pipefail

state_pointer=/run/functional-networking-tls
ca_in_store=/usr/local/share/ca-certificates/functional-networking-ci-test-ca.crt
ca_link=/etc/ssl/certs/functional-networking-ci-test-ca.pem

log() { printf '%s\n' "$*" >&2; }

# Rebuilds /etc/ssl/certs (its bundle and links) from the CA files, without running the hooks
# in /etc/ca-certificates/update.d: the test CA goes to what libcurl and OpenSSL read and
# nowhere else (not into Java's keystore, which would keep it after the file is gone).
refresh_trust_store() {
    local no_hooks
    local no_hooks status=0
    no_hooks=$(mktemp -d)
    # Quiet unless it fails: openssl rehash warns about the bundle file every time.
    update-ca-certificates --hooksdir "$no_hooks" > "$no_hooks.log" 2>&1 || status=$?
    [ "$status" -eq 0 ] || cat "$no_hooks.log" >&2
    rm -rf "$no_hooks" "$no_hooks.log"
    return "$status"
}

down() {
    local dir=""
    [ -f "$state_pointer" ] && dir=$(cat "$state_pointer")
    if [ -n "$dir" ] && [ -f "$dir/nginx.pid" ]; then
        local pid
        pid=$(cat "$dir/nginx.pid")
        # Only the nginx master this script started: its command line names this configuration.
        if [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF "$dir/nginx.conf"; then
            kill -TERM "$pid" 2> /dev/null || true
            for _ in $(seq 1 50); do
                kill -0 "$pid" 2> /dev/null || break
                sleep 0.1
            done
            if kill -0 "$pid" 2> /dev/null; then
                log "tls-setup: nginx ($pid) did not stop within 5 s; killing it"
                kill -KILL "$pid" 2> /dev/null || true
            fi
        fi
    fi
    if [ -e "$ca_in_store" ] || [ -L "$ca_link" ]; then
        local marker=""
        [ -f "$ca_in_store" ] && marker=$(sed -n 2p "$ca_in_store")
        rm -f "$ca_in_store"
        # update-ca-certificates leaves the links to a removed local CA behind: the hash links
        # that name it, then its own.
        find "$(dirname "$ca_link")" -maxdepth 1 -type l -lname "$(basename "$ca_link")" -delete
        rm -f "$ca_link"
        refresh_trust_store
        if [ -n "$marker" ] && grep -qF "$marker" /etc/ssl/certs/ca-certificates.crt; then
            log "tls-setup: the test CA is still in /etc/ssl/certs/ca-certificates.crt"
            exit 1
        fi
        log "tls-setup: the test CA is out of the trust store"
    fi
    if [ -n "$dir" ] && [ -d "$dir" ]; then rm -rf "$dir"; fi
    rm -f "$state_pointer"
}

install_missing() {
    local missing=()
    command -v openssl > /dev/null || missing+=(openssl)
    command -v update-ca-certificates > /dev/null || missing+=(ca-certificates)
    [ -x /usr/sbin/nginx ] || command -v nginx > /dev/null || missing+=(nginx-light)
    [ ${#missing[@]} -eq 0 ] && return 0
    log "tls-setup: installing ${missing[*]} (apt-get)"
    # Installing nginx must not start the system's nginx: when no policy-rc.d forbids it, one
    # that does is put in place for the installation only.
    local policy_added=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
        chmod 755 /usr/sbin/policy-rc.d
        policy_added=yes
    fi
    local status=0
    { apt-get update -qq > /dev/null &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null; } ||
        status=$?
    [ -z "$policy_added" ] || rm -f /usr/sbin/policy-rc.d
    return "$status"
}

make_certificates() {
    local dir=$1
    openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -sha256 -days 2 \
        -subj "/CN=FunctionalNetworking CI throwaway test CA $(date -u +%Y%m%dT%H%M%SZ)" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -keyout "$dir/ca.key" -out "$dir/ca.crt" 2> /dev/null
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -sha256 \
        -subj "/CN=127.0.0.1" -keyout "$dir/server.key" -out "$dir/server.csr" 2> /dev/null
    cat > "$dir/server.ext" << 'EXT'
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost
EXT
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial \
        -days 2 -sha256 -extfile "$dir/server.ext" -out "$dir/server.crt" 2> /dev/null
    # The CA's private key is not needed any more: nothing else may be signed with it.
    rm -f "$dir/ca.key" "$dir/server.csr" "$dir/ca.srl"
}

write_config() {
    local dir=$1 port_a=$2 port_b=$3
    cat > "$dir/nginx.conf" << CONF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 8192; }
http {
    access_log off;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    keepalive_requests 1000000;
    keepalive_timeout 120s;
    client_max_body_size 0;
    large_client_header_buffers 8 64k;
    underscores_in_headers on;
    ignore_invalid_headers off;

    # The request target after /to/<port>, exactly as the client sent it (query included).
    map \$request_uri \$loopback_target {
        "~^/to/[0-9]+(?<target>/.*)\$" \$target;
        default /;
    }

    server {
        listen 127.0.0.1:$port_a ssl http2;
        listen 127.0.0.1:$port_b ssl http2;
        ssl_certificate $dir/server.crt;
        ssl_certificate_key $dir/server.key;
        ssl_protocols TLSv1.2 TLSv1.3;
        add_header X-Served-Protocol \$server_protocol always;

        location = /health { return 200 "ok\\n"; }

        location ~ ^/to/(?<loopback_port>[0-9]+)(/|\$) {
            proxy_pass http://127.0.0.1:\$loopback_port\$loopback_target;
            proxy_http_version 1.1;
            proxy_set_header Host \$proxy_host;
            proxy_set_header Connection "";
            proxy_set_header X-Forwarded-Host \$http_host;
            proxy_set_header X-Forwarded-Proto \$scheme;
            proxy_redirect http://127.0.0.1:\$loopback_port/ \$scheme://\$http_host/to/\$loopback_port/;
            proxy_redirect ~^/(?!/)(.*)\$ \$scheme://\$http_host/to/\$loopback_port/\$1;
            proxy_buffering off;
            proxy_request_buffering off;
            proxy_max_temp_file_size 0;
            proxy_connect_timeout 10s;
            proxy_read_timeout 300s;
            proxy_send_timeout 300s;
        }
    }
}
CONF
}

up() {
    if [ "$(id -u)" -ne 0 ]; then
        log "tls-setup: must run as root (it installs packages and a CA into the system trust store)"
        exit 2
    fi
    down
    install_missing
    local nginx dir
    nginx=$(command -v nginx || echo /usr/sbin/nginx)
    dir=$(mktemp -d /tmp/functional-networking-tls.XXXXXX)
    chmod 755 "$dir"
    echo "$dir" > "$state_pointer"
    mkdir -p "$dir/tmp"
    make_certificates "$dir"

    cp "$dir/ca.crt" "$ca_in_store"
    chmod 644 "$ca_in_store"
    refresh_trust_store
    if ! grep -qF "$(sed -n 2p "$dir/ca.crt")" /etc/ssl/certs/ca-certificates.crt; then
        log "tls-setup: update-ca-certificates did not put the test CA into /etc/ssl/certs/ca-certificates.crt"
        exit 1
    fi
    log "tls-setup: the test CA is in the trust store ($ca_in_store)"

    local started="" port_a port_b
    # Ports below the range the system hands out to outgoing connections and LoopbackServers.
    local first_ephemeral
    first_ephemeral=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2> /dev/null || echo 32768)
    [ "$first_ephemeral" -gt 12000 ] || first_ephemeral=32768
    for _ in $(seq 1 20); do
        port_a=$((10000 + RANDOM % (first_ephemeral - 10002)))
        port_b=$((port_a + 1))
        write_config "$dir" "$port_a" "$port_b"
        if "$nginx" -e "$dir/error.log" -p "$dir" -c "$dir/nginx.conf" 2>> "$dir/start.log"; then
            started=yes
            break
        fi
    done
    if [ -z "$started" ]; then
        cat "$dir/start.log" "$dir/error.log" >&2 2> /dev/null || true
        log "tls-setup: could not start nginx"
        exit 1
    fi
    for _ in $(seq 1 50); do
        [ -s "$dir/nginx.pid" ] && break
        sleep 0.1
    done

    # Both origins answer over TLS, verified against the system's trust store (the bundle
    # libcurl reads), before any test runs.
    local port
    for port in "$port_a" "$port_b"; do
        local answered=""
        for _ in $(seq 1 50); do
            if openssl s_client -connect "127.0.0.1:$port" -verify_return_error -verify_ip 127.0.0.1 \
                -CAfile /etc/ssl/certs/ca-certificates.crt -alpn h2,http/1.1 < /dev/null > "$dir/check.log" 2>&1; then
                answered=yes
                break
            fi
            sleep 0.1
        done
        if [ -z "$answered" ]; then
            cat "$dir/check.log" "$dir/error.log" >&2 2> /dev/null || true
            log "tls-setup: 127.0.0.1:$port does not answer with a certificate the system trusts"
            exit 1
        fi
    done
    log "tls-setup: nginx $("$nginx" -v 2>&1 | sed 's/.*nginx\///') on 127.0.0.1:$port_a and :$port_b (TLS, HTTP/2), files in $dir"
    echo "export FUNCTIONAL_NETWORKING_TLS=https://127.0.0.1:$port_a,https://127.0.0.1:$port_b"
}

case "${1:-}" in
    up) up ;;
    down) down ;;
    *)
        log "usage: bash .ci/tls-setup.sh up|down"
        exit 2
        ;;
esac
