#!/usr/bin/env bash
# README command 2 (and CI's, through .ci/run): install whatever is missing, then run every
# test in order, stopping at the first failure. The last line is always "N passed, M failed"
# over the phases; CI reads it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$STREAMLAB_ROOT"
# A fresh clone builds everything once: incremental caches would only double what is on disk.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

passed=0
timings=()

# What the run leaves on disk, printed with the timings: CI machines have a bounded disk.
disk() {
  echo "    disk: $(du -sh target .venv-spark node_modules 2>/dev/null | awk '{printf "%s %s, ", $2, $1}')free $(df -h . | awk 'NR==2 {print $4}')"
}

phase() {
  local name="$1"; shift
  local t0=$SECONDS
  echo
  echo "==> phase $((passed + 1)): $name"
  echo "    \$ $*"
  if "$@"; then
    passed=$((passed + 1))
    timings+=("$(printf '%-48s %4ss' "$name" "$((SECONDS - t0))")")
    echo "<== $name: ok in $((SECONDS - t0))s"
  else
    local rc=$?
    echo "<== $name: FAILED (exit $rc) after $((SECONDS - t0))s" >&2
    printf '    %s\n' "${timings[@]}"
    disk
    echo "$passed passed, 1 failed"
    exit 1
  fi
}

# 1. tools and dependencies (idempotent)
phase "setup" bash scripts/setup.sh
# 2. lints as errors; clippy.toml forbids the wall clock, threads and the filesystem (tests,
#    benches and examples allow them file by file)
phase "cargo clippy -D warnings" cargo clippy --locked --workspace --all-targets -- -D warnings
# 3. native: engine unit tests, doc tests, the conformance runner (engine/tests/conformance.rs),
#    web crate tests (session, quiz bank). --no-fail-fast: every test binary runs, so one
#    failure does not hide the others (the phase still fails).
phase "cargo test --workspace" cargo test --workspace --locked --no-fail-fast
# 4. the engine must build for the browser on its own (no wall clock, no threads, no fs)
phase "engine builds for wasm32" cargo build --locked -p streamlab-engine --target wasm32-unknown-unknown
# 5. the release bundle in dist/ (wasm-release profile, wasm-bindgen, wasm-opt -Oz)
phase "trunk build --release" trunk build --release --offline
# 6. end to end in Debian's Chromium against dist/
phase "e2e (playwright-core, chromium)" node e2e/e2e.mjs
# 7. the lab's PySpark export of every preset, run on real PySpark 4.3.0 and checked against
#    the engine batch by batch (installs PySpark into .venv-spark/ when missing)
phase "real Spark: every preset's exported script" bash scripts/spark-check.sh

echo
printf '    %s\n' "${timings[@]}"
disk
echo "$passed passed, 0 failed"
