#!/usr/bin/env bash
# The whole suite: type check, then every test file over HTTP against real
# SQLite, PostgreSQL, Redis and SMTP peers (PostgreSQL/Redis parts skip with a
# message when unreachable, and fail instead under CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
npx --no-install tsc -p . --noEmit

# Node runs the TypeScript itself (test/support/ts-resolve.mjs says why not
# tsx), and keeps each module's compiled code between processes: every test
# file, and every server and CLI process a test starts, loads the same few
# hundred modules. The cache is per Node version and checks each source.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/headless-auth/compile-cache}"

# The runner starts files in the order given: the slowest first (as measured,
# in test/slowest-files.txt), so the run does not end on one long file while
# the other slot idles; then every other file, in name order.
mapfile -t all < <(find test -name '*.test.ts' | sort)
mapfile -t files < <(
  { grep -v '^#' test/slowest-files.txt | while read -r f; do [ -f "$f" ] && echo "$f"; done
    printf '%s\n' "${all[@]}"; } | awk '!seen[$0]++'
)
exec node --experimental-transform-types --import ./test/support/ts-resolve.mjs \
  --test --test-concurrency=2 "${files[@]}"
