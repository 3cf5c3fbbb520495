#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module selftests/pkg/dkms.sh built and installed with DKMS on the
# host (build/dkms/ecproxy.ko), loaded where DKMS puts it in the stock
# Debian kernel it was built for: modprobe picks it over the harness's
# copy, it loads and registers its netlink family, and it unloads.  Runs in
# the VM (selftests/vm/run --kernel debian), as a file of selftests/netns/run.sh.
set -u
. "$(dirname "$0")/../lib/tap.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
kver=$(uname -r)
ko=$top/build/dkms/ecproxy.ko
dest=/lib/modules/$kver/updates/dkms

if [ ! -e "$ko" ] || [ "$(cat "$top/build/dkms/kver" 2>/dev/null)" != "$kver" ]; then
	tap_fail "a DKMS-built module for $kver" \
		"no $ko for $kver: run selftests/pkg/dkms.sh (make check's dkms stage) first"
	tap_done
	exit
fi

# depmod takes 40 s under TCG: only when the test stopped half-way.
cleanup() {
	modprobe -r ecproxy 2>/dev/null
	[ ! -e "$dest/ecproxy.ko" ] || { rm -f "$dest/ecproxy.ko"; depmod -a "$kver"; }
}
trap cleanup EXIT

pp mkdir -p "$dest"
pp cp "$ko" "$dest/ecproxy.ko"
pp depmod -a "$kver"
tap_check "modprobe picks the DKMS module" \
	sh -c "modinfo -n ecproxy | grep -q '/updates/dkms/ecproxy.ko'"
tap_check "the DKMS module loads" modprobe ecproxy
tap_check "and registers its netlink family" genl ctrl get name ecproxy
tap_check "unload" modprobe -r ecproxy
pp rm -f "$dest/ecproxy.ko"
pp depmod -a "$kver"
tap_check "the harness's copy is back" \
	sh -c "modinfo -n ecproxy | grep -q '/extra/ecproxy.ko'"
tap_done
