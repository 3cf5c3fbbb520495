#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Facts about the stock Debian kernel the VM boots:
#   kernel.sh debian-kver    its release, e.g. 6.1.0-56-amd64
#   kernel.sh debian-kdir    its headers (KDIR for module builds)
#   kernel.sh debian-image   its vmlinuz
# The newest installed headers whose image is installed too: modules built
# against one are loaded into the other.
set -euo pipefail

kver=
for d in $(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V -r); do
	v=${d#/usr/src/linux-headers-}
	if [ -e "/boot/vmlinuz-$v" ] && [ -d "/lib/modules/$v/kernel" ]; then
		kver=$v
		break
	fi
done
[ -n "$kver" ] || { echo "kernel.sh: no matching linux-headers/linux-image pair; run scripts/deps.sh" >&2; exit 1; }

case "${1:-}" in
debian-kver) echo "$kver" ;;
debian-kdir) echo "/usr/src/linux-headers-$kver" ;;
debian-image) echo "/boot/vmlinuz-$kver" ;;
*) echo "usage: kernel.sh debian-kver|debian-kdir|debian-image" >&2; exit 2 ;;
esac
