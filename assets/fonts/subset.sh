#!/usr/bin/env bash
# Makes the game's two typefaces. First assets/fonts/DejaVuSans-subset.ttf, the body face, from
# DejaVu Sans 2.37 (Debian's
# fonts-dejavu-core): the scripts a player's text or nickname may use (Latin with every
# Vietnamese letter, Greek, Cyrillic), punctuation, arrows and the symbols of the diagrams,
# without hinting (egui draws unhinted). 759,720 bytes become about 259,000. Not run by CI: the
# subset is committed; tests/client/fonts.rs checks that it has every character the game shows.
# Licence: assets/fonts/DejaVu-LICENSE.txt (a modified font keeps the name DejaVu, which the
# licence allows: it forbids only "Bitstream" and "Vera" in a modified font's name).
#
#   bash assets/fonts/subset.sh
set -euo pipefail
cd "$(dirname "$0")"
source=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
display=/usr/share/fonts/opentype/ebgaramond/EBGaramond12-Regular.otf
if [ ! -f "$source" ] || [ ! -f "$display" ] || ! command -v pyftsubset >/dev/null; then
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq fonts-dejavu-core fonts-ebgaramond fonttools >/dev/null
fi
ranges=(
  U+0020-007E U+00A0-024F U+02B0-02FF U+0300-036F # Latin, spacing and combining marks
  U+0370-03FF U+0400-04FF                          # Greek, Cyrillic (nicknames)
  U+1E00-1EFF                                      # Latin Extended Additional (Vietnamese)
  U+2000-206F U+20A0-20CF U+2100-214F              # punctuation, currency, letter-like
  U+2190-21FF U+2200-22FF U+2300-23FF              # arrows, mathematics, technical
  U+25A0-25FF U+2600-26FF U+2700-27BF U+FFFD       # shapes, chess and other symbols, dingbats
)
pyftsubset "$source" --output-file=DejaVuSans-subset.ttf --no-hinting --layout-features='*' \
  --name-IDs='*' --name-legacy --name-languages='*' --unicodes="$(IFS=,; echo "${ranges[*]}")"
ls -l DejaVuSans-subset.ttf

# Then assets/fonts/EBGaramond12-subset.otf, the display face of titles, from EB Garamond 12
# (Debian's fonts-ebgaramond, OFL without a reserved name: assets/fonts/EBGaramond-LICENSE.txt):
# Latin with every Vietnamese letter and punctuation (titles are the game's own texts; anything
# else falls back to DejaVu). 422,280 bytes become 68,312 (31,794 with brotli).
display_ranges=(
  U+0020-007E U+00A0-017F U+01A0-01B0 U+0300-0323 U+1EA0-1EF9 # Latin-1, Extended-A, Vietnamese
  U+2010-2027 U+2030-203A U+20AC U+FFFD                       # punctuation, euro, replacement
)
pyftsubset "$display" --output-file=EBGaramond12-subset.otf --no-hinting \
  --layout-features='kern' --name-IDs='*' --name-legacy --name-languages='*' \
  --unicodes="$(IFS=,; echo "${display_ranges[*]}")"
ls -l EBGaramond12-subset.otf
