#!/usr/bin/env bash
# Builds the downloads of a release into dist/, each with a .sha256 file beside it:
#
#   ludus-VERSION-linux-x86_64.tar.gz     the game: binary, README, changelog, licences, .desktop, icon
#   ludus_VERSION_amd64.deb               the same as a Debian package (cargo-deb): `ludus` in the
#                                         menu with its icon
#   ludus-VERSION-web.zip                 the browser game (web/build.sh's files), for any static host
#   ludus-server-VERSION-linux-x86_64.tar.gz
#                                         ludus-server, the browser game, a hardened systemd unit,
#                                         a Containerfile and a compose.yaml beside PostgreSQL
#
#   bash release/build.sh VERSION [linux] [web] [server]     # default: all three
#
# VERSION must be the one in Cargo.toml. The binaries are built with the `dist` profile (LTO, one
# codegen unit: see docs/BUILDING.md); LUDUS_PROFILE=release builds faster. LUDUS_PREBUILT=1 builds
# nothing and packages what the profile's directory already holds (CI packages its test build
# that way: LUDUS_PROFILE=dev LUDUS_PREBUILT=1). The Windows download: release/windows.sh.
#
# Every binary knows its commit (`ludus --version`): LUDUS_GIT_COMMIT, taken from git here
# (with "-modified" when the tree has uncommitted changes); without git it says "unknown commit".
# A tool that is missing stops the script at once, named, with how to install it.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/ludus-target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
profile="${LUDUS_PROFILE:-dist}"
prebuilt="${LUDUS_PREBUILT:-}"
dist="${LUDUS_DIST_DIR:-$root/dist}"

say() { printf '== %s (at %ss)\n' "$*" "$SECONDS"; }
fail() { printf 'release/build.sh: %s\n' "$*" >&2; exit 1; }
# need TOOL HOW-TO-INSTALL: stops, naming the tool, when it is not on PATH.
need() { command -v "$1" >/dev/null 2>&1 || fail "the tool '$1' is missing: $2"; }

[ $# -ge 1 ] || fail "usage: bash release/build.sh VERSION [linux] [web] [server]"
version="$1"
shift
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(linux web server)
for part in "${parts[@]}"; do
  case "$part" in linux | web | server) ;; *) fail "unknown part '$part' (linux, web or server)" ;; esac
done
wants() { local p; for p in "${parts[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }

# --- tools ------------------------------------------------------------------------------------
need cargo "install Rust 1.95 with rustup"
need tar "apt-get install tar"
need gzip "apt-get install gzip"
need sha256sum "apt-get install coreutils"
if wants linux; then
  need cargo-deb "cargo install cargo-deb --locked"
fi
if wants web; then
  need zip "apt-get install zip"
fi

# --- version and commit -------------------------------------------------------------------------
cargo_version="$(cargo pkgid --offline -p ludus 2>/dev/null | sed 's/.*[#@]//')" ||
  cargo_version="$(cargo pkgid -p ludus | sed 's/.*[#@]//')"
[ "$version" = "$cargo_version" ] ||
  fail "VERSION is '$version' but Cargo.toml says '$cargo_version': set the version there first"
if [ -z "${LUDUS_GIT_COMMIT:-}" ] && command -v git >/dev/null 2>&1 && git rev-parse --git-dir >/dev/null 2>&1; then
  LUDUS_GIT_COMMIT="$(git rev-parse --short=12 HEAD)"
  git diff --quiet HEAD -- 2>/dev/null || LUDUS_GIT_COMMIT="$LUDUS_GIT_COMMIT-modified"
fi
# Archives carry the commit's time, so that the same commit packs the same bytes. Not exported:
# the C compiler's crate (cc) rebuilds every crate with C code when SOURCE_DATE_EPOCH changes.
if [ -n "${LUDUS_GIT_COMMIT:-}" ]; then
  export LUDUS_GIT_COMMIT
  epoch="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
else
  say "no git: the binaries will say 'unknown commit'"
  epoch="${SOURCE_DATE_EPOCH:-$(date +%s)}"
fi
say "Ludus $version, commit ${LUDUS_GIT_COMMIT:-unknown}, profile $profile"

# A dev build (CI's check) is packed fast: its binary is large and the archives are thrown away.
gzip_level=-9 deb_fast=()
case "$profile" in
  dev) bindir="$CARGO_TARGET_DIR/debug" gzip_level=-1 deb_fast=(--fast) ;;
  *) bindir="$CARGO_TARGET_DIR/$profile" ;;
esac
mkdir -p "$dist"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# pack DIR ARCHIVE: a reproducible .tar.gz of DIR (its parent as the root), with its .sha256.
pack() {
  local dir="$1" archive="$2"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
    -C "$(dirname "$dir")" -cf - "$(basename "$dir")" | gzip "$gzip_level" -n >"$archive"
  checksum "$archive"
}
checksum() {
  (cd "$(dirname "$1")" && sha256sum "$(basename "$1")" >"$(basename "$1").sha256")
  say "$(basename "$1"): $(stat -c %s "$1") bytes"
}
# build PACKAGE BIN [cargo options]: the binary, unless LUDUS_PREBUILT.
build() {
  local package="$1" bin="$2"
  shift 2
  if [ -n "$prebuilt" ]; then
    [ -x "$bindir/$bin" ] || fail "LUDUS_PREBUILT is set but $bindir/$bin was not built"
    return
  fi
  say "cargo build --profile $profile -p $package --bin $bin"
  cargo build --locked --profile "$profile" -p "$package" --bin "$bin" "$@"
}
licences() {
  mkdir -p "$1/licences"
  cp LICENSE-MIT LICENSE-APACHE "$1/"
  cp assets/fonts/DejaVu-LICENSE.txt assets/fonts/EBGaramond-LICENSE.txt "$1/licences/"
}

# --- the game for Linux -------------------------------------------------------------------------
if wants linux; then
  build ludus ludus
  name="ludus-$version-linux-x86_64"
  stage="$work/$name"
  mkdir -p "$stage"
  install -m 0755 "$bindir/ludus" "$stage/ludus"
  install -m 0644 README.md CHANGELOG.md release/files/ludus.desktop release/files/ludus.png "$stage/"
  install -m 0644 release/files/INSTALL-linux.txt "$stage/INSTALL.txt"
  licences "$stage"
  pack "$stage" "$dist/$name.tar.gz"

  say "cargo deb"
  deb="$dist/ludus_${version}_amd64.deb"
  SOURCE_DATE_EPOCH="$epoch" cargo deb --locked --no-build -p ludus --profile "$profile" --deb-version "$version" "${deb_fast[@]}" \
    --output "$deb"
  checksum "$deb"
fi

# --- the browser game ---------------------------------------------------------------------------
web_dir="$work/web"
if wants web || wants server; then
  if [ -n "$prebuilt" ] && [ -f "${LUDUS_WEB_PREBUILT:-web/dist}/index.html" ]; then
    cp -r "${LUDUS_WEB_PREBUILT:-web/dist}" "$web_dir"
  else
    say "web/build.sh"
    LUDUS_WEB_DIST="$web_dir" bash web/build.sh
  fi
  rm -f "$web_dir/.built"
fi
if wants web; then
  name="ludus-$version-web"
  rm -f "$dist/$name.zip"
  mkdir -p "$work/$name"
  cp -r "$web_dir/." "$work/$name/"
  licences "$work/$name"
  (cd "$work" && find "$name" -exec touch -h -d "@$epoch" {} + &&
    find "$name" -print | LC_ALL=C sort | zip -X -q -9 "$dist/$name.zip" -@)
  checksum "$dist/$name.zip"
fi

# --- the server ---------------------------------------------------------------------------------
if wants server; then
  build ludus-server ludus-server
  name="ludus-server-$version-linux-x86_64"
  stage="$work/$name"
  mkdir -p "$stage"
  install -m 0755 "$bindir/ludus-server" "$stage/ludus-server"
  install -m 0644 crates/server/README.md "$stage/README.md"
  install -m 0644 CHANGELOG.md deploy/systemd/ludus-server.service deploy/container/Containerfile \
    deploy/container/compose.yaml "$stage/"
  install -m 0644 release/files/INSTALL-server.txt "$stage/INSTALL.txt"
  cp -r "$web_dir" "$stage/web"
  licences "$stage"
  if command -v systemd-analyze >/dev/null 2>&1; then
    # The unit as installed, with the binary where it says: systemd-analyze checks it exists.
    sed "s#/usr/local/bin/ludus-server#$stage/ludus-server#" deploy/systemd/ludus-server.service \
      >"$work/ludus-server.service"
    systemd-analyze verify "$work/ludus-server.service"
    say "systemd-analyze verify: the unit is valid"
  else
    say "systemd-analyze is not installed (apt-get install systemd): the unit was not verified"
  fi
  pack "$stage" "$dist/$name.tar.gz"
fi

say "done: $dist"
ls -l "$dist"
