#!/usr/bin/env bash
# The browser test: builds the web bundle if the sources changed since the last build, serves it
# on 127.0.0.1 with `ludus-server --web` (precompressed files, application/wasm, and
# ludus-server.json) and plays it in Debian's headless Chromium with playwright-core (no browser
# download). Installs what it needs (idempotently): chromium, the npm packages, and what
# web/build.sh needs. The server and the bot are the ludus-server and ludus-cli binaries in
# $LUDUS_BIN_DIR (.ci/run passes the ones its test build made); without it, they are built in the
# dev profile in $CARGO_TARGET_DIR (default ~/.cache/ludus-target, as .ci/run). Screenshots go to
# $LUDUS_WEB_OUT (/tmp/ludus-web).
#
#   bash web/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/ludus-target}"

sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || need_apt+=(nodejs npm)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "== installing ${need_apt[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${need_apt[@]}" >/dev/null
  export LUDUS_APT_UPDATED=1
fi

# playwright-core only: it never downloads a browser.
if [ ! -d web/test/node_modules/playwright-core ] || [ web/test/package-lock.json -nt web/test/node_modules/.package-lock.json ]; then
  echo "== npm ci (web/test)"
  (cd web/test && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi

# Rebuild when anything the bundle is made from is newer than the last build.
stamp=web/dist/.built
if [ ! -f "$stamp" ] || [ -n "$(find src crates/rules/src crates/ai/src crates/protocol/src assets Cargo.toml Cargo.lock \
  web/index.html web/sw.js web/build.sh web/icon.svg web/icon-192.png web/icon-512.png \
  web/icon-maskable-512.png web/manifest.webmanifest web/manifest.vi.webmanifest \
  -newer "$stamp" -print -quit)" ]; then
  bash web/build.sh
else
  echo "== web/dist is up to date (built $(cat "$stamp"))"
fi
# The yardstick: an empty Bevy + egui app in the same page, built the same way. Rebuilt when
# the page, the build or what it takes from the game's library changes (its start's rules and
# the page state), not with every change of the game: its link takes minutes.
baseline="$CARGO_TARGET_DIR/web-baseline"
if [ ! -f "$baseline/.built" ] || [ -n "$(find src/bin/web-baseline.rs src/players/warmup.rs src/shell/web.rs \
  src/platform/background.rs src/platform/mod.rs web/index.html web/sw.js web/build.sh web/package.sh \
  Cargo.toml Cargo.lock -newer "$baseline/.built" -print -quit)" ]; then
  LUDUS_WEB_BIN=web-baseline LUDUS_WEB_DIST="$baseline" bash web/build.sh
fi

# The bundle is served by ludus-server itself (--web), as on a LAN: the page also gets
# ludus-server.json and must offer that server's WebSocket port. Free ports, a throwaway database.
bin_dir="${LUDUS_BIN_DIR:-}"
if [ -z "$bin_dir" ]; then
  echo "== cargo build -p ludus-server -p ludus-cli"
  cargo build --locked -p ludus-server -p ludus-cli
  bin_dir="$CARGO_TARGET_DIR/debug"
fi
for b in ludus-server ludus-cli; do
  [ -x "$bin_dir/$b" ] || { echo "web/test.sh: no $bin_dir/$b" >&2; exit 1; }
done
work="$(mktemp -d)"
servers=()
# On a failure the game server's last lines are printed: what it saw of the failing step.
trap 'status=$?; for p in "${servers[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  if [ "$status" != 0 ] && [ -f "$work/game.log" ]; then echo "== the game server, last lines"; tail -n 60 "$work/game.log"; fi
  rm -rf "$work"' EXIT
# Starts `ludus-server --web DIR` on free ports with a throwaway database; sets `line` to its
# first line: "ludus-server listening udp=ADDR ws=ADDR http=ADDR data=DIR".
serve() {
  local dir="$1" name="$2" log="$work/$2.log"
  "$bin_dir/ludus-server" --web "$dir" --udp 127.0.0.1:0 \
    --ws 127.0.0.1:0 --data "$work/data-$name" >"$log" 2>&1 &
  local pid=$!
  servers+=("$pid")
  line=""
  # Up to 60 s (a debug build on a busy machine); usually the line is there at once.
  for _ in $(seq 600); do
    line="$(grep -m1 '^ludus-server listening ' "$log" || true)"
    [ -n "$line" ] && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
  done
  echo "web/test.sh: the server ($name) did not start" >&2
  cat "$log" >&2
  exit 1
}
serve "$baseline" baseline
export LUDUS_BASELINE_URL="http://$(sed -n 's/.* http=\([^ ]*\) .*/\1/p' <<<"$line")/"
serve web/dist game
http="$(sed -n 's/.* http=\([^ ]*\) .*/\1/p' <<<"$line")"
ws="$(sed -n 's/.* ws=\([^ ]*\) .*/\1/p' <<<"$line")"
url="http://$http/"
export LUDUS_WS_PORT="${ws##*:}"
# The online step: a bot (ludus-cli bot, over UDP) plays the browser through this server.
export LUDUS_UDP_ADDR="$(sed -n 's/.* udp=\([^ ]*\) .*/\1/p' <<<"$line")"
export LUDUS_CLI="$bin_dir/ludus-cli"
# The service worker's version test: a second version of the bundle (the same code with one more
# custom section in the module, so other content hashes), and a torn one (version 2's files
# under version 1's page), served in turn through a symbolic link by web/test/serve.mjs.
stage="$CARGO_TARGET_DIR/web-stage"
mkdir -p "$work/stage-v2"
cp "$stage/ludus.js" "$stage/ludus_bg.wasm" "$work/stage-v2/"
# Section id 0 (custom), 13 bytes: a 10-byte name "ludus-test" and the payload "v2".
printf '\x00\x0d\x0aludus-testv2' >>"$work/stage-v2/ludus_bg.wasm"
LUDUS_PACKAGE_COMPRESS=0 bash web/package.sh "$work/stage-v2" "$work/v2" >/dev/null
cp -r "$work/v2" "$work/v2-torn"
cp web/dist/index.html "$work/v2-torn/index.html"
export LUDUS_SITE_LINK="$work/site" LUDUS_V1="$PWD/web/dist" LUDUS_V2="$work/v2"

echo "== browser test against $url (ludus-server --web, WebSocket port $LUDUS_WS_PORT)"
node web/test/browser.mjs "$url"
