#!/usr/bin/env bash
# npm test: type-check, lint, unit tests, server tests on PGlite and PostgreSQL, build, Playwright journeys.
# Prints one closing line "tests: N passed, N failed, N skipped" summed over every runner.
set -euo pipefail
cd "$(dirname "$0")/.."
REPORTS=$(mktemp -d)
trap 'rm -rf "$REPORTS"' EXIT
step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
vitest() { local name=$1; shift; npx vitest run "$@" --reporter=default --reporter=json --outputFile="$REPORTS/$name.json"; }

step "Type-check"
npm run --silent typecheck

step "Lint and format check (biome)"
npx biome check .

step "Unit tests: contracts and web"
vitest unit --project contracts --project policy-engine --project web

step "Server integration tests on PGlite"
vitest server-pglite --project server

step "Server integration tests on PostgreSQL"
PG_URL=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
if bash scripts/services.sh postgres "$PG_URL"; then
  TEST_DB=postgres TEST_DATABASE_URL=$PG_URL vitest server-postgres --project server
else
  echo "!! PostgreSQL pass SKIPPED: no PostgreSQL server answers at $PG_URL (set TEST_DATABASE_URL)."
fi

step "Rate limit through Redis"
REDIS=${TEST_REDIS_URL:-redis://127.0.0.1:6379}
if bash scripts/services.sh redis "$REDIS"; then
  TEST_REDIS_URL=$REDIS vitest server-redis --project server src/plugins/rate-limit.test.ts
else
  echo "!! Redis pass SKIPPED: no Redis server answers at $REDIS (set TEST_REDIS_URL)."
fi

step "Build the web app"
npm run --silent build

step "End-to-end journeys (Playwright, Debian Chromium)"
set +e
E2E_JSON="$REPORTS/e2e-report.json" bash scripts/e2e.sh
e2e_status=$?
set -e

node scripts/summarise.mjs "$REPORTS"
exit "$e2e_status"
