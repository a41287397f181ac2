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
# The game under Xvfb, for at most 180 s. `xvfb-run -a` takes the first display number without a
# lock file and then starts Xvfb on it: two runs at once on one machine can take the same number,
# and one Xvfb fails to start. That failure (xvfb-run says so) is tried again, three times at
# most; any other failure fails at once.
xvfb() {
  local attempt rc err="$data/xvfb.err"
  for attempt in 1 2 3; do
    rc=0
    timeout 180 xvfb-run -a "$@" 2>"$err" || rc=$?
    cat "$err" >&2
    if [ "$rc" = 0 ] || ! grep -q 'Xvfb failed to start' "$err"; then
      return "$rc"
    fi
    echo "(Xvfb did not start, attempt $attempt: again)" >&2
    sleep 1
  done
  return "$rc"
}
for game in latrunculi alquerque; do
  rm -f "$out/$game.png"
  LUDUS_DATA_DIR="$data" WGPU_BACKEND=vulkan \
    xvfb -s "-screen 0 1280x800x24" "$bin" --game "$game" --size 1280x800 --screenshot "$out/$game.png"
  python3 .ci/check_screenshot.py "$out/$game.png" "$game"
done
# The title screen at the four sizes it must fit without scrolling (tests/client/title.rs checks
# the fit and the texts' contrast; these pictures show it), in both languages, taken once the
# live board behind the menu has played a few moves (one every 1.6 s).
for shot in 1280x800:en 1024x768:vi 768x1024:en 390x844:vi; do
  size="${shot%%:*}" lang="${shot##*:}"
  png="$out/title-$size-$lang.png"
  rm -f "$png"
  LUDUS_DATA_DIR="$data" WGPU_BACKEND=vulkan \
    xvfb -s "-screen 0 ${size}x24" "$bin" --screen title --lang "$lang" --size "$size" --screenshot "$png" \
    --screenshot-after 8000
  python3 .ci/check_screenshot.py "$png" title
done
# Moments caught in flight (`--play` plays the moves once the board has settled, and
# `--screenshot-after` counts from the last one in game time): a Latrunculi double capture's
# bursts, an Alquerque chain counting its jumps, and the end-of-game moment (the winner and the
# reason, before the card), in both languages.
moment() {
  local name="$1" game="$2" lang="$3" after="$4" position="$5" moves="$6"
  local png="$out/$name-$lang.png"
  rm -f "$png"
  LUDUS_DATA_DIR="$data" WGPU_BACKEND=vulkan \
    xvfb -s "-screen 0 1280x800x24" "$bin" --game "$game" --position "$position" --play "$moves" \
    --lang "$lang" --size 1280x800 --screenshot "$png" --screenshot-after "$after"
  python3 .ci/check_screenshot.py "$png" "${game%-quick}"
}
moment capture latrunculi en 300 'bbb1bb1bbbbb/5B6/12/3rb1br4/12/12/6R5/rrrr1rr1rrrr r' 'f1-f5'
moment chain alquerque vi 700 'BBBBB/1B1B1/BBB1W/WWWWW/WWWWW w' 'c2xc4xa4'
moment end latrunculi-quick vi 1500 'Bbbbbbbb/8/8/8/8/8/4R3/rrrrrrrr r' 'a1-a7'
moment end alquerque en 1500 '5/5/2B2/1W3/5 w' 'b2xd4'
# The analysis of a short game (`--analyse` reads a game in notation) and a
# finished game's card (`--game-over`), the card taken once the end's moment is over.
echo "alquerque b2-c3 d4xb2" > "$data/alquerque-game.txt"
echo "latrunculi-quick Bbbbbbbb/8/8/8/8/8/4R3/rrrrrrrr r a1-a7" > "$data/quick-end.txt"
rm -f "$out/analysis-1280x800-vi.png" "$out/game-over-1280x800-en.png"
LUDUS_DATA_DIR="$data" WGPU_BACKEND=vulkan \
  xvfb -s "-screen 0 1280x800x24" "$bin" --analyse "$data/alquerque-game.txt" --lang vi --size 1280x800 \
  --screenshot "$out/analysis-1280x800-vi.png" --screenshot-after 2000
python3 .ci/check_screenshot.py "$out/analysis-1280x800-vi.png" alquerque
LUDUS_DATA_DIR="$data" WGPU_BACKEND=vulkan \
  xvfb -s "-screen 0 1280x800x24" "$bin" --game-over "$data/quick-end.txt" --lang en --size 1280x800 \
  --screenshot "$out/game-over-1280x800-en.png" --screenshot-after 3000
python3 .ci/check_screenshot.py "$out/game-over-1280x800-en.png" latrunculi
