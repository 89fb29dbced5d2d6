#!/usr/bin/env bash
# Installs the Linux tools the gateway configuration is checked with (packages/gateway-config/src/tools.test.ts):
# wg / wg-quick, wireguard-go, nft, named-checkzone, unbound, squid (squid-openssl: TLS peeking by SNI), ulogd
# (with its JSON output: the network layer's decisions) — Debian's packages, when missing.
# Needs root (or sudo) and apt; prints what it did. Exits non-zero when something is still missing afterwards
# (callers run it with `|| true`: the tool tests then skip, and are counted as skipped, for what is missing).
set -uo pipefail

# Debian package → a command it brings.
declare -A PROVIDES=(
  [wireguard-tools]=wg-quick
  [wireguard-go]=wireguard-go
  [nftables]=nft
  [bind9-utils]=named-checkzone
  [bind9-dnsutils]=dig
  [unbound]=unbound-checkconf
  [squid-openssl]=squid
  [ulogd2]=ulogd
  [ulogd2-json]=/usr/lib/x86_64-linux-gnu/ulogd/ulogd_output_JSON.so
)
# Daemons land in /usr/sbin, which a non-root PATH may lack.
has() { [ -e "$1" ] || command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/sbin/$1" ]; }

missing=()
for pkg in wireguard-tools wireguard-go nftables bind9-utils bind9-dnsutils unbound squid-openssl ulogd2 ulogd2-json; do
  has "${PROVIDES[$pkg]}" || missing+=("$pkg")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "   net tools: all present (wg-quick wireguard-go nft named-checkzone dig unbound-checkconf squid ulogd)"
  exit 0
fi

echo "   net tools: installing Debian's ${missing[*]}"
if [ "$(id -u)" = 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "!! net tools: not root and no sudo: cannot install ${missing[*]}"
  exit 1
fi
# The packages are installed, never started: policy-rc.d keeps the unbound and squid services from starting
# (a daemon left running would hold ports and outlive the test run). Removed again afterwards.
prc=/usr/sbin/policy-rc.d
made_prc=false
if [ ! -e "$prc" ]; then
  printf '#!/bin/sh\nexit 101\n' | "${SUDO[@]}" tee "$prc" >/dev/null && "${SUDO[@]}" chmod 755 "$prc" &&
    made_prc=true
fi
"${SUDO[@]}" apt-get update -qq &&
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
status=$?
$made_prc && "${SUDO[@]}" rm -f "$prc"

still=()
for pkg in "${missing[@]}"; do
  has "${PROVIDES[$pkg]}" || still+=("$pkg")
done
if [ ${#still[@]} -gt 0 ]; then
  echo "!! net tools: still missing after apt-get (status $status): ${still[*]}"
  exit 1
fi
echo "   net tools: installed ${missing[*]}"
