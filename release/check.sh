#!/usr/bin/env bash
# CI's check of the Linux downloads, without a second heavy build: packages the game binary that
# the test build already made (profile dev) with release/build.sh, then proves that
#   - release/build.sh stops, naming the tool, when one it needs is missing, and refuses a
#     version that is not Cargo.toml's;
#   - each download's SHA-256 sum matches, and the .tar.gz and the .deb hold what they must (the
#     binary, the .desktop file and the icon, the licences);
#   - the .deb's binary, unpacked outside the repository (dpkg-deb -x) and started from `/`,
#     answers `--version` with Cargo.toml's version and draws its title screen under Xvfb
#     (checked as CI's window screenshots are).
#
#   bash release/check.sh          # after `cargo test --workspace --no-run` (as .ci/run does)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/ludus-target}"
say() { printf '== %s (at %ss)\n' "$*" "$SECONDS"; }
fail() { printf 'release/check.sh: %s\n' "$*" >&2; exit 1; }

# cargo-deb at a known version: it packages a dev build (with a warning), which later versions
# may refuse.
command -v cargo-deb >/dev/null 2>&1 || {
  say "cargo install cargo-deb --version 3.8.0 --locked"
  env -u CARGO_TARGET_DIR cargo install cargo-deb --version 3.8.0 --locked --quiet
}
# cargo-deb finds the shared libraries the binary links with dpkg-shlibdeps (dpkg-dev).
if ! command -v dpkg-shlibdeps >/dev/null 2>&1; then
  [ -n "${LUDUS_APT_UPDATED:-}" ] || apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dpkg-dev >/dev/null
fi

version="$(cargo pkgid --offline -p ludus | sed 's/.*[#@]//')"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

say "a missing tool is named"
# A PATH with everything release/build.sh starts with except cargo-deb.
mkdir "$tmp/bin"
for tool in bash dirname cargo tar gzip sha256sum sed; do ln -s "$(command -v "$tool")" "$tmp/bin/$tool"; done
rc=0
PATH="$tmp/bin" bash release/build.sh "$version" linux 2>"$tmp/err" >/dev/null || rc=$?
cat "$tmp/err"
[ "$rc" != 0 ] && grep -q "'cargo-deb' is missing: cargo install cargo-deb --locked" "$tmp/err" ||
  fail "release/build.sh without cargo-deb did not stop naming it (exit $rc)"
rm "$tmp/bin/tar"
rc=0
PATH="$tmp/bin" bash release/build.sh "$version" web 2>"$tmp/err" >/dev/null || rc=$?
[ "$rc" != 0 ] && grep -q "'tar' is missing" "$tmp/err" || fail "release/build.sh without tar did not stop naming it"
rc=0
bash release/build.sh "9.9.9-not-$version" linux 2>"$tmp/err" >/dev/null || rc=$?
cat "$tmp/err"
[ "$rc" != 0 ] && grep -q "Cargo.toml says '$version'" "$tmp/err" || fail "release/build.sh took a wrong version"

say "the Linux downloads, from the test build's binary"
dist="$tmp/dist"
LUDUS_PROFILE=dev LUDUS_PREBUILT=1 LUDUS_DIST_DIR="$dist" bash release/build.sh "$version" linux
tarball="$dist/ludus-$version-linux-x86_64.tar.gz"
deb="$dist/ludus_${version}_amd64.deb"
(cd "$dist" && sha256sum -c ./*.sha256)
listing="$(tar -tzf "$tarball")"
for f in ludus README.md CHANGELOG.md INSTALL.txt ludus.desktop ludus.png LICENSE-MIT LICENSE-APACHE \
  licences/DejaVu-LICENSE.txt licences/EBGaramond-LICENSE.txt; do
  grep -qx "ludus-$version-linux-x86_64/$f" <<<"$listing" || fail "the .tar.gz lacks $f"
done
contents="$(dpkg-deb -c "$deb" | awk '{print $6}')"
for f in ./usr/bin/ludus ./usr/share/applications/ludus.desktop ./usr/share/icons/hicolor/256x256/apps/ludus.png \
  ./usr/share/doc/ludus/copyright ./usr/share/doc/ludus/README.md; do
  grep -qx "$f" <<<"$contents" || fail "the .deb lacks $f"
done
dpkg-deb -f "$deb" Package Version Depends Section
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "the .deb's version is not $version"
if command -v desktop-file-validate >/dev/null 2>&1; then
  desktop-file-validate release/files/ludus.desktop
fi

say "the .deb's game, unpacked outside the repository, started from /"
installed="$tmp/installed"
dpkg-deb -x "$deb" "$installed"
bin="$installed/usr/bin/ludus"
answer="$(cd / && "$bin" --version)"
echo "$answer"
case "$answer" in
  "ludus $version ("*")") ;;
  *) fail "--version says '$answer', not ludus $version (Cargo.toml)" ;;
esac
(cd / && "$bin" --help) | grep -q -- "--screenshot" || fail "--help lists no --screenshot"

out="${SCREENSHOT_DIR:-$CARGO_TARGET_DIR/screenshots}"
mkdir -p "$out" "$tmp/data"
png="$out/installed-title.png"
rm -f "$png"
# As .ci/screenshots.sh: xvfb-run -a may race another Xvfb for a display; try again three times.
for attempt in 1 2 3; do
  rc=0
  (cd / && LUDUS_DATA_DIR="$tmp/data" WGPU_BACKEND=vulkan timeout 180 xvfb-run -a -s "-screen 0 1280x800x24" \
    "$bin" --screen title --lang en --size 1280x800 --screenshot "$png" --screenshot-after 3000) \
    2>"$tmp/xvfb.err" || rc=$?
  cat "$tmp/xvfb.err" >&2
  { [ "$rc" = 0 ] || ! grep -q 'Xvfb failed to start' "$tmp/xvfb.err"; } && break
  echo "(Xvfb did not start, attempt $attempt: again)" >&2
  sleep 1
done
[ "$rc" = 0 ] || fail "the installed game failed under Xvfb (exit $rc)"
python3 "$root/.ci/check_screenshot.py" "$png" title
say "the installed game drew its title screen: $png"
