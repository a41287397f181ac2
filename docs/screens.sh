#!/usr/bin/env bash
# Pictures of every screen of the game, in both languages and the three board themes, for the
# documentation: docs/screens-wood.jpg, docs/screens-stone.jpg, docs/screens-contrast.jpg, each
# a sheet of the screens at a third of their size, four a row (English on the first three rows,
# Vietnamese on the next three); and docs/screens-sizes-en.jpg, docs/screens-sizes-vi.jpg: the
# title, a game of each kind, the analysis and the rules at phone (390x844), tablet (768x1024)
# and desktop (1280x800) sizes, a row a size. Each screen is the real game in a window under Xvfb (Mesa's
# software Vulkan), started with `--screenshot` and taken once it has settled and moved: the
# title after its live board has played a few moves, a game after its first move, the end of a
# game with its card.
#
#   bash docs/screens.sh            # about ten minutes on two cores, after the debug build
#   bash docs/screens.sh sizes      # only the sheets of sizes
#
# Needs what CI's screenshots need (xvfb, mesa-vulkan-drivers) and ImageMagick's `montage`
# (installed here if it is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/ludus-target}"
command -v montage >/dev/null 2>&1 || {
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq imagemagick >/dev/null
}
# The same build as CI's test step: the game's binary in target/debug (or LUDUS_BIN, a game
# binary already built).
bin="${LUDUS_BIN:-$CARGO_TARGET_DIR/debug/ludus}"
if [ -z "${LUDUS_BIN:-}" ]; then
  cargo test --workspace --locked --no-run >/dev/null 2>&1 || cargo test --workspace --locked --no-run
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# name | options, separated by ";"
screens=(
  "title|--screen;title;--screenshot-after;6000"
  "language|--screen;language"
  "lessons|--screen;lessons"
  "lesson|--lesson;alquerque-2"
  "rules|--screen;rules"
  "settings|--screen;settings"
  "records|--screen;records"
  "puzzles|--screen;puzzles"
  "latrunculi|--game;latrunculi;--play;g2-g5;--screenshot-after;1500"
  "alquerque|--game;alquerque;--play;b2-c3;--screenshot-after;1500"
  "game-over|--game;alquerque;--position;5/5/2B2/1W3/5 w;--play;b2xd4;--screenshot-after;4000"
)
# A short game to analyse: Alquerque's first move and the capture it gives.
game="$work/alquerque-game.txt"
echo "alquerque b2-c3 d4xb2" >"$game"
sizes=(
  "title|--screen;title;--screenshot-after;3000"
  "alquerque|--game;alquerque;--play;b2-c3;--screenshot-after;1500"
  "latrunculi|--game;latrunculi;--play;g2-g5;--screenshot-after;1500"
  "analysis|--analyse;$game;--screenshot-after;2000"
  "rules|--screen;rules"
)
for lang in en vi; do
  tiles=()
  for size in 390x844 768x1024 1280x800; do
    for entry in "${sizes[@]}"; do
      name="${entry%%|*}"
      IFS=';' read -r -a options <<<"${entry#*|}"
      data="$work/data-sizes-$lang-$size-$name"
      mkdir -p "$data"
      png="$work/sizes-$lang-$size-$name.png"
      LUDUS_DATA_DIR="$data" WGPU_BACKEND=vulkan timeout 180 xvfb-run -a -s "-screen 0 1280x1024x24" \
        "$bin" --lang "$lang" --size "$size" --screenshot "$png" "${options[@]}" >"$work/log" 2>&1 ||
        { cat "$work/log" >&2; exit 1; }
      tiles+=("$png")
    done
  done
  # A row a size, each screen scaled into the same box.
  montage "${tiles[@]}" -tile 5x -geometry 300x300+4+4 -background '#111111' -quality 85 \
    "docs/screens-sizes-$lang.jpg"
  echo "docs/screens-sizes-$lang.jpg: ${#tiles[@]} screens"
done
[ "${1:-}" = sizes ] && exit 0

for theme in wood stone contrast; do
  Theme="$(tr '[:lower:]' '[:upper:]' <<<"${theme:0:1}")${theme:1}"
  tiles=()
  for lang in en vi; do
    for entry in "${screens[@]}"; do
      name="${entry%%|*}"
      IFS=';' read -r -a options <<<"${entry#*|}"
      data="$work/data-$theme-$lang-$name"
      mkdir -p "$data"
      # The theme through the settings the game reads at start.
      printf '{"theme":"%s"}\n' "$Theme" >"$data/settings.json"
      png="$work/$theme-$lang-$name.png"
      LUDUS_DATA_DIR="$data" WGPU_BACKEND=vulkan timeout 180 xvfb-run -a -s "-screen 0 1280x800x24" \
        "$bin" --lang "$lang" --size 1280x800 --screenshot "$png" "${options[@]}" >"$work/log" 2>&1 ||
        { cat "$work/log" >&2; exit 1; }
      tiles+=("$png")
    done
    # An empty tile: each language starts a row.
    tiles+=("null:")
  done
  # Four screens a row (English on the first three rows, Vietnamese on the next three), as JPEG to
  # keep the files small (a 256-colour PNG turns the slate of the Stone theme blue).
  montage "${tiles[@]}" -tile 4x -geometry 400x250+3+3 -background '#111111' -quality 85 \
    "docs/screens-$theme.jpg"
  echo "docs/screens-$theme.jpg: $((${#tiles[@]} - 2)) screens"
done
