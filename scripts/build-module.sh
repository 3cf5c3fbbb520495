#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build ecproxy.ko for one kernel flavour into build/FLAVOUR/, apart from the
# in-place build that `make` and DKMS do, so that modules for the stock and
# the debug kernel can coexist.
#   debian: against the installed linux-headers-amd64
#   debug:  against the cached debug kernel, with the KUnit module
# Prints the directory holding the .ko files.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
flavour=${1:?usage: build-module.sh debian|debug}
case "$flavour" in
debian)
	kdir=$("$top/scripts/kernel.sh" debian-kdir)
	extra=()
	;;
debug)
	kdir=$("$top/scripts/debug-kernel.sh")
	extra=(ECP_KUNIT=y)
	;;
*)
	echo "build-module.sh: unknown flavour $flavour" >&2
	exit 2
	;;
esac

out=$top/build/$flavour
mkdir -p "$out"
# make check runs VMs of one flavour in parallel: one build at a time.
exec 9> "$out.lock"
flock 9
# Copy with timestamps so that make rebuilds only what changed.
(cd "$top" && find Kbuild kmod uapi \( -name '*.[ch]' -o -name Kbuild \) -print0 |
	xargs -0 cp -pu --parents -t "$out")
make -s -C "$kdir" M="$out" W=1 KCFLAGS=-Werror "${extra[@]}" modules >&2 2> >(grep -v 'Skipping BTF generation' >&2)
echo "$out"
