#!/usr/bin/env bash
# Builds the browser bundle into web/dist from a clean checkout: the game for wasm32 (the
# wasm-release profile), wasm-bindgen's JS glue and wasm-opt -O1 into a stage directory, then
# web/package.sh: the code under content-hashed names, the page, the service worker, the icons,
# and a .br and a .gz next to every file for servers that send precompressed files. Installs what it
# needs first (idempotently): the wasm32 target, wasm-bindgen-cli at Cargo.lock's version,
# binaryen's wasm-opt from npm (web/package.json; Debian 12's binaryen 108 breaks the module's
# externref table) and brotli. Prints each file's raw and compressed sizes.
# LUDUS_WASM_OPT=/path/to/wasm-opt uses another wasm-opt (one newer than Debian 12's).
#
# LUDUS_WEB_BIN=web-baseline LUDUS_WEB_DIST=DIR builds the empty Bevy + egui page the browser
# test measures the game's start against (src/bin/web-baseline.rs) into DIR the same way: the
# same profile, features, tools and page.
#
#   bash web/build.sh            # then serve web/dist: ludus-server --web web/dist (port 5000, next to UDP 5000)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/ludus-target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
bin="${LUDUS_WEB_BIN:-ludus}"
out="${LUDUS_WEB_DIST:-web/dist}"
say() { printf '== %s (at %ss)\n' "$*" "$SECONDS"; }

# --- tools ------------------------------------------------------------------------------------
apt_install() {
  local sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  if [ -z "${LUDUS_APT_UPDATED:-}" ]; then
    "${sudo[@]}" apt-get update -qq
    export LUDUS_APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "$@" >/dev/null
}
need_apt=()
command -v npm >/dev/null 2>&1 || need_apt+=(nodejs npm)
command -v brotli >/dev/null 2>&1 || need_apt+=(brotli)
command -v gzip >/dev/null 2>&1 || need_apt+=(gzip)
if [ ${#need_apt[@]} -gt 0 ]; then
  say "installing ${need_apt[*]}"
  apt_install "${need_apt[@]}"
fi
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown

# wasm-bindgen-cli must match the wasm-bindgen crate in Cargo.lock exactly.
bindgen_version="$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
[ -n "$bindgen_version" ] || { echo "web/build.sh: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
export PATH="$HOME/.cargo/bin:$PATH"
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$bindgen_version" ]; then
  say "installing wasm-bindgen-cli $bindgen_version"
  # Not --locked: one of the CLI's locked dependencies is not in the registry here.
  t=$SECONDS
  cargo install wasm-bindgen-cli --version "$bindgen_version"
  say "installing wasm-bindgen-cli took $((SECONDS - t))s"
fi

wasm_opt="${LUDUS_WASM_OPT:-web/node_modules/.bin/wasm-opt}"
if [ -z "${LUDUS_WASM_OPT:-}" ] && { [ ! -x "$wasm_opt" ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; }; then
  say "npm ci (web: binaryen)"
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi

# --- build ------------------------------------------------------------------------------------
# web/test.sh rebuilds when a source is newer than web/dist/.built: the stamp takes the time this
# build started, so a source changed while it ran is built next time.
started="$(mktemp)"
trap 'rm -f "$started"' EXIT
say "cargo build (wasm-release) --bin $bin"
t=$SECONDS
cargo build --locked --profile wasm-release --target wasm32-unknown-unknown -p ludus --bin "$bin"
say "cargo build (wasm-release) took $((SECONDS - t))s"
wasm="$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm-release/$bin.wasm"

say "wasm-bindgen $bindgen_version"
# The stage (the code before it is named and packaged) stays in the target directory: the
# browser test packages a second version from it. Whatever the binary, the code is named
# ludus.js and ludus_bg.wasm, as the page expects.
stage="$CARGO_TARGET_DIR/web-stage"
[ "$bin" = ludus ] || stage="$CARGO_TARGET_DIR/web-stage-$bin"
rm -rf "$stage"
mkdir -p "$stage"
wasm-bindgen --target web --no-typescript --out-name ludus --out-dir "$stage" "$wasm"

# -O1, not -Oz: on the module rustc makes at opt-level z with fat LTO, -O1 takes about a minute
# of CPU where -Os and -Oz take nine to twelve, and its output is the smaller one once
# brotli-compressed (the bytes that cross the wire and count against the budget; see
# docs/RESULTS.md). The result is kept in the target directory, keyed by its input, its version
# and its flags, and reused while they are the same.
opt_flags=(-O1 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-reference-types
  --enable-multivalue --enable-sign-ext --enable-mutable-globals)
opt_version="$("$wasm_opt" --version)"
key="$( { sha256sum <"$stage/ludus_bg.wasm"; echo "$opt_version ${opt_flags[*]}"; } | sha256sum | cut -c1-32)"
cache="$CARGO_TARGET_DIR/web-opt-cache"
if [ -f "$cache/$key.wasm" ]; then
  say "wasm-opt: reusing $cache/$key.wasm"
  cp "$cache/$key.wasm" "$stage/ludus_bg.wasm"
else
  say "wasm-opt ${opt_flags[*]} ($opt_version)"
  t=$SECONDS
  "$wasm_opt" "${opt_flags[@]}" -o "$stage/ludus_bg.opt.wasm" "$stage/ludus_bg.wasm"
  say "wasm-opt took $((SECONDS - t))s"
  mv "$stage/ludus_bg.opt.wasm" "$stage/ludus_bg.wasm"
  mkdir -p "$cache"
  find "$cache" -name '*.wasm' -mtime +14 -delete
  cp "$stage/ludus_bg.wasm" "$cache/$key.wasm.tmp" && mv "$cache/$key.wasm.tmp" "$cache/$key.wasm"
fi

bash web/package.sh "$stage" "$out"
touch -r "$started" "$out/.built"
say "web/build.sh done in ${SECONDS}s"
