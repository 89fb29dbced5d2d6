#!/usr/bin/env bash
# Playwright journeys in Debian's Chromium against the real server on a fresh data directory.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
  echo "   /usr/bin/chromium is missing: installing Debian's chromium"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
fi
[ -f apps/web/dist/index.html ] || npm run --silent build
export E2E_DATA_DIR=$(mktemp -d)
trap 'rm -rf "$E2E_DATA_DIR"' EXIT
npx playwright test -c e2e/playwright.config.ts "$@"
