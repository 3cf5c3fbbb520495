#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Compare the kernel GF(2^8) implementations with ISA-L in userspace.
#
#   bench/gf/run.sh OUTDIR
#
# Run as root inside the test VM (selftests/vm/run -- bench/gf/run.sh OUT)
# or on a real machine. Loads ecproxy with a longer init benchmark, reads
# each implementation's mul_acc MB/s from /sys/module/ecproxy/parameters/
# gf_bench, runs isal_bench (build it first: make -C bench/gf) on the same
# 4 KiB buffers, and writes OUTDIR/gf-bench.csv and OUTDIR/gf-bench.md.
#
# Environment:
#   ECP_KO          path of ecproxy.ko to insmod (default: modprobe ecproxy)
#   BENCH_GF_MS     benchmark time per implementation, ms (default 200)
#   ECP_ISAL_BENCH  path of isal_bench (default: next to this script)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: bench/gf/run.sh OUTDIR}
ms=${BENCH_GF_MS:-200}
isal=${ECP_ISAL_BENCH:-$here/isal_bench}
param=/sys/module/ecproxy/parameters/gf_bench

[ -x "$isal" ] || { echo "gf bench: $isal missing; run make -C bench/gf" >&2; exit 1; }
if [ -e /sys/module/ecproxy ]; then
	echo "gf bench: ecproxy is already loaded; unload it first" >&2
	exit 1
fi
mkdir -p "$out"

echo "gf bench: loading ecproxy with gf_bench_ms=$ms" >&2
if [ -n "${ECP_KO:-}" ]; then
	insmod "$ECP_KO" gf_bench_ms="$ms"
else
	modprobe ecproxy gf_bench_ms="$ms"
fi
kernel=$(cat "$param")
active=$(cat /sys/module/ecproxy/parameters/gf_impl)
rmmod ecproxy

isal_out=$("$isal" -l 4096 -t "$ms" -k 6)
mad=$(echo "$isal_out" | awk -F, '$1 == "gf_vect_mad" { print $3 }')
enc=$(echo "$isal_out" | awk -F, '$1 ~ /^ec_encode_data/ { print $3 }')

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
csv=$out/gf-bench.csv
md=$out/gf-bench.md
echo "impl,mul_acc_MBps,isal_gf_vect_mad_MBps,ratio_vs_mad,isal_ec_encode_k6_MBps,ratio_vs_encode,active" > "$csv"
{
	echo "GF(2^8) mul_acc, 4 KiB buffers, kernel $(uname -r), CPU: ${cpu:-unknown}"
	echo
	echo "| impl | kernel MB/s | ISA-L gf_vect_mad MB/s | ratio | ISA-L ec_encode_data k=6 MB/s | ratio |"
	echo "|---|---:|---:|---:|---:|---:|"
} > "$md"
for kv in $kernel; do
	impl=${kv%%:*} mbps=${kv#*:}
	if [ "$mbps" = 0 ]; then
		continue	# unusable on this CPU
	fi
	r1=$(awk -v a="$mbps" -v b="$mad" 'BEGIN { printf "%.2f", b ? a / b : 0 }')
	r2=$(awk -v a="$mbps" -v b="$enc" 'BEGIN { printf "%.2f", b ? a / b : 0 }')
	mark=$([ "$impl" = "$active" ] && echo yes || echo no)
	echo "$impl,$mbps,$mad,$r1,$enc,$r2,$mark" >> "$csv"
	echo "| $impl$([ "$mark" = yes ] && echo ' (active)') | $mbps | $mad | $r1 | $enc | $r2 |" >> "$md"
done
cat "$md"
