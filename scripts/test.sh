#!/usr/bin/env bash
# npm test: type-check, lint, unit tests, server tests on PGlite and PostgreSQL, build, Playwright journeys.
# Prints one closing line "tests: N passed, N failed, N skipped" summed over every runner; a pass that cannot run
# (no PostgreSQL, Redis or Chromium) adds the tests it would have run to "skipped", and fails the run with CI=true.
set -euo pipefail
cd "$(dirname "$0")/.."
REPORTS=$(mktemp -d)
trap 'rm -rf "$REPORTS"' EXIT
# Each step's time goes to passes.tsv (name TAB seconds), printed at the end with the slowest files.
STEP_NAME=
STEP_START=$SECONDS
step() {
  [ -n "$STEP_NAME" ] && printf '%s\t%s\n' "$STEP_NAME" "$((SECONDS - STEP_START))" >>"$REPORTS/passes.tsv"
  STEP_NAME=$*
  STEP_START=$SECONDS
  [ -n "$STEP_NAME" ] && printf '\n\033[1m==> %s\033[0m\n' "$*"
  return 0
}
vitest() { local name=$1; shift; npx vitest run "$@" --reporter=default --reporter=json --outputFile="$REPORTS/$name.json"; }
# skipped NAME key=value…: records a pass that could not run (see scripts/summarise.mjs).
skipped() { local name=$1; shift; node scripts/summarise.mjs skip "$REPORTS/$name.skipped" "$@"; }

# Only the passes that are about a service get it: the PGlite pass must not reach for a PostgreSQL or Redis named
# in the environment (a Redis that is down would fail it, instead of skipping the Redis pass).
PG_URL=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
REDIS=${TEST_REDIS_URL:-redis://127.0.0.1:6379}
unset TEST_DB TEST_DATABASE_URL TEST_REDIS_URL

step "Type-check"
npm run --silent typecheck

step "Lint and format check (biome)"
npx biome check .

step "Import boundaries and cycles (dependency-cruiser, .dependency-cruiser.cjs)"
npm run --silent lint:deps

step "Unit tests: contracts, web and the test scripts"
vitest unit --project contracts --project policy-engine --project web --project scripts

step "Gateway configuration (generators and the real tools)"
# Installs wireguard-tools, wireguard-go, nftables, bind9-utils, unbound, squid when missing; a tool that stays
# missing skips the tests that need it (counted as skipped; with CI=true they fail).
bash scripts/net-tools.sh || true
# One file at a time: the tools' tests bind local ports and run daemons.
vitest gateway-config --project gateway-config --maxWorkers=1

step "Reference gateway (apps/gateway; the data plane in a network namespace)"
# Its data-plane test needs root, ip netns, /dev/net/tun and the tools above: without them it is counted as
# skipped (CI=true fails it instead).
# One file at a time: the namespace tests share the host's routes, nftables and /var/run/wireguard.
vitest gateway --project gateway --maxWorkers=1

step "Server integration tests on PGlite"
vitest server-pglite --project server --project server-mocked

step "Server integration tests on PostgreSQL"
# PGlite is PostgreSQL's own engine compiled to WebAssembly: the same parser, planner, SQL and types, so a test that
# only goes through routes and drizzle's queries learns nothing more here. What differs is the driver and the server
# around the engine, so this pass runs the files that touch those (a file holding several reasons is named once):
PG_FILES=(
  # the driver (node-postgres' pool, type parsing, errors), the owners and row-level security, keyset paging
  src/db/client.test.ts src/db/owners.test.ts src/db/rls.test.ts src/db/paging.test.ts
  # the drivers' errors (SQLSTATE, constraint, under drizzle's wrapper) and array parameters and results, which
  # node-postgres and PGlite each serialise and parse their own way (db/driver.ts)
  src/db/driver.test.ts
  # migrations as a start-up runs them, and the stored-value repair of migration 0042
  src/server.test.ts src/modules/gateways/device-peers.test.ts
  # LISTEN/NOTIFY: the change bus, two instances on one database, long-polls woken by a save, revoked live streams
  src/lib/change-bus.test.ts src/multi-instance.test.ts src/modules/gateways/bundle-fanout.test.ts
  src/modules/telemetry/live-revocation.test.ts src/modules/policies/policies.test.ts
  # work claimed with FOR UPDATE SKIP LOCKED by one runner among several: import, bulk and report jobs, feeds
  src/lib/import-jobs.test.ts src/modules/users/user-bulk-jobs.test.ts src/modules/reports/reports-schedules.test.ts
  src/modules/policy-objects/feeds.test.ts
  # advisory locks: gateway addresses, access requests, report mails
  src/modules/gateways/gateways.test.ts src/modules/block-page/block-page.test.ts
  src/modules/reports/reports-outbox.test.ts
  # raw SQL whose results the driver parses (counts as int8, timestamps, arrays, JSON): telemetry, dashboards,
  # events, reports, subscriptions, connection status, site performance, the seeded telemetry
  src/modules/telemetry/telemetry.test.ts src/modules/telemetry/telemetry-source.test.ts
  src/modules/dashboard/dashboard.test.ts src/modules/events/events.test.ts src/modules/reports/reports.test.ts
  src/modules/reports/reports-source.test.ts src/modules/subscriptions/subscriptions.test.ts
  src/modules/users/connection-status.test.ts src/modules/gateways/site-performance.test.ts
  src/seed/telemetry.test.ts
)
if bash scripts/services.sh postgres "$PG_URL"; then
  TEST_DB=postgres TEST_DATABASE_URL=$PG_URL vitest server-postgres --project server "${PG_FILES[@]}"
else
  why="no PostgreSQL server answers at $PG_URL (set TEST_DATABASE_URL)"
  echo "!! PostgreSQL pass SKIPPED: $why."
  skipped server-postgres pass=PostgreSQL "reason=$why" like=server-pglite \
    "files=$(printf 'apps/server/%s,' "${PG_FILES[@]}" | sed 's/,$//')"
fi

step "Through Redis: the rate limit, and telemetry ingest through its stream"
if bash scripts/services.sh redis "$REDIS"; then
  TEST_REDIS_URL=$REDIS vitest server-redis --project server src/plugins/rate-limit.test.ts \
    src/modules/telemetry/telemetry-redis.test.ts
else
  why="no Redis server answers at $REDIS (set TEST_REDIS_URL)"
  echo "!! Redis pass SKIPPED: $why."
  skipped server-redis pass=Redis "reason=$why" like=server-pglite \
    files=apps/server/src/plugins/rate-limit.test.ts,apps/server/src/modules/telemetry/telemetry-redis.test.ts
fi

step "Build the web app and the server"
npm run --silent build

step "End-to-end journeys (Playwright, Debian Chromium)"
set +e
E2E_JSON="$REPORTS/e2e-report.json" E2E_SKIPPED="$REPORTS/e2e.skipped" bash scripts/e2e.sh
e2e_status=$?
step ''
node scripts/summarise.mjs "$REPORTS"
summary_status=$?
set -e
[ "$e2e_status" = 0 ] && exit "$summary_status"
exit "$e2e_status"
