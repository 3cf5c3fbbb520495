#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The load-time choice of GF(2^8) implementation, in a real kernel.
#
#   bench/gf/kernel.sh OUTDIR
#
# Run as root where ecproxy.ko can be loaded: in the test VM (make bench-gf
# VM=1) or on a real machine.  Loads the module with a longer load-time
# benchmark, and checks that gf_impl=auto picked the implementation with
# the highest figure in gf_bench (avx512 is never picked on Intel
# Skylake-SP, see kmod/gf_avx512.c).  Under qemu's TCG the vector code is
# emulated, so this checks the mechanism, not the speed; the speed on the
# real CPU is bench/gf/run.sh's.  Writes OUTDIR/gf-kernel.txt.
#
# Environment: ECP_KO (ecproxy.ko to insmod; default modprobe ecproxy),
# BENCH_GF_MS (benchmark time per implementation, ms, default 50).
set -euo pipefail

out=${1:?usage: bench/gf/kernel.sh OUTDIR}
ms=${BENCH_GF_MS:-50}
param=/sys/module/ecproxy/parameters
if [ -e /sys/module/ecproxy ]; then
	echo "gf kernel check: ecproxy is already loaded; unload it first" >&2
	exit 1
fi
mkdir -p "$out"
if [ -n "${ECP_KO:-}" ]; then
	# insmod loads no dependency (nf_defrag_ipv4): modprobe them.
	# shellcheck disable=SC2046 # a list of module names
	modprobe -a $(modinfo -F depends "$ECP_KO" | tr , ' ') &&
	insmod "$ECP_KO" gf_bench_ms="$ms"
else
	modprobe ecproxy gf_bench_ms="$ms"
fi
bench=$(cat $param/gf_bench)
active=$(cat $param/gf_impl)
rmmod ecproxy

best=$(tr ' ' '\n' <<< "$bench" | awk -F: '$2 > b { b = $2; n = $1 } END { print n }')
{
	echo "kernel $(uname -r), CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	echo "load-time benchmark (MB/s, 0 = not usable): $bench"
	echo "picked: $active; highest figure: $best"
} | tee "$out/gf-kernel.txt"
skylake_sp() { grep -q GenuineIntel /proc/cpuinfo && grep -qE '^model[[:space:]]*: 85$' /proc/cpuinfo; }
if [ "$active" != "$best" ] && ! { [ "$best" = avx512 ] && skylake_sp; }; then
	echo "gf kernel check: FAILED: auto picked $active, not $best" | tee -a "$out/gf-kernel.txt"
	exit 1
fi
echo "gf kernel check: ok" | tee -a "$out/gf-kernel.txt"
