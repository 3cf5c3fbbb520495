#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the paper-style figures, as CSV + PNG + a markdown summary in
# OUTDIR (default build/bench).  Run as root with ecproxy installed and not
# loaded (in the VM: make bench; on a real box: make bench VM=0).
#
#   bench/run.sh [OUTDIR]
#
# Environment:
#   BENCH_SIZE   reduced (default; under 30 min in a 2-core TCG VM), full
#                (real hardware) or tiny (a smoke run of every figure)
#   BENCH_CAP    tc rate of each A's link (default: reduced 8mbit, full 1gbit)
#   BENCH_ONLY   space-separated subset of: gf codes router buffer
#                concurrency latency uncapped
#   ECP_KO       ecproxy.ko to insmod (default: modprobe ecproxy)
# Ratios are the result; absolute numbers under emulation mean little.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/bench.sh"

out=${1:-$top/build/bench}
size=${BENCH_SIZE:-reduced}
only=${BENCH_ONLY:-gf codes router buffer concurrency latency uncapped}
topo_init bench
mkdir -p "$out"
start=$(date +%s)

case $size in
reduced)
	cap=${BENCH_CAP:-8mbit}
	frag=$((1 << 20))		# fragment size of the code figure
	rtt=200				# ms, buffer figure
	buffers="8k 16k 32k 64k 128k 256k 512k"
	buf_secs=8			# expected length of each buffer run
	buf_max=$((8 << 20))		# largest fragment of the buffer figure
	conc="1 2 4 8 16 32 64"
	conc_frag=$((256 << 10))
	lat_sizes="$((96 << 10)) $((768 << 10)) $((6 << 20))"
	unc_frag=$((4 << 20))
	;;
full)
	cap=${BENCH_CAP:-1gbit}
	frag=$((64 << 20))
	rtt=10
	buffers="16k 32k 64k 128k 256k 512k 1m 4m"
	buf_secs=5
	buf_max=$((64 << 20))
	conc="1 2 4 8 16 32 64"
	conc_frag=$((8 << 20))
	lat_sizes="$((384 << 10)) $((6 << 20)) $((96 << 20)) $((384 << 20))"
	unc_frag=$((256 << 20))
	;;
tiny)	# a smoke run of every figure, a few minutes
	cap=${BENCH_CAP:-8mbit}
	frag=$((64 << 10))
	rtt=200
	buffers="8k 64k"
	buf_secs=2
	buf_max=$((512 << 10))
	conc="1 2"
	conc_frag=$((32 << 10))
	lat_sizes="$((96 << 10))"
	unc_frag=$((256 << 10))
	;;
*) echo "bench: BENCH_SIZE is tiny, reduced or full" >&2; exit 2 ;;
esac
capbits=$(numfmt --from=si "$(echo "${cap%bit}" | tr 'a-z' 'A-Z')")

say() { bench_log "bench: $*"; }
want() { [[ " $only " == *" $1 "* ]]; }

if want gf; then
	say "GF kernels against ISA-L"
	"$top/bench/gf/run.sh" "$out" >/dev/null || say "gf bench failed"
fi

if [ ! -e /sys/module/ecproxy ]; then
	if [ -n "${ECP_KO:-}" ]; then
		insmod "$ECP_KO" || exit 1
	else
		modprobe ecproxy || exit 1
	fi
fi
bench_env > "$out/env.txt"
cat "$out/env.txt" >&2
# 16 storage nodes (RS(12,4)), 8 clients (the many-A case).
nas=1
for n in $conc; do
	[ "$n" -le 8 ] && [ "$n" -gt $nas ] && nas=$n
done
say "topology: S, $nas clients, 16 storage nodes"
topo_setup $nas 16 || exit 1
BENCH_OUTDIR=$tmp

# ways PREFIX I ID PROFILE K M LOST: the three ways in A_I, one CSV line
# each appended to PREFIX.csv: way,bytes,wall_s,cpu_s,mbit_s.  Fails on
# anything but an exact, non-fallback result.
ways() {
	local f=$1 i=$2 id=$3 p=$4 k=$5 m=$6 lost=$7 w j sha
	sha=$(sha256sum < "$tmp/d/frag.$lost" | cut -d' ' -f1)
	for w in replication native ecproxy; do
		j=$(bench_way $w "$i" "$id" "$p" "$k" "$m" "$lost" "$sha")
		if [ "$(jget "$j" sha256_ok)" != true ]; then
			say "$w FAILED: $j"
			ecq "$S" task show -s >&2
			echo "$w,0,0,0,0" >> "$f"
			continue
		fi
		echo "$w,$(jq -r '[.bytes, .wall_s, .cpu_s, .mbit_s] | map(tostring) | join(",")' <<< "$j")" >> "$f"
		say "  $w: $(printf '%.2f' "$(jget "$j" mbit_s)") Mbit/s, cpu $(printf '%.2f' "$(jget "$j" cpu_s)") s"
	done
}

# setup_code PROFILE K M LOST FRAGSIZE: encode and serve; task 1.
setup_code() {
	ec_stop_servers
	ecq "$S" task flush
	rm -rf "$tmp/d"
	ec_encode "$tmp/d" "$1" "$2" "$3" $(($5 * $2)) || return 1
	ec_store "$tmp/d" "$2" "$3" "$4" 8000 || return 1
}

# --- reconstruction rate vs code (paper Fig. 5) and CPU on A ---------------
# codes_run CSV: the three ways for every code, A's link capped.
codes_run() {
	local km k m
	topo_cap 1 "$cap"
	echo "code,way,bytes,wall_s,cpu_s,mbit_s" > "$1"
	for km in 3,2 6,3 10,4 12,4; do
		k=${km%,*} m=${km#*,}
		say "RS($k,$m), fragment $frag bytes, cap $cap"
		setup_code isal-cauchy $k $m 0 $frag || exit 1
		ec_task 1 isal-cauchy $k $m 0 >&2
		: > "$tmp/c.csv"
		ways "$tmp/c.csv" 1 1 isal-cauchy $k $m 0
		sed "s/^/RS($k+$m),/" "$tmp/c.csv" >> "$1"
	done
	topo_uncap 1
}
if want codes; then
	codes_run "$out/codes.csv"
fi

# --- the codes figure on a router with a stateful ruleset -------------------
# S carries the firewall of a typical router (selftests/lib/router.nft):
# conntrack on everything, INVALID dropped, masquerade to the storage
# nodes.  Replication and native EC are forwarded, tracked and NATed;
# ecproxy's own segments pass untracked.  The rates should equal the
# codes figure's.
if want router; then
	say "router: S with a stateful ruleset and conntrack"
	ip netns exec "$S" nft -f "$top/selftests/lib/router.nft" || exit 1
	codes_run "$out/router.csv"
	ip netns exec "$S" conntrack -L 2>/dev/null | grep -c "$VIP" |
		sed 's/^/conntrack entries with the VIP after the runs: /' > "$out/router.txt"
	ip netns exec "$S" nft flush ruleset
fi

# --- rate vs decode buffer at a fixed RTT (paper Fig. 10) -----------------
# Each fragment is sized for about buf_secs seconds at the expected rate,
# min(buffer/RTT, cap): long enough that the slow start towards A (IW10,
# doubling per RTT) is a small part of the run, short enough that the
# small buffers finish.
# buf_frag BDP_BITS_S: the fragment size for a run at buffer/RTT =
# BDP_BITS_S bits/s.
buf_frag() {
	awk -v r="$1" -v c="$capbits" -v s=$buf_secs -v mx=$buf_max 'BEGIN {
		if (r > c) r = c
		n = int(r / 8 * s); if (n < 262144) n = 262144; if (n > mx) n = mx
		print n - n % 4096 }'
}
if want buffer; then
	echo "buffer_bytes,rtt_ms,mbit_s,buffer_over_rtt_mbit_s,cap_mbit_s,fragment_bytes" > "$out/buffer.csv"
	topo_cap 1 "$cap"
	topo_delay 1 $rtt
	id=10
	fb_done=
	for b in $buffers; do
		bb=$(numfmt --from=iec "${b^^}")
		bdp=$(awk -v b="$bb" -v t=$rtt 'BEGIN { print b * 8 / (t / 1000) }')
		fb=$(buf_frag "$bdp")
		say "buffer $b, RTT $rtt ms, fragment $fb bytes"
		# Buffers past the cap share the largest fragment: encode once.
		if [ "$fb" != "$fb_done" ]; then
			setup_code isal-cauchy 6 3 0 "$fb" || exit 1
			sha=$(sha256sum < "$tmp/d/frag.0" | cut -d' ' -f1)
			fb_done=$fb
		fi
		ec_task $id isal-cauchy 6 3 0 buffer "$b" >&2
		j=$(bench_way ecproxy 1 $id isal-cauchy 6 3 0 "$sha")
		[ "$(jget "$j" sha256_ok)" = true ] || say "FAILED: $j"
		r=$(jget "$j" mbit_s)
		say "  $(printf '%.2f' "$r") Mbit/s"
		echo "$bb,$rtt,$r,$(awk -v b="$bdp" -v c="$capbits" 'BEGIN { print b / 1e6 "," c / 1e6 }'),$EC_FRAGSIZE" >> "$out/buffer.csv"
		ecq "$S" task del id $id
		id=$((id + 1))
	done
	topo_uncap 1
fi

# --- concurrent reconstructions, one A and many As (paper Fig. 11) --------
# conc_run N SPREAD: N tasks at once, to A_1 (SPREAD=1) or to A_1..A_N;
# every client starts at the same instant (ecfetch start); prints the
# aggregate Mbit/s (all bytes over first start to last end) and the number
# of exact results.
conc_run() {
	local n=$1 spread=$2 t a pids=() exact=0 at sha
	sha=$(sha256sum < "$tmp/d/frag.0" | cut -d' ' -f1)
	# Up to 64 clients start at one instant, and each source forks a
	# socat per connection: under emulation the k handshakes of every
	# task can take longer than the default 3 s.
	for t in $(seq 1 "$n"); do
		ec_task $((100 + t)) isal-cauchy 3 2 0 timeout handshake 30000 >&2
	done
	at=$(awk -v n="$n" -v now="$(date +%s.%N)" 'BEGIN { printf "%.3f", now + 3 + n / 2 }')
	for t in $(seq 1 "$n"); do
		a=$([ "$spread" = 1 ] && echo 1 || echo $(((t - 1) % nas + 1)))
		BENCH_OUTDIR="$tmp/c$t" bench_fetch "$a" proxy $VIP:$((7100 + t)) \
			sha256 "$sha" size "$EC_FRAGSIZE" timeout 60000 start "$at" \
			> "$tmp/conc.$t" &
		pids+=($!)
	done
	wait "${pids[@]}"
	for t in $(seq 1 "$n"); do
		[ "$(jq -r .sha256_ok "$tmp/conc.$t" 2>/dev/null)" = true ] && exact=$((exact + 1))
		ecq "$S" task del id $((100 + t))
	done
	jq -s -r '"\((map(.bytes) | add) * 8 / ((map(.t_end) | max) - (map(.t_start) | min)) / 1e6)"' \
		"$tmp"/conc.* | tr '\n' ' '
	echo "$exact"
	rm -f "$tmp"/conc.*
}
if want concurrency; then
	echo "tasks,clients,aggregate_mbit_s,exact,cap_mbit_s_per_client" > "$out/concurrency.csv"
	setup_code isal-cauchy 3 2 0 $conc_frag || exit 1
	for i in $(seq 1 $nas); do
		topo_cap "$i" "$cap"
		mkdir -p "$tmp"
	done
	for n in $conc; do
		for spread in 1 n; do
			[ "$spread" = n ] && [ "$n" = 1 ] && continue
			na=$([ "$spread" = 1 ] && echo 1 || echo $((n < nas ? n : nas)))
			for t in $(seq 1 "$n"); do mkdir -p "$tmp/c$t"; done
			say "$n concurrent RS(3,2) reconstructions to $na client(s)"
			read -r r e <<< "$(conc_run "$n" "$spread")"
			say "  aggregate $r Mbit/s, $e/$n exact"
			echo "$n,$na,$r,$e,$(awk -v c="$capbits" 'BEGIN { print c / 1e6 }')" >> "$out/concurrency.csv"
		done
	done
	for i in $(seq 1 $nas); do topo_uncap "$i"; done
fi

# --- degraded-read latency, small and large blocks (paper Fig. 6) ---------
if want latency; then
	echo "block_bytes,way,bytes,wall_s,cpu_s,mbit_s" > "$out/latency.csv"
	topo_cap 1 "$cap"
	for b in $lat_sizes; do
		say "degraded read of one fragment of a $b-byte RS(6,3) block"
		setup_code isal-cauchy 6 3 0 $((b / 6)) || exit 1
		ec_task 1 isal-cauchy 6 3 0 >&2
		: > "$tmp/c.csv"
		ways "$tmp/c.csv" 1 1 isal-cauchy 6 3 0
		sed "s/^/$b,/" "$tmp/c.csv" >> "$out/latency.csv"
	done
	topo_uncap 1
fi

# --- uncapped: proxy vs plain forwarding through S, softirq on S ----------
softirq() {	# jiffies of softirq time, all CPUs (S's softirqs included)
	awk '/^cpu / { print $8 }' /proc/stat
}
if want uncapped; then
	echo "way,bytes,wall_s,mbit_s,softirq_s,softirq_ns_per_byte" > "$out/uncapped.csv"
	setup_code isal-cauchy 6 3 0 $unc_frag || exit 1
	sha=$(sha256sum < "$tmp/d/frag.0" | cut -d' ' -f1)
	ec_task 1 isal-cauchy 6 3 0 >&2
	hz=$(getconf CLK_TCK)
	for w in replication ecproxy; do
		say "uncapped $w"
		s0=$(softirq)
		j=$(bench_way $w 1 1 isal-cauchy 6 3 0 "$sha")
		s1=$(softirq)
		[ "$(jget "$j" sha256_ok)" = true ] || say "FAILED: $j"
		awk -v w=$([ $w = replication ] && echo forwarding || echo ecproxy) \
		    -v b="$(jget "$j" bytes)" -v t="$(jget "$j" wall_s)" -v r="$(jget "$j" mbit_s)" \
		    -v d=$((s1 - s0)) -v hz="$hz" 'BEGIN {
			printf "%s,%d,%.3f,%.3f,%.3f,%.2f\n", w, b, t, r, d / hz, (b ? d / hz * 1e9 / b : 0) }' \
		    >> "$out/uncapped.csv"
		tail -1 "$out/uncapped.csv" >&2
	done
fi

say "plots and summary"
"$here/report.sh" "$out" "$size" "$cap" || exit 1
say "done in $(( $(date +%s) - start )) s"
