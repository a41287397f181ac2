#!/usr/bin/env bash
# The Windows x86_64 download, cross-compiled on Linux: dist/ludus-VERSION-windows-x86_64.zip
# (ludus.exe, README, changelog, licences) and its .sha256, then checked under Wine: the program
# must answer --version (with Cargo.toml's version) and --help.
#
#   bash release/windows.sh VERSION
#
# Uses Rust's x86_64-pc-windows-gnu target (added with rustup when missing) and Debian's MinGW
# (gcc-mingw-w64-x86-64) as the linker and C compiler; Wine (wine, wine64) for the check
# (LUDUS_NO_WINE=1 skips it, and says so), and with xvfb-run and Mesa's lavapipe the title screen
# drawn under Wine. A cold build of Bevy for another target: long (47 min on 2 busy cores).
# The profile: LUDUS_PROFILE, `dist` by default, as release/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/ludus-target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
profile="${LUDUS_PROFILE:-dist}"
dist="${LUDUS_DIST_DIR:-$PWD/dist}"
target=x86_64-pc-windows-gnu

say() { printf '== %s (at %ss)\n' "$*" "$SECONDS"; }
fail() { printf 'release/windows.sh: %s\n' "$*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || fail "the tool '$1' is missing: $2"; }

[ $# = 1 ] || fail "usage: bash release/windows.sh VERSION"
version="$1"
need cargo "install Rust 1.95 with rustup"
need rustup "install Rust with rustup"
need x86_64-w64-mingw32-gcc "apt-get install gcc-mingw-w64-x86-64"
need zip "apt-get install zip"
need sha256sum "apt-get install coreutils"
[ -n "${LUDUS_NO_WINE:-}" ] || need wine "apt-get install wine wine64 (or LUDUS_NO_WINE=1 to skip the check)"
cargo_version="$(cargo pkgid --offline -p ludus 2>/dev/null | sed 's/.*[#@]//')"
[ "$version" = "$cargo_version" ] ||
  fail "VERSION is '$version' but Cargo.toml says '$cargo_version': set the version there first"
rustup target list --installed | grep -qx "$target" || rustup target add "$target"

if [ -z "${LUDUS_GIT_COMMIT:-}" ] && git rev-parse --git-dir >/dev/null 2>&1; then
  LUDUS_GIT_COMMIT="$(git rev-parse --short=12 HEAD)"
  git diff --quiet HEAD -- 2>/dev/null || LUDUS_GIT_COMMIT="$LUDUS_GIT_COMMIT-modified"
  export LUDUS_GIT_COMMIT
fi
# Not exported: the cc crate rebuilds every crate with C code when SOURCE_DATE_EPOCH changes.
epoch="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"

say "cargo build --profile $profile --target $target -p ludus --bin ludus"
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
export CC_x86_64_pc_windows_gnu=x86_64-w64-mingw32-gcc
export AR_x86_64_pc_windows_gnu=x86_64-w64-mingw32-ar
cargo build --locked --profile "$profile" --target "$target" -p ludus --bin ludus
exe="$CARGO_TARGET_DIR/$target/$profile/ludus.exe"
[ "$profile" != dev ] || exe="$CARGO_TARGET_DIR/$target/debug/ludus.exe"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
name="ludus-$version-windows-x86_64"
mkdir -p "$work/$name/licences"
cp "$exe" "$work/$name/ludus.exe"
cp README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE "$work/$name/"
cp assets/fonts/DejaVu-LICENSE.txt assets/fonts/EBGaramond-LICENSE.txt "$work/$name/licences/"
if command -v x86_64-w64-mingw32-objdump >/dev/null 2>&1; then
  say "the DLLs ludus.exe imports (all part of Windows):"
  x86_64-w64-mingw32-objdump -p "$exe" | awk '/DLL Name/ {print "   " $3}' | sort -u
fi
mkdir -p "$dist"
rm -f "$dist/$name.zip"
(cd "$work" && find "$name" -exec touch -h -d "@$epoch" {} + &&
  find "$name" -print | LC_ALL=C sort | zip -X -q -9 "$dist/$name.zip" -@)
(cd "$dist" && sha256sum "$name.zip" >"$name.zip.sha256")
say "$name.zip: $(stat -c %s "$dist/$name.zip") bytes"

if [ -n "${LUDUS_NO_WINE:-}" ]; then
  say "LUDUS_NO_WINE: not checked under Wine"
  exit 0
fi
say "under Wine: --version and --help"
export WINEPREFIX="$work/wine" WINEDEBUG=-all
wineboot --init >/dev/null 2>&1 || true
# The check runs a copy, never the zip's files. Rust's standard library (1.78 and later) takes
# its random numbers from ProcessPrng in bcryptprimitives.dll, which Windows 10 and later have
# and Wine only from 8.13 on: Debian 12's Wine 8.0 cannot start any Rust program without it. For
# such a Wine a stand-in DLL (ProcessPrng over RtlGenRandom) is built beside the copy.
check="$work/check"
mkdir -p "$check"
cp "$work/$name/ludus.exe" "$check/"
if ! find "$WINEPREFIX/drive_c/windows/system32" -iname bcryptprimitives.dll 2>/dev/null | grep -q .; then
  say "this Wine has no bcryptprimitives.dll: a stand-in for the check"
  cat >"$work/prng.c" <<'C'
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length) {
    ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
    if (!SystemFunction036(data, n)) return FALSE;
    data += n;
    length -= n;
  }
  return TRUE;
}
C
  x86_64-w64-mingw32-gcc -shared -O2 -o "$check/bcryptprimitives.dll" "$work/prng.c" -ladvapi32
fi
answer="$(wine "$check/ludus.exe" --version 2>/dev/null | tr -d '\r')"
echo "$answer"
case "$answer" in
  "ludus $version ("*")") ;;
  *) fail "under Wine, --version says '$answer', not ludus $version" ;;
esac
wine "$check/ludus.exe" --help 2>/dev/null | tr -d '\r' | grep -q -- "--screenshot" ||
  fail "under Wine, --help lists no --screenshot"
say "ludus.exe answers --version and --help under Wine"

# The title screen drawn under Wine, where Wine's Vulkan reaches Mesa's software driver
# (lavapipe) under Xvfb: the window inside a Wine virtual desktop (winit asserts on the display
# modes Wine reports for a bare Xvfb screen), Vulkan chosen (without a GPU, Wine offers no
# DirectX 12 and wgpu finds no adapter there). The picture: $dist/checks/windows-title.png.
if command -v xvfb-run >/dev/null 2>&1 && ls /usr/share/vulkan/icd.d/lvp_icd.*.json >/dev/null 2>&1; then
  say "under Wine and Xvfb: the title screen"
  shot="$work/title.png"
  WGPU_BACKEND=vulkan timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" \
    wine explorer /desktop=ludus,1280x800 "$check/ludus.exe" --screen title --size 1280x800 \
    --screenshot "Z:${shot//\//\\}" >"$work/wine-title.log" 2>&1 || true
  if [ -s "$shot" ]; then
    mkdir -p "$dist/checks"
    cp "$shot" "$dist/checks/windows-title.png"
    say "drawn: $dist/checks/windows-title.png"
  else
    say "the title screen was not drawn under Wine; its last lines:"
    tail -n 5 "$work/wine-title.log"
  fi
else
  say "no xvfb-run or Mesa's lavapipe (mesa-vulkan-drivers): the title screen is not drawn under Wine"
fi
