#!/usr/bin/env bash
# The whole suite: type check, then every test file over HTTP against real
# SQLite, PostgreSQL, Redis and SMTP peers (PostgreSQL/Redis parts skip with a
# message when unreachable, and fail instead under CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
npx --no-install tsc -p . --noEmit
mapfile -t files < <(find test -name '*.test.ts' | sort)
exec node --import tsx --test --test-concurrency=2 "${files[@]}"
