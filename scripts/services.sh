#!/usr/bin/env bash
# services.sh postgres|redis URL — succeeds when the service answers, starting (or installing) it if it can.
set -uo pipefail
kind=$1 url=$2
answers() {
  if [ "$kind" = postgres ]; then
    node -e "const pg=require('pg');const c=new pg.Client({connectionString:process.argv[1],connectionTimeoutMillis:3000});c.connect().then(()=>c.end()).then(()=>process.exit(0),()=>process.exit(1))" "$url" 2>/dev/null
  else
    node -e "const R=require('ioredis').Redis;const r=new R(process.argv[1],{lazyConnect:true,connectTimeout:2000,maxRetriesPerRequest:0,retryStrategy:()=>null});r.connect().then(()=>r.ping()).then(()=>{r.disconnect();process.exit(0)},()=>process.exit(1))" "$url" 2>/dev/null
  fi
}
answers && exit 0
case "$url" in *127.0.0.1*|*localhost*) ;; *) exit 1 ;; esac
echo "   $kind does not answer at $url; trying to start it locally"
if [ "$kind" = postgres ]; then
  if ! command -v pg_ctlcluster >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >/dev/null 2>&1
  fi
  if command -v pg_ctlcluster >/dev/null; then
    version=$(ls /etc/postgresql 2>/dev/null | sort -n | tail -1)
    [ -n "$version" ] && pg_ctlcluster --skip-systemctl-redirect "$version" main start >/dev/null 2>&1
  fi
else
  if ! command -v redis-server >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server) >/dev/null 2>&1
  fi
  command -v redis-server >/dev/null && redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no >/dev/null 2>&1
fi
for _ in 1 2 3 4 5 6 7 8 9 10; do answers && exit 0; sleep 1; done
exit 1
