#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian 12 packages that building, testing, the demo and the
# benchmarks need.  Idempotent: does nothing (and needs no network or root)
# when everything is present.  Works on a machine that has none of them:
# every query below may legitimately fail (a package not installed yet), so
# none of them runs where `set -e` or `pipefail` would end the script.
# selftests/setup/deps.sh runs it against a simulated empty machine.
set -eu

pkgs=(
	# build
	build-essential pkg-config bc bison flex libelf-dev libssl-dev kmod cpio
	sparse
	xz-utils python3 dwarves
	# kernels: the stock one users run, and the source of the debug kernel
	linux-headers-amd64 linux-image-amd64 linux-source-6.1
	# VM and tests
	qemu-system-x86 busybox-static iproute2 socat ethtool jq procps
	psmisc util-linux iputils-ping nftables iptables conntrack tcpdump
	# hostile-input tests: crafted packets and SYN floods
	python3-scapy
	# userspace libraries and oracles
	libmnl-dev libjson-c-dev libisal-dev libjerasure-dev libgf-complete-dev
	# docs and plots
	groff man-db gnuplot-nox
	# packaging test
	dkms
)

installed() { # PKG: is it installed? (false for a package dpkg never saw)
	local s
	s=$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null) || return 1
	[ "$s" = installed ]
}

# The versioned package a metapackage (linux-headers-amd64) stands for:
# from dpkg when it is installed, else from apt's candidate.  Prints
# nothing when neither knows.
abi_of() {
	local deps=
	if installed "$1"; then
		deps=$(dpkg-query -W -f='${Depends}' "$1" 2>/dev/null) || deps=
	else
		deps=$(apt-cache depends "$1" 2>/dev/null) || deps=
	fi
	sed -n 's/.*linux-headers-\([0-9][^ ,]*-amd64\).*/\1/p' <<<"$deps" | head -n 1
}

missing=()
for p in "${pkgs[@]}"; do
	installed "$p" || missing+=("$p")
done

# Headers and image must be the same kernel: modules are built against one
# and loaded into the other.  A headers metapackage that moved on while the
# image stayed behind is the usual way they part.
image_for_headers() {
	local abi
	abi=$(abi_of linux-headers-amd64)
	if [ -n "$abi" ] && [ ! -e "/boot/vmlinuz-$abi" ]; then
		echo "linux-headers-$abi linux-image-$abi"
	fi
}
pair=$(image_for_headers)

[ ${#missing[@]} -eq 0 ] && [ -z "$pair" ] && exit 0

sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >&2
# After the update apt knows which headers the metapackage brings.
pair=$(image_for_headers)
# shellcheck disable=SC2206 # two package names, split on purpose
missing+=($pair)
echo "deps: installing ${missing[*]}" >&2
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
