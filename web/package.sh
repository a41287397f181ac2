#!/usr/bin/env bash
# Makes the browser bundle in OUT from the game's optimised code in STAGE (ludus.js and
# ludus_bg.wasm, as web/build.sh leaves them): the code under names that carry their content
# hash, the page naming them and carrying the bundle's version, the service worker with this
# version's file list, the icons and the manifest, then a .br and a .gz next to every file and
# the sizes against the budget. web/build.sh runs it; the browser test runs it again on a
# changed module to make a second version.
#
#   bash web/package.sh STAGE OUT
#   LUDUS_PACKAGE_COMPRESS=0 bash web/package.sh STAGE OUT   # no .br/.gz, no budget (test versions)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: web/package.sh STAGE OUT" >&2; exit 2; }
stage="$1" out="$2"
cd "$(dirname "$0")/.."
for f in ludus.js ludus_bg.wasm; do
  [ -f "$stage/$f" ] || { echo "web/package.sh: no $stage/$f (run web/build.sh)" >&2; exit 1; }
done
say() { printf '== %s\n' "$*"; }

rm -rf "$out"
mkdir -p "$out"
# The game's code under names that carry their content hash: a browser or a proxy may keep
# them for good, and the service worker keeps each version apart.
hash16() { sha256sum "$1" | cut -c1-16; }
js="ludus-$(hash16 "$stage/ludus.js").js"
wasm="ludus_bg-$(hash16 "$stage/ludus_bg.wasm").wasm"
cp "$stage/ludus.js" "$out/$js"
cp "$stage/ludus_bg.wasm" "$out/$wasm"
cp web/icon.svg web/icon-192.png web/icon-512.png web/icon-maskable-512.png web/manifest.webmanifest web/manifest.vi.webmanifest "$out/"

# The version: a hash of every file the page is made of. The page names its code and carries
# its version (the service worker checks it before it keeps a file); the code's size is for
# the progress bar (the download is compressed).
wasm_size="$(stat -c %s "$out/$wasm")"
version="$( { cat web/index.html web/sw.js; (cd "$out" && sha256sum -- *); } | sha256sum | cut -c1-16)"
# Lines that are only a comment stay in the source: the wire carries code (about 2,600 bytes
# of brotli less for the page and the worker).
strip_comments=(-e '/^[[:space:]]*\/\/ /d' -e '/^[[:space:]]*\/\*.*\*\/[[:space:]]*$/d')
sed "${strip_comments[@]}" \
  -e "s/data-wasm-size=\"\"/data-wasm-size=\"$wasm_size\"/" -e "s/data-version=\"\"/data-version=\"$version\"/" \
  -e "s/data-js=\"ludus.js\"/data-js=\"$js\"/" -e "s/data-wasm=\"ludus_bg.wasm\"/data-wasm=\"$wasm\"/" \
  web/index.html >"$out/index.html"
grep -q "data-version=\"$version\"" "$out/index.html" && grep -q "data-wasm=\"$wasm\"" "$out/index.html" ||
  { echo "web/package.sh: web/index.html lacks the data-version/data-js/data-wasm attributes" >&2; exit 1; }
files="$(cd "$out" && for f in *; do printf '"%s", ' "$f"; done)"
sed "${strip_comments[@]}" -e "s/__LUDUS_VERSION__/$version/" -e "s/__LUDUS_FILES__/[${files%, }]/" web/sw.js >"$out/sw.js"
grep -q "const VERSION = '$version'" "$out/sw.js" ||
  { echo "web/package.sh: web/sw.js lacks its VERSION placeholder" >&2; exit 1; }
say "version $version: $js, $wasm"

if [ "${LUDUS_PACKAGE_COMPRESS:-1}" = 0 ]; then
  date -u +%FT%TZ >"$out/.built"
  exit 0
fi

# --- compress ---------------------------------------------------------------------------------
say "compressing"
for f in "$out"/*; do
  case "$f" in *.br | *.gz) continue ;; esac
  brotli -q 11 -f -k -o "$f.br" "$f"
  gzip -9 -n -f -k "$f"
done

# --- sizes ------------------------------------------------------------------------------------
total_raw=0 total_gz=0 total_br=0
printf '\n%-32s %12s %12s %12s\n' file raw gzip brotli
for f in "$out"/*; do
  case "$f" in *.br | *.gz) continue ;; esac
  raw=$(stat -c %s "$f") gz=$(stat -c %s "$f.gz") br=$(stat -c %s "$f.br")
  total_raw=$((total_raw + raw)) total_gz=$((total_gz + gz)) total_br=$((total_br + br))
  printf '%-32s %12d %12d %12d\n' "$(basename "$f")" "$raw" "$gz" "$br"
done
printf '%-32s %12d %12d %12d\n' total "$total_raw" "$total_gz" "$total_br"
mib() { awk -v b="$1" 'BEGIN { printf "%.2f MiB", b / 1048576 }'; }
printf 'bundle: %s raw, %s gzip, %s brotli (%d bytes; budget 4,000,000 bytes brotli)\n' \
  "$(mib $total_raw)" "$(mib $total_gz)" "$(mib $total_br)" "$total_br"
limit=4000000
if [ "$total_br" -gt "$limit" ]; then
  echo "web/package.sh: the bundle is over the budget: $total_br bytes brotli > $limit" >&2
  exit 1
fi
date -u +%FT%TZ >"$out/.built"
