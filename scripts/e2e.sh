#!/usr/bin/env bash
# Playwright journeys in Debian's Chromium against the real server on a fresh data directory.
# Without Chromium, and when apt cannot install it, the pass is skipped (exit 0, recorded in $E2E_SKIPPED for the
# closing line of npm test with the number of tests it would have run); with CI=true it fails instead.
set -euo pipefail
cd "$(dirname "$0")/.."
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
install_chromium() {
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
}
if [ ! -x "$chromium" ]; then
  echo "   $chromium is missing: installing Debian's chromium"
  install_chromium || true
fi
if [ ! -x "$chromium" ]; then
  why="$chromium is missing and apt could not install Debian's chromium"
  echo "!! browser pass SKIPPED: $why."
  if [ -n "${E2E_SKIPPED:-}" ]; then
    # Listing needs neither the browser nor the server.
    listed=$(mktemp)
    npx playwright test -c e2e/playwright.config.ts --list --reporter=json "$@" >"$listed"
    node scripts/summarise.mjs skip "$E2E_SKIPPED" pass=browser "reason=$why" "listed=$listed"
    rm -f "$listed"
  fi
  if [ "${CI:-}" = true ]; then
    echo "!! CI=true: the browser pass must run."
    exit 1
  fi
  exit 0
fi
# The report journey reads the PDFs back with pdftotext (Debian's poppler-utils).
if ! command -v pdftotext >/dev/null; then
  echo "   pdftotext is missing: installing Debian's poppler-utils"
  if [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null 2>&1 ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null; } || true
  else
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null 2>&1 || true
  fi
  command -v pdftotext >/dev/null || echo "!! pdftotext could not be installed: the report journey will fail on it."
fi
[ -f apps/web/dist/index.html ] || npm run --silent build
export E2E_DATA_DIR=$(mktemp -d)
export E2E_SERVER_LOG="$E2E_DATA_DIR.log"
trap 'rm -rf "$E2E_DATA_DIR" "$E2E_SERVER_LOG"' EXIT
set +e
npx playwright test -c e2e/playwright.config.ts "$@"
status=$?
set -e
# The whole run's server log holds no session id, token or mailed link (issue 31).
node --import tsx scripts/check-server-log.ts "$E2E_SERVER_LOG" || status=1
exit "$status"
