#!/usr/bin/env bash
# Installs whatever is missing to build, serve and test Streamlab on a Debian 12 machine with
# rustup, cargo and Node 20 (see ../shared/toolchain.md for why each version). Idempotent:
# on a machine that has everything it only checks versions and runs `cargo fetch`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$STREAMLAB_ROOT"

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# The one version of wasm-bindgen in Cargo.lock; the CLI must match it exactly.
wasm_bindgen_version() {
  awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

need_wasm_target() {
  if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    echo "wasm32-unknown-unknown: installed"
  else
    rustup target add wasm32-unknown-unknown
  fi
}

need_clippy() {
  if cargo clippy --version >/dev/null 2>&1; then
    cargo clippy --version
  else
    rustup component add clippy
  fi
}

need_trunk() {
  local want=0.21.14 have
  have="$(trunk --version 2>/dev/null | awk '{print $2}' || true)"
  if [ "$have" = "$want" ]; then
    echo "trunk $have: installed"
  else
    # 7-9 min on 2 cores. trunk 0.22 needs a newer rustc; --locked warns about a yanked
    # crossbeam-channel, which is harmless.
    cargo install trunk --version "$want" --locked
  fi
}

need_wasm_bindgen() {
  local want have pinned
  want="$(wasm_bindgen_version)"
  if [ -z "$want" ]; then
    echo "setup: no wasm-bindgen in Cargo.lock" >&2; return 1
  fi
  pinned="$(sed -n 's/^wasm_bindgen *= *"\(.*\)"/\1/p' Trunk.toml)"
  if [ "$pinned" != "$want" ]; then
    echo "setup: Trunk.toml pins wasm_bindgen = \"$pinned\" but Cargo.lock has $want; make them equal" >&2
    return 1
  fi
  have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
  if [ "$have" = "$want" ]; then
    echo "wasm-bindgen $have: installed"
  else
    # Without --locked: its lockfile pins a webpki-roots this registry does not serve.
    cargo install wasm-bindgen-cli --version "$want" --force
  fi
}

# Debian's Chromium for the e2e test, and a Korean font: without one, the Korean UI renders
# as empty boxes in headless screenshots (fonts-nanum is 33 MB; fonts-noto-cjk is 91 MB).
need_chromium() {
  local pkgs=()
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    pkgs+=(chromium chromium-driver)
  fi
  if ! command -v fc-list >/dev/null || [ -z "$(fc-list :lang=ko family)" ]; then
    pkgs+=(fonts-nanum)
  fi
  if [ "${#pkgs[@]}" -eq 0 ]; then
    echo "chromium, chromedriver and a Korean font: installed"
  else
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${pkgs[@]}"
  fi
}

# npm packages (package.json, pinned in package-lock.json): binaryen's wasm-opt for Trunk, zopfli
# for the release build's .gz files (scripts/sw-precache.mjs),
# playwright-core and axe-core (the accessibility check run in every page) for the e2e test.
# Exit 0 when node_modules holds exactly the versions in package-lock.json.
node_modules_current() {
  node -e '
    const fs = require("fs");
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
    for (const [path, meta] of Object.entries(lock.packages)) {
      if (!path) continue;
      const pkg = JSON.parse(fs.readFileSync(path + "/package.json", "utf8"));
      if (pkg.version !== meta.version) process.exit(1);
    }' 2>/dev/null
}

need_node_modules() {
  local major
  major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [ "$major" -lt 20 ]; then
    echo "setup: Node >= 20 is needed (playwright-core 1.65); found $(node --version 2>/dev/null || echo none)" >&2
    return 1
  fi
  if node_modules_current; then
    echo "node_modules: current"
  else
    npm ci --no-audit --no-fund
  fi
  wasm-opt --version
}

streamlab_step "rust wasm32 target" need_wasm_target
streamlab_step "clippy" need_clippy
streamlab_step "trunk" need_trunk
streamlab_step "wasm-bindgen-cli" need_wasm_bindgen
streamlab_step "chromium and fonts" need_chromium
streamlab_step "npm packages" need_node_modules
# trunk --offline also passes --offline to cargo, so every crate must be downloaded first.
streamlab_step "cargo fetch" cargo fetch --locked
