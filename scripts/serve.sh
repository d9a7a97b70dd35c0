#!/usr/bin/env bash
# README command 1: install whatever is missing, then build and serve the lab on
# http://127.0.0.1:8080 (address and port from Trunk.toml). Ctrl-C stops it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$STREAMLAB_ROOT"
bash scripts/setup.sh
echo "==> trunk serve: http://127.0.0.1:8080 (the first release build takes a few minutes)"
# The dev server injects a live-reload client into the page it serves: it builds into
# target/serve-dist so that dist/ (what `trunk build --release --offline` makes for deploying)
# never carries it.
exec trunk serve --release --offline --dist target/serve-dist "$@"
