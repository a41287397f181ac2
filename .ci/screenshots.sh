#!/usr/bin/env bash
# Starts the real game in a window under Xvfb (Mesa's software Vulkan) for both games and for the
# title screen at four window sizes (English and Vietnamese), saves a screenshot of each, and
# fails if a picture is blank or shows no board.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/ludus-target}"
out="${SCREENSHOT_DIR:-$CARGO_TARGET_DIR/screenshots}"
mkdir -p "$out"
# The same build as the test step (same features, so nothing is rebuilt); it leaves the game's
# binary in target/debug.
cargo test --workspace --locked --no-run >/dev/null 2>&1 || cargo test --workspace --locked --no-run
bin="$CARGO_TARGET_DIR/debug/ludus"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
for game in latrunculi alquerque; do
  rm -f "$out/$game.png"
  LUDUS_DATA_DIR="$data" WGPU_BACKEND=vulkan timeout 180 \
    xvfb-run -a -s "-screen 0 1280x800x24" "$bin" --game "$game" --size 1280x800 --screenshot "$out/$game.png"
  python3 .ci/check_screenshot.py "$out/$game.png" "$game"
done
# The title screen at the four sizes it must fit without scrolling (tests/client/title.rs checks
# the fit; these pictures show it), in both languages.
for shot in 1280x800:en 1024x768:vi 768x1024:en 390x844:vi; do
  size="${shot%%:*}" lang="${shot##*:}"
  png="$out/title-$size-$lang.png"
  rm -f "$png"
  LUDUS_DATA_DIR="$data" WGPU_BACKEND=vulkan timeout 180 \
    xvfb-run -a -s "-screen 0 ${size}x24" "$bin" --screen title --lang "$lang" --size "$size" --screenshot "$png"
  python3 .ci/check_screenshot.py "$png" title
done
