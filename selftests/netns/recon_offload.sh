#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Segmentation offloads and MTUs.  With TSO/GSO on, a source's veth can
# hand S GSO packets of up to 64 KiB (and A's side hands S its requests
# the same way); with them off, every segment is at most one MSS.
# Fragments must come out byte-exact whatever the shape, at MTU 1500, MTU
# 9000, and with a different MTU on every source link (S clamps the MSS it
# offers each source to its own link and tells A the smallest).  With the
# offloads off, the per-source segment counts show that no source sent
# more than its MSS (the clamp took).  ../lib/topo.sh with RS(3,2).
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

topo_init rco
pp modprobe ecproxy
topo_setup 1 3 || exit 1

# offload on|off [tx]: TSO, GSO and GRO on every veth end, and checksum
# offload on, or with tx: tx and rx checksum offload off, so that senders
# compute checksums in software (S's own segments included) and veth does
# not mark what it delivers as verified: S must check every sum itself.
ethk() {
	ip netns exec "$1" ethtool -K "$2" "${@:3}"
}
offload() {
	local csum=on
	[ "${2:-}" != tx ] || csum=off
	topo_each_link ethk tx $csum rx $csum tso "$1" gso "$1" gro "$1"
}

# mtus A B1 B2 B3: MTU of S's link to A and to each source.
mtus() {
	topo_mtu a1 "$1" && topo_mtu b1 "$2" && topo_mtu b2 "$3" && topo_mtu b3 "$4"
}

# shape ID MSS1 MSS2 MSS3: no segment from source i exceeded the MSS S
# offered it (MSSi), as it must be with the offloads off.  With them on,
# how many GSO packets reach S depends on the windows and the senders'
# TSO sizing, so the counts are only shown.
shape() {
	local id=$1 i segs bytes ok=0
	shift
	for i in 0 1 2; do
		segs=$(ec_stats "$id" ".sources[$i].stats.segs_in")
		bytes=$(ec_stats "$id" ".sources[$i].stats.bytes_in")
		echo "# task $id source $i: $bytes bytes in $segs segments, MSS $1"
		[ $((segs * $1)) -ge "$bytes" ] || ok=1
		shift
	done
	return $ok
}

size=$((3 * (384 << 10)))
id=1
# case_ DESC on|off[,tx] A-MTU B1 B2 B3: configure the links, rebuild a
# fragment and check the segment shapes.  The MSS S offers source i is
# min(A's MSS, its own link's MTU - 40).
case_() {
	local desc=$1 mode=${2%,tx} tx=${2#*,} i amss mss=()
	[ "$tx" != "$2" ] || tx=
	if ! pp mtus "$3" "$4" "$5" "$6" || ! pp offload "$mode" $tx; then
		tap_fail "$desc: configure links" "mtu $3/$4/$5/$6, offloads $2"
		id=$((id + 1))
		return
	fi
	amss=$(($3 - 40))
	for i in $4 $5 $6; do
		mss+=($(((i - 40) < amss ? i - 40 : amss)))
	done
	ec_recon "$desc, 384 KiB" $id isal-cauchy 3 2 $((id % 5)) $size
	if ! shape $id "${mss[@]}" && [ "$mode" = off ]; then
		tap_fail "$desc: no segment from a source above its MSS"
	elif [ "$mode" = off ]; then
		tap_ok "$desc: no segment from a source above its MSS"
	fi
	id=$((id + 1))
}

# MTU 1500 with offloads on is every other recon file's topology, and
# MTU 9000 with offloads off is in the mixed case's sources.
case_ "MTU 1500, offloads off" off 1500 1500 1500 1500
case_ "MTU 1500, offloads and checksum offload off" off,tx 1500 1500 1500 1500
case_ "MTU 9000, offloads on" on 9000 9000 9000 9000
case_ "MTU A 9000, sources 1500/9000/1280, offloads off" off \
	9000 1500 9000 1280
case_ "MTU A 9000, sources 1500/9000/1280, offloads on" on \
	9000 1500 9000 1280
case_ "MTU A 1280, sources 9000/1500/9000, offloads on" on \
	1280 9000 1500 9000

# MSS edges at MTU 9000: fragments of MSS - 1, MSS and MSS + 1 bytes.
pp mtus 9000 9000 9000 9000 && pp offload on
for f in 8959 8960 8961; do
	ec_recon "MTU 9000, fragment of $f bytes" $id jerasure-rs 3 2 0 $((3 * f))
	id=$((id + 1))
done

tap_done
