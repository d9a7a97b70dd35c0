#!/usr/bin/env bash
# README command 1: install whatever is missing, then build and serve the lab on
# http://127.0.0.1:8080 (address and port from Trunk.toml). Ctrl-C stops it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$STREAMLAB_ROOT"
bash scripts/setup.sh
echo "==> trunk serve: http://127.0.0.1:8080 (the first release build takes a few minutes)"
exec trunk serve --release --offline "$@"
