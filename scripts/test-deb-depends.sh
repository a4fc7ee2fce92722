#!/usr/bin/env bash
# test-deb-depends.sh DEB — proves the package's Depends on a clean Debian 12:
# debootstraps a minimal bookworm into a temp dir (as root; needs the
# debootstrap package and the Debian mirror), installs the .deb there with
# apt-get (which pulls exactly what Depends names), checks that every shared
# library the binary needs resolves, and starts the app under Xvfb inside the
# chroot (xvfb and dbus are added for the test only) until its front end
# painted. Prints how long each stage took.
set -euo pipefail
deb=$(realpath "${1:?usage: test-deb-depends.sh DEB}")
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
root=$(mktemp -d /tmp/boof-chroot.XXXXXX)
mounted=()
cleanup() {
	for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done
	rm -rf --one-file-system "$root"
}
trap cleanup EXIT
stage() { echo "deb-depends: $1 ($(( $(date +%s) - t0 )) s)"; t0=$(date +%s); }
t0=$(date +%s); start=$t0
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 || { tail -20 "$root.debootstrap.log"; exit 1; }
rm -f "$root.debootstrap.log"
stage "debootstrap bookworm minbase"
for m in proc sys dev; do mount --bind "/$m" "$root/$m"; mounted=("$root/$m" "${mounted[@]}"); done
cp "$deb" "$root/tmp/"
inroot() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive "$@"; }
inroot apt-get update -qq
inroot apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")" >"$root/tmp/apt.log" 2>&1 || { tail -30 "$root/tmp/apt.log"; exit 1; }
echo "deb-depends: apt-get pulled $(grep -c '^Setting up' "$root/tmp/apt.log") packages"
stage "apt-get install ./$(basename "$deb")"
if inroot ldd /usr/bin/boof-runner /usr/lib/boof-runner/boof-runner-desktop | grep "not found"; then
	echo "deb-depends: shared libraries missing" >&2
	exit 1
fi
inroot boof-runner --version
stage "every shared library resolves"
inroot apt-get install -y -qq --no-install-recommends xvfb xauth dbus >/dev/null 2>&1
stage "xvfb and dbus for the test"
cat >"$root/tmp/start.sh" <<'SH'
set -eu
Xvfb -displayfd 1 -screen 0 1280x800x24 -nolisten tcp >/tmp/display 2>/dev/null &
x=$!
for _ in $(seq 100); do [ -s /tmp/display ] && break; sleep 0.1; done
mkdir -p /tmp/run && chmod 700 /tmp/run
export DISPLAY=":$(head -n1 /tmp/display)" XDG_RUNTIME_DIR=/tmp/run NO_AT_BRIDGE=1
dbus-run-session -- boof-runner --data-dir /tmp/data >/tmp/app.log 2>&1 &
app=$!
for _ in $(seq 600); do grep -q "window: first paint" /tmp/app.log && break; sleep 0.1; done
ok=0; grep -q "window: first paint" /tmp/app.log && ok=1
kill $app 2>/dev/null || true; wait $app 2>/dev/null || true
kill $x 2>/dev/null || true
[ $ok = 1 ] || { cat /tmp/app.log; exit 1; }
SH
inroot sh /tmp/start.sh
stage "the app painted its window inside the chroot"
echo "deb-depends: ok in $(( $(date +%s) - start )) s"
