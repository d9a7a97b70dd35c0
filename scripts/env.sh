# Sourced by the scripts in this folder: the repo root and the PATH every build step needs.
# ~/.cargo/bin holds trunk and wasm-bindgen; node_modules/.bin holds wasm-opt 132 (npm binaryen).
# node_modules/.bin comes first so that Debian's broken wasm-opt 108, if someone installed it,
# is never picked (Trunk.toml pins version_132 as a second guard).
STREAMLAB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export STREAMLAB_ROOT
export PATH="$STREAMLAB_ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# Print "==> name" before a step and "<== name: Ns" after it.
streamlab_step() {
  local name="$1"; shift
  local t0=$SECONDS
  echo "==> $name"
  "$@"
  echo "<== $name: $((SECONDS - t0))s"
}
