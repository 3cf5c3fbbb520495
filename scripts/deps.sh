#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian 12 packages that building, testing, the demo and the
# benchmarks need.  Idempotent: does nothing (and needs no network or root)
# when everything is present.
set -euo pipefail

pkgs=(
	# build
	build-essential pkg-config bc bison flex libelf-dev libssl-dev kmod cpio
	xz-utils python3 dwarves
	# kernels: the stock one users run, and the source of the debug kernel
	linux-headers-amd64 linux-image-amd64 linux-source-6.1
	# VM and tests
	qemu-system-x86 busybox-static iproute2 socat ethtool jq procps
	psmisc util-linux iputils-ping
	# hostile-input tests: crafted packets and SYN floods
	python3-scapy
	# userspace libraries and oracles
	libmnl-dev libjson-c-dev libisal-dev libjerasure-dev libgf-complete-dev
	# docs and plots
	groff man-db gnuplot-nox
	# packaging test
	dkms
)

missing=()
for p in "${pkgs[@]}"; do
	s=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$s" = installed ] || missing+=("$p")
done

# Headers and image must be the same kernel: modules are built against one
# and loaded into the other.
hdr=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null | sed -n 's/.*linux-headers-\([0-9][^ ,]*-amd64\).*/\1/p')
if [ -n "$hdr" ] && [ ! -e "/boot/vmlinuz-$hdr" ]; then
	missing+=("linux-image-$hdr-unsigned")
fi

[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >&2
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
