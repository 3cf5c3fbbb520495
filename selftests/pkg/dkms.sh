#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS from the source tree, as a user on a real box does it, for the stock
# Debian kernel the VM boots: dkms add, build, install; modinfo then finds
# the DKMS-built module; dkms remove.  It runs on the host, where gcc is
# real: under TCG the build alone took a quarter of an hour of make check.
# Its own mount namespace gives /usr/src, /var/lib/dkms and the kernel's
# /lib/modules writable overlays, so the host keeps none of it.  The module
# it built is left in build/dkms/ for selftests/pkg/dkms_load.sh, which
# loads it in the VM (this host may not load modules at all).
#
# Needs root: as another user it asks sudo, as scripts/deps.sh does.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${ECP_DKMS_NS:-}" != 1 ]; then
	sudo=
	[ "$(id -u)" = 0 ] || sudo="sudo ECP_DKMS_NS=1"
	# In a chroot "/" is no mount point, and its propagation cannot be
	# changed; then the new namespace may keep the old one's only when
	# no mount is shared, so that nothing mounted here reaches the host.
	prop=private
	if ! $sudo unshare --mount --propagation private true 2>/dev/null; then
		prop=unchanged
		if grep -q ' shared:' /proc/self/mountinfo; then
			echo "dkms.sh: in a chroot whose host shares mounts: cannot keep the overlays private" >&2
			exit 1
		fi
	fi
	ECP_DKMS_NS=1 exec $sudo unshare --mount --propagation $prop "$0" "$@"
fi
. "$top/selftests/lib/tap.sh"

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
kver=$("$top/scripts/kernel.sh" debian-kver 2>/dev/null)
out=$top/build/dkms
scratch=
cleanup() {
	[ -n "$scratch" ] && rm -rf "$scratch"
}
trap cleanup EXIT

if ! command -v dkms >/dev/null || [ -z "$kver" ] ||
	[ ! -e "/lib/modules/$kver/build/Makefile" ]; then
	tap_skip "dkms add, build, install" "no dkms or no Debian kernel headers (scripts/deps.sh)"
	tap_done
	exit
fi

scratch=$(mktemp -d)
overlay() {
	mkdir -p "$scratch/$2/up" "$scratch/$2/work"
	mount -t overlay overlay \
		-o "lowerdir=$1,upperdir=$scratch/$2/up,workdir=$scratch/$2/work" "$1"
}
moddir=$(readlink -f "/lib/modules/$kver")
pp mkdir -p /var/lib/dkms 2>/dev/null
tap_check "writable /usr/src, /var/lib/dkms and /lib/modules/$kver" \
	sh -c "$(declare -f overlay); scratch=$scratch; overlay /usr/src src &&
		overlay /var/lib/dkms dkms && overlay $moddir modules"
# dkms wants the sources as /usr/src/NAME-VERSION.
pp mkdir -p "/usr/src/ecproxy-$ver"
pp cp -r "$top/Kbuild" "$top/Makefile" "$top/dkms.conf" "$top/kmod" "$top/uapi" "$top/scripts" \
	"/usr/src/ecproxy-$ver/"
pp find "/usr/src/ecproxy-$ver" \( -name '*.o' -o -name '*.ko' -o -name '*.cmd' -o -name '*.mod*' \) -delete
# DKMS refuses to install a version that is not newer than one already
# present: a `make install` of this tree would be one (in the overlay only).
pp rm -f "$moddir/extra/ecproxy.ko"
pp depmod -a "$kver"
tap_check "dkms add" dkms add "ecproxy/$ver"
tap_check "dkms build for $kver" dkms build "ecproxy/$ver" -k "$kver"
tap_check "dkms install" dkms install "ecproxy/$ver" -k "$kver"
tap_check "dkms status shows it installed" \
	sh -c "dkms status ecproxy | grep -q 'ecproxy/$ver, $kver, .*: installed'"
tap_check "modinfo finds the DKMS module for $kver" \
	sh -c "modinfo -k $kver -n ecproxy | grep -q '/updates/dkms/ecproxy.ko'"
tap_check "its vermagic is $kver's" \
	sh -c "modinfo -k $kver -F vermagic ecproxy | grep -q '^$kver '"
rm -rf "$out"
mkdir -p "$out"
tap_check "the DKMS module kept for the VM" \
	cp "$(modinfo -k "$kver" -n ecproxy)" "$out/ecproxy.ko"
echo "$kver" > "$out/kver"
# Under sudo, build/ stays its owner's.
[ -z "${SUDO_UID:-}" ] || chown -R "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" "$out"
tap_check "dkms remove" dkms remove "ecproxy/$ver" --all
tap_check "dkms removed the module" sh -c "! modinfo -k $kver -n ecproxy 2>/dev/null"
tap_done
