#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS from the source tree, as a user on a real box does it: dkms add,
# build, install; modprobe then loads the DKMS-built module; dkms remove.
# /usr/src and /var/lib/dkms get a writable overlay so the host stays clean.
set -u
. "$(dirname "$0")/../lib/tap.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
kver=$(uname -r)
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
scratch=

cleanup() {
	dkms remove ecproxy/"$ver" --all >/dev/null 2>&1
	modprobe -r ecproxy 2>/dev/null
	if [ -n "$scratch" ] && [ -e "$scratch/harness-ecproxy.ko" ]; then
		mv "$scratch/harness-ecproxy.ko" "/lib/modules/$kver/extra/ecproxy.ko"
		depmod -a "$kver"
	fi
	for d in /var/lib/dkms /usr/src; do
		mountpoint -q "$d" && umount "$d"
	done
	[ -n "$scratch" ] && rm -rf "$scratch"
}
trap cleanup EXIT

if ! command -v dkms >/dev/null || [ ! -e "/lib/modules/$kver/build/Makefile" ]; then
	tap_skip "dkms add, build, install" "no dkms or no headers for $kver"
	tap_done
	exit
fi

scratch=$(mktemp -d)
overlay() {
	mkdir -p "$scratch/$2/up" "$scratch/$2/work"
	mount -t overlay overlay \
		-o "lowerdir=$1,upperdir=$scratch/$2/up,workdir=$scratch/$2/work" "$1"
}
pp mkdir -p /var/lib/dkms 2>/dev/null
tap_check "writable /usr/src and /var/lib/dkms" \
	sh -c "$(declare -f overlay); scratch=$scratch; overlay /usr/src src && overlay /var/lib/dkms dkms"
# dkms wants the sources as /usr/src/NAME-VERSION.
pp mkdir -p "/usr/src/ecproxy-$ver"
pp cp -r "$top/Kbuild" "$top/Makefile" "$top/dkms.conf" "$top/kmod" "$top/uapi" "$top/scripts" \
	"/usr/src/ecproxy-$ver/"
pp find "/usr/src/ecproxy-$ver" \( -name '*.o' -o -name '*.ko' -o -name '*.cmd' -o -name '*.mod*' \) -delete
# The harness installed its own build as extra/ecproxy.ko; DKMS refuses to
# install a version that is not newer than one already present, so set that
# copy aside as a user's box would not have it.
harness_ko=/lib/modules/$kver/extra/ecproxy.ko
pp mv "$harness_ko" "$scratch/harness-ecproxy.ko"
pp depmod -a "$kver"
tap_check "dkms add" dkms add "ecproxy/$ver"
tap_check "dkms build" dkms build "ecproxy/$ver" -k "$kver"
tap_check "dkms install" dkms install "ecproxy/$ver" -k "$kver"
tap_check "dkms status shows it installed" \
	sh -c "dkms status ecproxy | grep -q 'ecproxy/$ver, $kver, .*: installed'"
tap_check "modprobe picks the DKMS module" \
	sh -c "modinfo -n ecproxy | grep -q '/updates/dkms/ecproxy.ko'"
tap_check "the DKMS module loads" modprobe ecproxy
tap_check "and registers its netlink family" genl ctrl get name ecproxy
tap_check "unload" modprobe -r ecproxy
tap_check "dkms remove" dkms remove "ecproxy/$ver" --all
tap_check "dkms removed the module" sh -c "! modinfo -n ecproxy 2>/dev/null"
pp mv "$scratch/harness-ecproxy.ko" "$harness_ko"
pp depmod -a "$kver"
tap_check "the harness's copy is back" \
	sh -c "modinfo -n ecproxy | grep -q '/extra/ecproxy.ko'"
tap_done
