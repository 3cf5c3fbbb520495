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
# more than its MSS (the clamp took).  What S hands its link to A stays
# within that link's GSO limits (gso_max_size, gso_max_segs).
# ../lib/topo.sh with RS(3,2).
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

# gso_limit DESC SETTING MAX: S's link to A set to take GSO packets
# within SETTING (ip link words), a read, and what S handed that link
# (counted at POSTROUTING, before the device's checks): packets of more
# than one segment, none longer than MAX bytes.  The core cuts in
# software what goes past a device's limits (gso_features_check()), as
# TSO would have, at a CPU cost that Linux's TCP never asks for: it
# builds within them (sk_setup_caps()).  Pacing off: it sizes packets to
# a slice of the rate, often under the limits already; without it a
# packet takes what the window lets out, ten segments and more.
gso_limit() {
	local desc=$1 setting=$2 max=$3 got
	pp ip netns exec $S ip link set dev to-a1 $setting
	ip netns exec $S nft -f - <<EOF
table ip gso {
	chain post {
		type filter hook postrouting priority 0;
		oifname "to-a1" tcp sport $((7000 + id)) meta length > 1500 counter
		oifname "to-a1" tcp sport $((7000 + id)) meta length > $max counter
	}
}
EOF
	echo N > /sys/module/ecproxy/parameters/pacing
	ec_recon "$desc, 384 KiB" $id isal-cauchy 3 2 0 $size
	echo Y > /sys/module/ecproxy/parameters/pacing
	got=$(ip netns exec $S nft list table ip gso |
		awk '/counter packets/ { for (i = 1; i < NF; i++)
			if ($i == "packets") printf "%d ", $(i + 1) }')
	# shellcheck disable=SC2086 # two counts
	set -- $got
	tap_check "$desc: S's packets to A within it (${1:-?} of several segments, ${2:-?} over $max bytes)" \
		test "${1:-0}" -gt 0 -a "${2:-1}" -eq 0
	pp ip netns exec $S nft delete table ip gso
	pp ip netns exec $S ip link set dev to-a1 gso_max_size 65536 gso_max_segs 65535
	id=$((id + 1))
}
pp mtus 1500 1500 1500 1500 && pp offload on
# At most 8191 bytes (the core cuts from gso_max_size on), and at most
# three segments: 3 * 1448 + 52 bytes of headers with timestamps.
gso_limit "A's link takes 8 KiB GSO packets" "gso_max_size 8192" 8191
gso_limit "A's link takes 3-segment GSO packets" "gso_max_segs 3" 4396

# MSS edges at MTU 9000: fragments of MSS - 1, MSS and MSS + 1 bytes.
pp mtus 9000 9000 9000 9000 && pp offload on
for f in 8959 8960 8961; do
	ec_recon "MTU 9000, fragment of $f bytes" $id jerasure-rs 3 2 0 $((3 * f))
	id=$((id + 1))
done

tap_done
