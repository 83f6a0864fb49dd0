#!/usr/bin/env bash
# `npm test`: lint, type-check, build the renderer, then vitest and Playwright inside a private
# D-Bus session with an unlocked gnome-keyring. Ends with exactly one line `N passed, N failed`
# (tests from vitest's and Playwright's JSON reports; a failed lint or type-check counts as a
# failure too) and exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(git bzip2 unzip chromium fonts-noto-color-emoji xvfb gnome-keyring dbus-x11 python3-gitlab openssl)

section() { printf '\n==> %s\n' "$*"; }

ensure_debian_packages() {
  if ! command -v dpkg >/dev/null 2>&1; then
    echo "test.sh: no dpkg here; assuming ${DEBIAN_PACKAGES[*]} (or equivalents) are installed" >&2
    return 0
  fi
  local missing=() p
  for p in "${DEBIAN_PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "test.sh: missing Debian packages: ${missing[*]}" >&2
    echo "test.sh: install them with: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  section "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null || {
    echo "test.sh: apt-get install ${missing[*]} failed" >&2
    exit 1
  }
}

ensure_debian_packages

WORK="$(mktemp -d "${TMPDIR:-/tmp}/burrow-test.XXXXXX")"
chmod 700 "$WORK"
trap 'rm -rf "$WORK"' EXIT
mkdir -m 700 "$WORK/runtime" "$WORK/data"

failures=()

section "lint (eslint)"
npm run --silent lint || failures+=(lint)

section "typecheck (vue-tsc)"
npm run --silent typecheck || failures+=(typecheck)

section "build the renderer (out/renderer, for the e2e tests)"
npm run --silent build:renderer -- --logLevel warn || failures+=(build:renderer)

# The keychain (libsecret) needs a session bus and an unlocked collection: both private to this run.
in_session() {
  env XDG_RUNTIME_DIR="$WORK/runtime" XDG_DATA_HOME="$WORK/data" \
    dbus-run-session -- sh -c 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$@"' sh "$@"
}

section "unit, server, core and renderer tests (vitest)"
in_session npx vitest run --reporter=default --reporter=json --outputFile.json="$WORK/vitest.json" || true

section "end-to-end tests (Playwright, Debian Chromium)"
if [ -f out/renderer/index.html ]; then
  PLAYWRIGHT_JSON_OUTPUT_FILE="$WORK/playwright.json" in_session npx playwright test || true
fi

section "summary"
node - "$WORK/vitest.json" "$WORK/playwright.json" "${failures[@]}" <<'EOF'
const { existsSync, readFileSync } = require('node:fs')
const [vitestFile, playwrightFile, ...failedSteps] = process.argv.slice(2)
const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null)
const firstLine = (text) => String(text ?? '').split('\n').find((line) => line.trim() !== '')?.trim().slice(0, 300) ?? ''
let passed = 0
let failed = 0
const notes = []

const vitest = read(vitestFile)
if (vitest === null) {
  failed += 1
  notes.push('vitest: no JSON report (vitest did not finish)')
} else {
  // A file that fails to load has no failing test but must still count.
  const brokenFiles = vitest.testResults.filter((f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed')).length
  passed += vitest.numPassedTests
  failed += vitest.numFailedTests + brokenFiles
  notes.push(`vitest: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed, ${brokenFiles} files failed to run, ${vitest.numPendingTests + vitest.numTodoTests} skipped`)
  // Only the end of CI's output is kept: name what failed here, with the first line of its error.
  for (const file of vitest.testResults) {
    const where = file.name.replace(process.cwd() + '/', '')
    const failing = file.assertionResults.filter((a) => a.status === 'failed')
    if (file.status === 'failed' && failing.length === 0) notes.push(`  FAILED TO RUN ${where}: ${firstLine(file.message)}`)
    for (const a of failing) notes.push(`  FAILED ${where} > ${a.fullName}: ${firstLine((a.failureMessages ?? [])[0])}`)
  }
}

const playwright = read(playwrightFile)
if (playwright === null) {
  failed += 1
  notes.push('playwright: no JSON report (Playwright did not run or did not finish)')
} else {
  const s = playwright.stats
  const errors = (playwright.errors ?? []).length
  passed += s.expected + s.flaky
  failed += s.unexpected + errors
  notes.push(`playwright: ${s.expected + s.flaky} passed, ${s.unexpected} failed, ${errors} errors, ${s.skipped} skipped`)
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue
        const error = (test.results ?? []).map((r) => r.error?.message).find(Boolean)
        notes.push(`  FAILED ${spec.file}:${spec.line} > ${[...titles, spec.title].join(' > ')}: ${firstLine(error)}`)
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, ...(child.title && !child.title.endsWith('.ts') ? [child.title] : [])])
  }
  for (const suite of playwright.suites ?? []) walk(suite, [])
  for (const error of playwright.errors ?? []) notes.push(`  ERROR ${firstLine(error.message)}`)
}

for (const step of failedSteps) notes.push(`${step}: FAILED`)
failed += failedSteps.length
for (const note of notes) console.log(note)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
EOF
