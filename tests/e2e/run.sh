#!/usr/bin/env bash
# Browser end-to-end tests of the web UI.
#
#   tests/e2e/run.sh [PATH-TO-tabula] [FILE...]     (or TABULA_BIN=...)
#
# FILE names test files to run (`hints` or `hints.test.mjs`); all of them
# when none is given. E2E_NAME_PATTERN=REGEX runs only the tests whose names match.
# Installs what a fresh machine lacks (Debian's chromium, playwright-core from
# npm — no browser is ever downloaded), starts `tabula serve` on a free loopback
# port with a throw-away database, runs `node --test`, stops the server and exits
# non-zero on any failure. Screenshots land in tests/e2e/artifacts/.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${1:-${TABULA_BIN:-}}"
if [[ -z "$bin" ]]; then
  for candidate in "$root/target/release/tabula" "$root/target/debug/tabula"; do
    [[ -x "$candidate" ]] && bin="$candidate" && break
  done
fi
if [[ -z "$bin" || ! -x "$bin" ]]; then
  echo "e2e: no tabula binary: pass its path as \$1 or TABULA_BIN" >&2
  exit 2
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
# Tests that need servers of their own (an empty disk cache, other limits) start this one.
export TABULA_BIN="$bin"

sudo_if_needed() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

chromium_bin="${CHROMIUM:-/usr/bin/chromium}"
if [[ ! -x "$chromium_bin" ]]; then
  echo "e2e: installing chromium (Debian package)"
  sudo_if_needed apt-get update -qq
  sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
export CHROMIUM="$chromium_bin"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "e2e: installing node and npm (Debian packages)"
  sudo_if_needed apt-get update -qq
  sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi

cd "$here"
if [[ ! -d node_modules/playwright-core ]]; then
  echo "e2e: installing playwright-core"
  # The package never downloads a browser; the tests use Debian's chromium.
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error \
    || PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/tabula-e2e.XXXXXX")"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()' 2>/dev/null \
  || node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
export TABULA_URL="http://127.0.0.1:$port"

"$bin" serve --addr "127.0.0.1:$port" --db "$work/tabula.db" >"$work/server.log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

up() { node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$TABULA_URL/api/games"; }
for _ in $(seq 1 150); do
  if up; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then
    echo "e2e: the server stopped at start-up:" >&2
    cat "$work/server.log" >&2
    exit 1
  fi
  sleep 0.2
done
if ! up; then
  echo "e2e: the server did not answer on $TABULA_URL" >&2
  cat "$work/server.log" >&2
  exit 1
fi

mkdir -p artifacts
status=0
files=(*.test.mjs)
if [[ $# -gt 1 ]]; then
  files=()
  for f in "${@:2}"; do files+=("$(basename "${f%.test.mjs}").test.mjs"); done
fi
# E2E_NAME_PATTERN runs only the tests whose names match it (node's --test-name-pattern).
only=()
[[ -n "${E2E_NAME_PATTERN:-}" ]] && only=(--test-name-pattern="$E2E_NAME_PATTERN")
# One file at a time: the files share one server, and two at once on a busy
# two-core machine let a test wait past its timeouts (three such failures in one
# run), for about a quarter of the stage's time saved.
node --test --test-concurrency=1 --test-reporter=spec "${only[@]}" "${files[@]}" || status=$?
if [[ $status -ne 0 ]]; then
  echo "e2e: server log:" >&2
  tail -n 50 "$work/server.log" >&2
fi
exit $status
