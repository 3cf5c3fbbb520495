#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The wide codes: RS(10,4) and RS(12,4) with both profiles, ISA-L Cauchy
# (HDFS) and Jerasure Vandermonde (Ceph), each with a lost data fragment
# and a lost parity fragment; the task's coefficients come from
# `ecctl task add ... code`.  Up to twelve sources: ../lib/topo.sh with
# B1..B12.
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

topo_init rcc
pp modprobe ecproxy
topo_setup 1 12 || exit 1

id=1
for profile in isal-cauchy jerasure-rs; do
	for km in "10 4" "12 4"; do
		read -r k m <<< "$km"
		# Fragments of 64 KiB + 3: the stripe is not a multiple of k.
		size=$((k * ((64 << 10) + 3) - 1))
		# A data fragment in the middle, then the last parity.
		for lost in $((k / 2)) $((k + m - 1)); do
			if [ $lost -lt $k ]; then
				what="data"
			else
				what="parity"
			fi
			ec_recon "$profile RS($k,$m) lost $what fragment $lost" \
				$id $profile $k $m $lost $size
			id=$((id + 1))
		done
	done
done

# The last case's task: every one of the twelve sources contributed the
# whole fragment, and A got it once.
frag=$(stat -c %s "$tmp/$((id - 1))/frag.0")
got=$(ec_stats $((id - 1)) '[.sources[].stats.bytes_in] | map(select(. == '"$frag"')) | length')
out=$(ec_stats $((id - 1)) .stats.bytes_out)
if [ "$got" = 12 ] && [ "$out" = "$frag" ]; then
	tap_ok "RS(12,4): $frag bytes in from each of 12 sources, $out out"
else
	tap_fail "RS(12,4): $frag bytes in from each of 12 sources" \
		"$got sources complete, $out bytes out"
fi

tap_done
