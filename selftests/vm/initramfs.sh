#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest's initramfs: static busybox, selftests/vm/init, and for
# the stock kernel the modules needed to reach the host's root over 9p.
# Prints its path.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
flavour=$1 kver=$2
out=$top/build/vm/initramfs-$flavour-$kver.cpio.gz
busybox=/bin/busybox
[ -x "$busybox" ] && "$busybox" --list >/dev/null || { echo "initramfs: busybox-static missing" >&2; exit 1; }

# The order matters: insmod does not resolve dependencies.
mods=()
if [ "$flavour" = debian ]; then
	mods=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev
	      virtio_pci 9pnet 9pnet_virtio netfs fscache 9p overlay)
fi

if [ -e "$out" ] && [ "$out" -nt "$top/selftests/vm/init" ] && [ "$out" -nt "$0" ]; then
	echo "$out"
	exit 0
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,newroot,lib/mods}
cp "$busybox" "$stage/bin/busybox"
cp "$top/selftests/vm/init" "$stage/init"
chmod 755 "$stage/init"
for m in "${mods[@]}"; do
	# No match (or no such directory) is reported below, not by pipefail.
	f=$(find "/lib/modules/$kver/kernel" -name "$m.ko*" 2>/dev/null | head -1) || true
	[ -n "$f" ] || { echo "initramfs: module $m not found for $kver" >&2; exit 1; }
	case "$f" in
	*.xz) xz -dc "$f" > "$stage/lib/mods/$m.ko" ;;
	*.zst) zstd -qdc "$f" > "$stage/lib/mods/$m.ko" ;;
	*) cp "$f" "$stage/lib/mods/$m.ko" ;;
	esac
	echo "$m" >> "$stage/lib/mods/order"
done
(cd "$stage" && find . | cpio -o -H newc -R 0:0 --quiet | gzip -1) > "$out.$$.tmp"
mv "$out.$$.tmp" "$out"
echo "$out"
