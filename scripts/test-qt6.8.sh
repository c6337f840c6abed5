#!/usr/bin/env bash
# ./dev test-qt6.8: build with the `dev` preset (warnings as errors) and run the whole suite
# against Qt 6.8 LTS, in a Debian 13 (trixie) chroot made by debootstrap from Debian's own mirror.
#
# The chroot is cached in ${DATACLIENT_CACHE_DIR:-~/.cache/dataclient}/debian13-qt6.8 (about
# 1.6 GB), with its Qt packages and a ccache of its builds: the first run spends 1-4 min making
# it, later runs reuse it (docs/performance.md, "CI time"). The checkout is bind-mounted read-only at /src; only build/qt6.8 (the
# `dev-qt68` preset's binaryDir) is writable, so the host's build folders are never touched.
# Needs root (debootstrap, mount, chroot). Safe to re-run after an interrupted run: stale mounts
# are removed first, and a half-made chroot is never taken for a finished one.
#
# --prepare: only make (or update) the chroot and its packages, then stop: `./dev test` runs
# that in the background while the Qt 6.4 builds use the CPU (it is network and disk bound).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ "$(id -u)" -ne 0 ]; then
  exec sudo --preserve-env=DATACLIENT_CACHE_DIR,DATACLIENT_DEBIAN_MIRROR "$0" "$@"
fi

src=$PWD
mirror=${DATACLIENT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${DATACLIENT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dataclient}
root=$cache/debian13-qt6.8
# The Debian 12 names of ./dev hold on Debian 13; doxygen so that docs_api_reference runs too,
# ccache so that a second run (a new clone, the same machine) compiles little; Django, Django
# REST Framework and django-filter (Debian 13's) so that tst_djangoserver runs there too.
packages=(cmake ninja-build g++ libboost-dev doxygen ccache
  qt6-base-dev qt6-declarative-dev qt6-declarative-dev-tools qt6-websockets-dev qt6-networkauth-dev
  qt6-httpserver-dev qml6-module-qtqml qml6-module-qtqml-models qml6-module-qtqml-workerscript
  qml6-module-qtquick qml6-module-qtquick-window qml6-module-qtquick-controls
  qml6-module-qtquick-templates qml6-module-qtquick-layouts qml6-module-qttest qcoro-qt6-dev
  python3-django python3-djangorestframework python3-django-filters)

stamp() { date +%s; }
t0=$(stamp)

mkdir -p "$cache"
# One run at a time per cache: two would mount over each other's /src.
exec 9>"$cache/lock"
flock -n 9 || { echo "test-qt6.8: waiting for another run to finish"; flock 9; }

# Unmounts everything under $1 (deepest first); lazily if something still holds it.
unmount_under() {
  local m
  findmnt -rn -o TARGET | awk -v p="$1/" 'index($0, p) == 1' | sort -r | while read -r m; do
    umount "$m" 2>/dev/null || umount -l "$m"
  done
}
cleanup() { unmount_under "$root"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
cleanup # an earlier run that was killed may have left its mounts

in_chroot() {
  chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"
}

# 1. The base system, made once. Into a temporary folder first: an interrupted debootstrap
#    leaves no folder that a later run would take for a finished one.
if [ ! -x "$root/usr/bin/apt-get" ]; then
  echo "test-qt6.8: debootstrap Debian 13 (trixie) into $root"
  unmount_under "$root.tmp" # debootstrap mounts proc and sys in its target while it runs
  rm -rf --one-file-system "$root.tmp" "$root"
  debootstrap --variant=minbase trixie "$root.tmp" "$mirror"
  mv "$root.tmp" "$root"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
[ -s "$root/etc/hosts" ] || printf '127.0.0.1 localhost\n::1 localhost ip6-localhost\n' >"$root/etc/hosts"

mount -t proc proc "$root/proc"
mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
mount --bind /dev/pts "$root/dev/pts" # apt logs through a pseudo-terminal

# 2. The packages, installed again only when the list changes.
want="${packages[*]}"
if [ "$(cat "$root/.dataclient-packages" 2>/dev/null)" != "$want" ]; then
  echo "test-qt6.8: installing Qt 6.8 packages in the chroot"
  in_chroot apt-get update -qq
  in_chroot apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
  in_chroot apt-get clean # the chroot itself is the cache; its .debs are not needed again
  echo "$want" >"$root/.dataclient-packages"
fi
t1=$(stamp)
if [ "${1:-}" = --prepare ]; then
  echo "test-qt6.8: chroot ready in $((t1 - t0)) s"
  exit 0
fi

# 3. The checkout, read-only, with its own build folder writable.
mkdir -p "$src/build/qt6.8" "$root/src"
mount --bind "$src" "$root/src"
mount -o remount,bind,ro "$root/src"
mount --bind "$src/build/qt6.8" "$root/src/build/qt6.8"

# shellcheck disable=SC2016 # ${Version} is dpkg-query's, not the shell's
echo "test-qt6.8: $(in_chroot dpkg-query -W -f='Qt ${Version}' qt6-base-dev)," \
  "$(in_chroot g++ --version | head -1)"
in_chroot bash -c 'cd /src && export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=/src \
  CCACHE_SLOPPINESS=pch_defines,time_macros CCACHE_MAXSIZE=2G \
  && cmake --preset dev-qt68 -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
  && cmake --build --preset dev-qt68'
t2=$(stamp)
in_chroot bash -c 'cd /src && ctest --preset dev-qt68'
t3=$(stamp)
echo "test-qt6.8: chroot $((t1 - t0)) s, build $((t2 - t1)) s, tests $((t3 - t2)) s"
