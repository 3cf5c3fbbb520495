#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The wide codes: RS(10,4) with ISA-L Cauchy (HDFS) and a lost data
# fragment, RS(12,4) with Jerasure Vandermonde (Ceph) and a lost parity
# fragment; the task's coefficients come from `ecctl task add ... code`.  Up to twelve sources: ../lib/topo.sh with
# B1..B12.
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

topo_init rcc
pp modprobe ecproxy
topo_setup 1 12 || exit 1

# A data fragment in the middle of RS(10,4), then the last parity of
# RS(12,4), twelve sources.  Other profiles and lost fragments only
# change the k coefficients, which ecctl computes (the tools' oracle tests
# check every loss pattern against ISA-L and Jerasure); the other recon
# files run the same kernel path with RS(3,2) and RS(6,3).
id=1
for c in "isal-cauchy 10 4 5" "jerasure-rs 12 4 15"; do
	read -r profile k m lost <<< "$c"
	# Fragments of 64 KiB + 3: the stripe is not a multiple of k.
	size=$((k * ((64 << 10) + 3) - 1))
	if [ "$lost" -lt "$k" ]; then
		what="data"
	else
		what="parity"
	fi
	ec_recon "$profile RS($k,$m) lost $what fragment $lost" \
		$id "$profile" "$k" "$m" "$lost" $size
	id=$((id + 1))
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
