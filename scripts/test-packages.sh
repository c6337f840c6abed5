#!/usr/bin/env bash
# ./dev test-packages [debian12|debian13 ...]: the Debian packages proved on clean machines
# (docs/packaging.md). For each Debian release (default: both):
#   1. the packages are built on that release (Debian 12: here, `./dev package`; Debian 13: in
#      the cached chroot of ./dev test-qt6.8), twice, with Debian revisions 1 and 2;
#   2. `lintian` reads them (errors fail the run; warnings are printed);
#   3. a fresh chroot of the release (debootstrap, kept as a tarball in the cache and unpacked
#      anew for every run) installs revision 1 with `apt-get install ./*.deb`, builds
#      tests/consumer/project and tests/packages/app (copied alone: no source tree is visible)
#      and runs them: the C++ apps fetch, the QML app shows rows offscreen with no import path,
#      and `qmllint` reads the app's QML against the installed module;
#   4. revision 2 is installed over revision 1 and the apps run again;
#   5. `apt-get purge` removes everything, and no file of ours is left behind.
# Needs root (debootstrap, mount, chroot) and Debian's mirror.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ "$(id -u)" -ne 0 ]; then
  exec sudo --preserve-env=DATACLIENT_CACHE_DIR,DATACLIENT_DEBIAN_MIRROR "$0" "$@"
fi

src=$PWD
mirror=${DATACLIENT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${DATACLIENT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dataclient}
out=$src/build/packages
releases=("$@")
[ ${#releases[@]} -gt 0 ] || releases=(debian12 debian13)
# What a user installs beside our packages to build an app: the compiler and CMake, and the
# tools the check uses (qmllint).
user_packages=(cmake ninja-build g++ qt6-declarative-dev-tools)
ours=(libdataclient-dev qml6-module-dataclient qml6-module-dataclient-testing)

say() { echo "test-packages: $*"; }
mounts=()
unmount_all() {
  local m
  for m in "${mounts[@]}"; do
    findmnt -rn -o TARGET | awk -v p="$m" '$0 == p || index($0, p "/") == 1' | sort -r |
      while read -r t; do umount "$t" 2>/dev/null || umount -l "$t"; done
  done
  mounts=()
}
trap unmount_all EXIT
trap 'exit 130' INT TERM

in_root() { # in_root <root> <command...>
  local root=$1
  shift
  chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/runtime "$@"
}
mount_basics() { # mount_basics <root>
  mounts+=("$1")
  mount -t proc proc "$1/proc"
  mount -t tmpfs -o mode=1777 shm "$1/dev/shm"
  mount --bind /dev/pts "$1/dev/pts"
  cp /etc/resolv.conf "$1/etc/resolv.conf"
  [ -s "$1/etc/hosts" ] || printf '127.0.0.1 localhost\n::1 localhost ip6-localhost\n' >"$1/etc/hosts"
}

# A fresh machine of <codename>: the debootstrap base is made once and kept as a tarball.
fresh_root() { # fresh_root <codename> <dir>
  local codename=$1 dir=$2 tarball=$cache/$1-base.tar
  if [ ! -s "$tarball" ]; then
    say "debootstrap $codename (once; kept in $tarball)"
    rm -rf --one-file-system "$dir.tmp"
    debootstrap --variant=minbase "$codename" "$dir.tmp" "$mirror" >/dev/null
    tar -C "$dir.tmp" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf --one-file-system "$dir.tmp"
  fi
  rm -rf --one-file-system "$dir"
  mkdir -p "$dir"
  tar -C "$dir" -xf "$tarball"
}

# 1. The packages, revisions 1 and 2, into $out/<release>/r1 and r2.
build_debian12() {
  local r
  for r in 1 2; do
    DATACLIENT_PACKAGE_RELEASE=$r ./dev package >"$out/debian12/build-r$r.log" 2>&1 ||
      { tail -30 "$out/debian12/build-r$r.log"; return 1; }
    mkdir -p "$out/debian12/r$r"
    cp build/package/*.deb "$out/debian12/r$r/"
  done
}
build_debian13() {
  local root=$cache/debian13-qt6.8 work=$out/debian13/build r
  ./scripts/test-qt6.8.sh --prepare # the chroot of ./dev test-qt6.8, with Qt 6.8
  # That chroot is test-qt6.8's: hold its lock while it is ours, or a ./dev test starting
  # meanwhile would unmount what this build reads and writes.
  exec 8>"$cache/lock"
  flock -n 8 || { say "waiting for ./dev test-qt6.8 to finish"; flock 8; }
  mount_basics "$root"
  in_root "$root" apt-get install -y -qq --no-install-recommends dpkg-dev file >/dev/null
  mkdir -p "$root/src" "$root/out" "$work"
  mount --bind "$src" "$root/src" && mount -o remount,bind,ro "$root/src"
  mount --bind "$work" "$root/out"
  for r in 1 2; do
    in_root "$root" bash -c "cmake -S /src -B /out -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_SKIP_INSTALL_RPATH=ON \
      -DDATACLIENT_PACKAGING=ON -DDATACLIENT_PACKAGE_RELEASE=$r -DDATACLIENT_BUILD_TESTS=OFF \
      -DDATACLIENT_BUILD_EXAMPLES=OFF -DDATACLIENT_BUILD_BENCH=OFF >/dev/null \
      && cmake --build /out >/dev/null && cd /out && rm -f *.deb && cpack -G DEB >/dev/null" \
      >"$out/debian13/build-r$r.log" 2>&1 || { tail -30 "$out/debian13/build-r$r.log"; return 1; }
    mkdir -p "$out/debian13/r$r"
    cp "$work"/*.deb "$out/debian13/r$r/"
  done
  unmount_all
  exec 8>&-
}

# 3-5. Install, build, run, upgrade, remove on a fresh machine.
prove() { # prove <release> <codename>
  local release=$1 codename=$2 root=$cache/$1-pkgtest
  fresh_root "$codename" "$root"
  mount_basics "$root"
  mkdir -p "$root/tmp/debs" "$root/tmp/apps"
  mkdir -p -m 700 "$root/tmp/runtime"
  cp "$out/$release"/r1/*.deb "$root/tmp/debs/"
  cp -r tests/consumer/project "$root/tmp/apps/consumer"
  cp -r tests/packages/app "$root/tmp/apps/app"
  say "$release: apt-get install ./*.deb (revision 1) and what a user builds with"
  in_root "$root" apt-get update -qq
  in_root "$root" bash -c 'apt-get install -y -qq --no-install-recommends /tmp/debs/*.deb '"${user_packages[*]}"' >/dev/null'
  # shellcheck disable=SC2016 # the inner script's variables are its own
  local run_apps='set -e
    for p in consumer app; do
      cmake -S /tmp/apps/$p -B /tmp/build/$p -G Ninja >/dev/null
      cmake --build /tmp/build/$p >/dev/null
    done
    /tmp/build/consumer/app
    /tmp/build/consumer/tst_app -silent
    /tmp/build/app/fetch-app | tail -1
    /tmp/build/app/qml-app
    /usr/lib/qt6/bin/qmllint /tmp/apps/app/Main.qml && echo "qmllint: Main.qml clean"'
  in_root "$root" bash -c "$run_apps"
  say "$release: revision 2 over revision 1"
  rm -f "$root"/tmp/debs/*.deb
  cp "$out/$release"/r2/*.deb "$root/tmp/debs/"
  in_root "$root" bash -c 'apt-get install -y -qq --no-install-recommends /tmp/debs/*.deb >/dev/null'
  # shellcheck disable=SC2016 # dpkg-query's field, not the shell's
  in_root "$root" dpkg-query -W -f='${Package} ${Version}\n' "${ours[@]}"
  in_root "$root" bash -c "rm -rf /tmp/build && $run_apps" >/dev/null
  say "$release: apt-get purge"
  in_root "$root" bash -c 'apt-get purge -y -qq $(dpkg-query -W -f="\${Package}\n" "*dataclient*") >/dev/null'
  local left
  left=$(cd "$root" && find usr etc var/lib/dpkg/info -ipath '*dataclient*' 2>/dev/null || true)
  if [ -n "$left" ]; then
    say "$release: left behind after purge:"
    echo "$left"
    return 1
  fi
  say "$release: nothing of ours left after purge"
  unmount_all
  rm -rf --one-file-system "$root"
}

check_lintian() { # check_lintian <release>
  local log=$out/$1/lintian.txt
  command -v lintian >/dev/null || apt-get install -y -qq --no-install-recommends lintian >/dev/null
  lintian --no-tag-display-limit "$out/$1"/r1/*.deb >"$log" 2>&1 || true
  say "$1: lintian: $(grep -c '^E:' "$log" || true) errors, $(grep -c '^W:' "$log" || true) warnings ($log)"
  cat "$log"
  ! grep -q '^E:' "$log"
}

for release in "${releases[@]}"; do
  case $release in
    debian12) codename=bookworm ;;
    debian13) codename=trixie ;;
    *) echo "test-packages: unknown release '$release' (expected debian12 or debian13)" >&2; exit 2 ;;
  esac
  start=$SECONDS
  rm -rf "$out/$release"
  mkdir -p "$out/$release"
  say "$release: building the packages (revisions 1 and 2)"
  "build_$release"
  check_lintian "$release"
  prove "$release" "$codename"
  say "$release: passed in $((SECONDS - start)) s"
done
