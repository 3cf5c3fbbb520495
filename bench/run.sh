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
#   BENCH_CAP    tc rate of each A's link (default: reduced 8mbit, full 1gbit;
#                the targets' links of the multi and rate figures: see below)
#   BENCH_ONLY   space-separated subset of: gf codes router buffer loss
#                concurrency latency uncapped routercpu routerscale multi
#                degread rate write (routercpu and routerscale run only
#                with S in a VM of its own, ECP_S_VM, or on a real box)
#   BENCH_BUFFERS the buffer figure's points (default by size: 8k ... 8m)
#   BENCH_LOSSES the loss figure's conditions (default: 0% 1% 5% burst)
#   BENCH_LOSS_LINKS where the loss figure loses (default: A sources)
#   BENCH_LOSS_BG pings per second on each lossy link besides the data
#                (default: none; see loss_bg_start)
#   BENCH_REPS   runs of each way per point (default by size: reduced and
#                full 3, tiny 1)
#   ECP_KO       ecproxy.ko to insmod (default: modprobe ecproxy)
#   BENCH_S_STEER=1  the routercpu and routerscale figures in a VM
#                without S in a VM of its own: S on vCPUs of its own, as
#                on a real box (VM=0)
# Ratios are the result; absolute numbers under emulation mean little.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/bench.sh"

out=${1:-$top/build/bench}
size=${BENCH_SIZE:-reduced}
only=${BENCH_ONLY:-gf codes router buffer loss concurrency latency uncapped routercpu routerscale multi degread rate write}
if [ -n "${ECP_S_VM:-}" ]; then
	# S in a VM of its own (selftests/vm/pair): the figure made for it;
	# the others reach S as a namespace.
	case " $only " in
	*" routercpu "* | *" routerscale "*) ;;
	*) echo "bench: with S in its own VM only the routercpu and routerscale figures run" >&2 ;;
	esac
	only=$(for f in $only; do case $f in routercpu | routerscale) echo "$f" ;; esac; done | tr '\n' ' ')
	only=${only% }
	only=${only:-routercpu}
fi
topo_init bench
mkdir -p "$out"
start=$(date +%s)

case $size in
reduced)
	cap=${BENCH_CAP:-8mbit}
	frag=$((1 << 20))		# fragment size of the code figure
	rtt=200				# ms, buffer figure
	buffers="8k 16k 32k 64k 128k 256k 512k 1m 2m 4m 8m"
	buf_secs=8			# expected length of each buffer run
	buf_max=$((8 << 20))		# largest fragment of the buffer figure
	conc="1 2 4 8 16 32 64"
	conc_frag=$((256 << 10))
	lat_sizes="$((96 << 10)) $((768 << 10)) $((6 << 20))"
	unc_frag=$((4 << 20))
	rc_frag=$((16 << 20))		# router CPU figure, uncapped
	# Runs of the multi-loss and degraded-read figures (their median
	# counts: the emulated machine's timing wanders).
	reps=3
	# Multi-loss: the targets' links are capped low enough that the
	# emulated S rebuilds 3 fragments at once at their rate.
	multi_frag=$((512 << 10))
	multi_cap=2mbit
	# Degraded read: a block that ends mid-cell.
	dr_block=$(((8 << 20) - 100000))
	dr_cell=$((256 << 10))
	# Rate: T1's link, the task's cap and the cap changed mid-run, each
	# phase's length (s).  Low rates: the emulated machine must keep up
	# with the foreground flow, the task and the sampling at once.
	rate_link=4mbit
	rate_caps="1mbit 2mbit"
	rate_secs=8
	# Write: a block that ends mid-cell, written by A1 through its link.
	wr_block=$(((8 << 20) - 100000))
	wr_cell=$((256 << 10))
	;;
full)
	cap=${BENCH_CAP:-1gbit}
	frag=$((64 << 20))
	rtt=10
	buffers="16k 32k 64k 128k 256k 512k 1m 2m 4m 8m"
	buf_secs=5
	buf_max=$((64 << 20))
	conc="1 2 4 8 16 32 64"
	conc_frag=$((8 << 20))
	lat_sizes="$((384 << 10)) $((6 << 20)) $((96 << 20)) $((384 << 20))"
	unc_frag=$((256 << 20))
	rc_frag=$((256 << 20))
	multi_frag=$((64 << 20))
	multi_cap=$cap
	reps=3
	dr_block=$(((64 << 20) - 100000))
	dr_cell=$((1 << 20))
	rate_link=$cap
	rate_caps="100mbit 200mbit"
	rate_secs=5
	wr_block=$((64 << 20))
	wr_cell=$((1 << 20))
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
	rc_frag=$((1 << 20))
	multi_frag=$((64 << 10))
	multi_cap=2mbit
	reps=1
	dr_block=$(((1 << 20) - 10000))
	dr_cell=$((64 << 10))
	rate_link=4mbit
	rate_caps="1mbit 2mbit"
	rate_secs=3
	wr_block=$(((1 << 20) - 10000))
	wr_cell=$((64 << 10))
	;;
*) echo "bench: BENCH_SIZE is tiny, reduced or full" >&2; exit 2 ;;
esac
capbits=$(bench_bits "$cap")
buffers=${BENCH_BUFFERS:-$buffers}
reps=${BENCH_REPS:-$reps}

say() { bench_log "bench: $*"; }
want() { [[ " $only " == *" $1 "* ]]; }

if want gf; then
	say "GF kernels against ISA-L"
	"$top/bench/gf/run.sh" "$out" >/dev/null || say "gf bench failed"
fi

if [ -n "${ECP_S_VM:-}" ]; then
	topo_s_run "modprobe ecproxy" || exit 1
elif [ ! -e /sys/module/ecproxy ]; then
	if [ -n "${ECP_KO:-}" ]; then
		# insmod loads no dependency (nf_defrag_ipv4): modprobe them.
		# shellcheck disable=SC2046 # a list of module names
		modprobe -a $(modinfo -F depends "$ECP_KO" | tr , ' ') &&
			insmod "$ECP_KO" || exit 1
	else
		modprobe ecproxy || exit 1
	fi
fi
if [ -n "${ECP_S_VM:-}" ]; then
	{
		echo "S, in a VM of its own (selftests/vm/pair):"
		[ -z "${ECP_S_CPU:-}" ] ||
			echo "  S's qemu held to ${ECP_S_CPU}% of one host CPU per vCPU, per ${ECP_S_PERIOD:-10} ms (vm/pair --s-cpu, --s-period)"
		topo_s_run "$(declare -f bench_env); top=$(printf %q "$top"); bench_env" | sed 's/^/  /'
		echo "A and the storage nodes, in another VM:"
		bench_env | sed 's/^/  /'
	} > "$tmp/s-env.txt"
	cat "$tmp/s-env.txt" >&2
	for f in $only; do cp "$tmp/s-env.txt" "$out/$f-env.txt"; done
else
	bench_env > "$out/env.txt"
	cat "$out/env.txt" >&2
fi
# 16 storage nodes (RS(12,4)), 8 clients (the many-A case), 9 targets
# (the multi-loss and rate figures use 3, the write figure RS(6,3)'s 9).
nas=1
for n in $conc; do
	[ "$n" -le 8 ] && [ "$n" -gt $nas ] && nas=$n
done
if [ -n "${ECP_S_VM:-}" ]; then
	say "topology: S in its own VM; 1 client, 16 storage nodes"
	topo_setup 1 16 || exit 1
else
	say "topology: S, $nas clients, 16 storage nodes, 9 targets"
	topo_setup $nas 16 9 || exit 1
fi
BENCH_OUTDIR=$tmp

# ways PREFIX I ID PROFILE K M LOST: the three ways in A_I, one CSV line
# each appended to PREFIX.csv: way,bytes,wall_s,cpu_s,mbit_s.  Fails on
# anything but an exact, non-fallback result.
# With WAYS_RTOS=1, each line ends with the storage nodes' own RTOs during
# the transfer (sources_rtos).  With WAYS_SPARE="ID...", more ways, spare1
# and on: ecproxy's tasks ID..., which read one spare source and on.
ways() {
	local f=$1 i=$2 id=$3 p=$4 k=$5 m=$6 lost=$7 w j sha rtos='' r0 note=''
	local all=(replication native ecproxy) spares=(${WAYS_SPARE:-}) n
	for n in "${!spares[@]}"; do
		all+=("spare$((n + 1))")
	done
	sha=$(sha256sum < "$tmp/d/frag.$lost" | cut -d' ' -f1)
	for w in "${all[@]}"; do
		[ -z "${WAYS_RTOS:-}" ] || r0=$(sources_rtos)
		if [ "${w#spare}" != "$w" ]; then
			j=$(bench_way ecproxy "$i" "${spares[${w#spare} - 1]}" "$p" "$k" "$m" "$lost" "$sha")
		else
			j=$(bench_way $w "$i" "$id" "$p" "$k" "$m" "$lost" "$sha")
		fi
		if [ -n "${WAYS_RTOS:-}" ]; then
			rtos=,$(($(sources_rtos) - r0))
			note=", the sources' RTOs ${rtos#,}"
		fi
		if [ "$(jget "$j" sha256_ok)" != true ]; then
			say "$w FAILED: $j"
			ecq "$S" task show -s >&2
			echo "$w,0,0,0,0$rtos" >> "$f"
			continue
		fi
		echo "$w,$(jq -r '[.bytes, .wall_s, .cpu_s, .mbit_s] | map(tostring) | join(",")' <<< "$j")$rtos" >> "$f"
		say "  $w: $(printf '%.2f' "$(jget "$j" mbit_s)") Mbit/s, cpu $(printf '%.2f' "$(jget "$j" cpu_s)") s$note"
	done
}

# sources_rtos: the retransmission timeouts every storage node's TCP has
# had (TcpExtTCPTimeouts), summed.
sources_rtos() {
	local i n=0
	for i in $(seq 1 16); do
		n=$((n + $(topo_nstat "$B$i" TcpExtTCPTimeouts)))
	done
	echo $n
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
# Replication runs once on the same path, with the largest fragment, its
# sender's RTT (ss -ti) sampled beside it; each ecproxy run reports the
# RTT S measured to A (STATS_RTT).
if want buffer; then
	echo "buffer_bytes,rtt_ms,mbit_s,buffer_over_rtt_mbit_s,cap_mbit_s,fragment_bytes,replication_mbit_s,ecproxy_rtt_ms,replication_rtt_ms" > "$out/buffer.csv"
	topo_cap 1 "$cap"
	topo_delay 1 $rtt
	fb=$(buf_frag "$capbits")
	say "replication, RTT $rtt ms, fragment $fb bytes"
	setup_code isal-cauchy 6 3 0 "$fb" || exit 1
	sha=$(sha256sum < "$tmp/d/frag.0" | cut -d' ' -f1)
	fb_done=$fb
	# ec_store spreads: the replica of fragment 0 is on B2, port 8001.
	bench_rtt_start "${B}2" 8001 "$tmp/ss.rtt"
	j=$(bench_way replication 1 1 isal-cauchy 6 3 0 "$sha")
	read -r rep_rtt _ <<< "$(bench_rtt_stop "$tmp/ss.rtt")"
	[ "$(jget "$j" sha256_ok)" = true ] || say "FAILED: $j"
	rep=$(jget "$j" mbit_s)
	say "  $(printf '%.2f' "$rep") Mbit/s, its sender's srtt $rep_rtt ms (ss -ti)"
	id=10
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
		st=$(ecq "$S" -j task show id $id -s)
		ert=$(jq -r '.[0].stats.rtt_us / 1000' <<< "$st")
		say "  $(printf '%.2f' "$r") Mbit/s, S's srtt to A $ert ms, $(jq -r '.[0].stats |
			"resent \(.resent), recoveries \(.recoveries), timeouts \(.timeouts), tail probes \(.tail_probes), hystart exits \(.hystart_exits)"' <<< "$st")"
		echo "$bb,$rtt,$r,$(awk -v b="$bdp" -v c="$capbits" 'BEGIN { print b / 1e6 "," c / 1e6 }'),$EC_FRAGSIZE,$rep,$ert,$rep_rtt" >> "$out/buffer.csv"
		ecq "$S" task del id $id
		id=$((id + 1))
	done
	topo_uncap 1
fi

# --- goodput under loss, on A's link and on the sources' links -------------
# RS(6,3), A's link capped as in the codes figure, RTT as it is.  Loss on
# A's link: netem on S's end (the data to A), the cap's tbf under it; on
# the sources' links: netem on every storage node's end (the data to S,
# the replica's included), each node's TCP sending one segment per packet
# there (topo_segs), so that the loss is per segment, as on a wire.
# Burst loss is netem's Gilbert-Elliott model (gemodel 2% 50%: bursts of
# two packets on average, about 4% lost).
# Medians of reps runs of each way.  On the sources' links two more:
# spare1 and spare2, ecproxy reading one and two more survivors (tasks 2
# and 3, "spare"), so that the rows need not wait for the slowest of the
# sources; on A's link they would read the same bytes through the same S.
# loss_bg_start NS ADDR: with BENCH_LOSS_BG, NS pings ADDR that many
# times a second through the lossy link until loss_off.  netem's
# Gilbert-Elliott state moves per packet, not with time: on a link that
# carries nothing but one node's lone retransmissions, seconds apart, a
# burst of two packets lasts seconds.  A wire's burst lasts a while, and
# what else crosses the link in it (here the pings) shares it.
loss_bg=()
loss_bg_start() {
	[ -n "${BENCH_LOSS_BG:-}" ] || return 0
	ip netns exec "$1" ping -q -i "$(awk -v r="$BENCH_LOSS_BG" \
		'BEGIN { printf "%.4f", 1 / r }')" "$2" > /dev/null 2>&1 &
	loss_bg+=($!)
}
# loss_on WHERE SPEC...: netem SPEC on the data's way; loss_off WHERE.
loss_on() {
	local where=$1 i tbf
	shift
	case $where in
	A)
		tbf=$(topo_tbf "$cap") || return 1
		# shellcheck disable=SC2086 # tc's words
		ip netns exec "$S" tc qdisc replace dev to-a1 root handle 1: \
			netem "$@" limit 100000 &&
		ip netns exec "$S" tc qdisc replace dev to-a1 parent 1:1 $tbf &&
		loss_bg_start "$S" "$(topo_net a1).2" ;;
	sources)
		for i in $(seq 1 16); do
			topo_segs "$B$i" to-s 1 &&
			ip netns exec "$B$i" tc qdisc replace dev to-s root \
				netem "$@" limit 100000 || return 1
			loss_bg_start "$B$i" "$(topo_net "b$i").1"
		done ;;
	esac
}
loss_off() {
	local i
	if [ ${#loss_bg[@]} -gt 0 ]; then
		kill "${loss_bg[@]}" 2> /dev/null
		wait "${loss_bg[@]}" 2> /dev/null
		loss_bg=()
	fi
	topo_uncap 1
	for i in $(seq 1 16); do
		topo_uncap_b "$i"
		topo_segs "$B$i" to-s 65535
	done
}
if want loss; then
	echo "link,loss,run,way,bytes,wall_s,cpu_s,mbit_s,source_rtos" > "$out/loss.csv"
	EC_SPARE=2 setup_code isal-cauchy 6 3 0 $frag || exit 1
	ec_task 1 isal-cauchy 6 3 0 >&2
	ec_task 2 isal-cauchy 6 3 0 "${EC_SPARE_ARGS[@]:0:2}" >&2
	ec_task 3 isal-cauchy 6 3 0 "${EC_SPARE_ARGS[@]}" >&2
	for where in ${BENCH_LOSS_LINKS:-A sources}; do
		for l in ${BENCH_LOSSES:-0% 1% 5% burst}; do
			spec=(loss "$l")
			[ "$l" = burst ] && spec=(loss gemodel 2% 50%)
			loss_on $where "${spec[@]}" || exit 1
			[ $where = A ] || topo_cap 1 "$cap"
			for run in $(seq 1 $reps); do
				say "loss $l on the $where link(s), run $run"
				: > "$tmp/c.csv"
				spares=
				[ $where = A ] || spares="2 3"
				WAYS_RTOS=1 WAYS_SPARE=$spares BENCH_TIMEOUT=180000 \
					ways "$tmp/c.csv" 1 1 isal-cauchy 6 3 0
				sed "s/^/$where,$l,$run,/" "$tmp/c.csv" >> "$out/loss.csv"
			done
			ecq "$S" task show id 1 -s >&2
			ecq "$S" task show id 2 -s >&2
			ecq "$S" task show id 3 -s >&2
			loss_off
		done
	done
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

# --- router CPU: what S itself costs per byte -----------------------------
# S's busy CPU time (wall less idle: bench_s_sample) per byte it receives
# and per byte it sends, forwarding one plain copy (replication) and
# coding (ecproxy), uncapped, for three codes; then a profile of S under
# each.  S runs in a VM of its own (make bench runs this figure through
# selftests/vm/pair), or on a real box (VM=0) on a CPU of its own
# (bench_s_steer).  Bytes are S's links' counters, headers included:
# input is what the storage nodes' links brought, output what A1's took.
# Packets the same links' counters: S's packets to A1 and to the storage
# nodes (segments after GSO, ACKs, window updates) are what S sends per
# input byte, and under emulation each costs a virtio doorbell or a share
# of one.  S's busy share is over the transfer (the clients' clock).

# s_alone FIGURE: can FIGURE tell S's CPU from the hosts'?
s_alone() {
	[ -n "${ECP_S_VM:-}" ] || [ -n "${BENCH_S_STEER:-}" ] ||
		[ "$(bench_env | sed -n 's/^virtualisation: //p')" = "bare metal" ] && return 0
	say "$1: in a VM it needs S in a VM of its own (make bench runs it so; BENCH_S_STEER=1 steers S to vCPUs of its own instead); skipped"
	return 1
}

routercpu_run() {	# WAY K M REP: one CSV line
	local w=$1 j a b ok=ok
	a=$(bench_s_sample)
	j=$(bench_way "$w" 1 1 isal-cauchy "$2" "$3" 0 "$sha")
	b=$(bench_s_sample)
	[ "$(jget "$j" sha256_ok)" = true ] || { say "  $w FAILED: $j"; ok=FAILED; }
	[ -n "$a" ] && [ -n "$b" ] || { say "  $w: S's sampler failed"; ok=FAILED; }
	awk -v code="RS($2+$3)" -v w="$w" -v rep="$4" -v a="$a" -v b="$b" -v null="$s_null" \
	    -v wall="$(jget "$j" wall_s)" -v r="$(jget "$j" mbit_s)" -v ok=$ok 'BEGIN {
		nx = split(a, x, " "); split(b, y, " ")
		span = y[1] - x[1]; idle = y[2] - x[2]
		busy = span - idle - null; if (busy < 0) busy = 0
		inb = y[3] - x[3]; outb = y[4] - x[4]
		share = (wall > 0 && nx > 10 ? busy / (wall * (nx - 10)) : 0); if (share > 1) share = 1
		printf "%s,%s,%d,%.0f,%.0f,%.3f,%.3f,%.3f,%.3f,%.3f,%.2f,%.2f,%s,%.0f,%.0f,%.0f,%.0f\n", code, w, rep, inb, outb, wall, r,
			(wall > 0 ? inb * 8 / wall / 1e6 : 0), busy, share,
			(inb ? busy * 1e9 / inb : 0), (outb ? busy * 1e9 / outb : 0), ok,
			y[7] - x[7], y[8] - x[8], y[9] - x[9], y[10] - x[10] }'
}
if want routercpu && s_alone routercpu && bench_s_steer; then
	if bench_s_sample_start; then
		s_null=$(bench_s_null)
		say "router CPU: two samples cost S $s_null s (taken off each run)"
		echo "code,way,rep,input_bytes,output_bytes,wall_s,mbit_s,input_mbit_s,s_cpu_s,s_busy,s_ns_per_input_byte,s_ns_per_output_byte,status,input_packets,output_packets,packets_from_a,packets_to_sources" > "$out/routercpu.csv"
		for km in 3,2 6,3 12,4; do
			k=${km%,*} m=${km#*,}
			say "router CPU: RS($k,$m), fragment $rc_frag bytes, uncapped"
			setup_code isal-cauchy $k $m 0 $rc_frag || exit 1
			sha=$(sha256sum < "$tmp/d/frag.0" | cut -d' ' -f1)
			ec_task 1 isal-cauchy $k $m 0 >&2
			# The ways take turns, so that a slow spell hits each.
			for n in $(seq 1 "$reps"); do
				for w in replication ecproxy; do
					routercpu_run $w $k $m "$n" >> "$out/routercpu.csv"
					say "  $(tail -1 "$out/routercpu.csv")"
				done
			done
			for w in replication ecproxy; do
				bench_s_perf_start
				j=$(bench_way $w 1 1 isal-cauchy $k $m 0 "$sha")
				bench_s_perf_stop "$out/routercpu-perf-rs$k$m-$w.txt"
				[ "$(jget "$j" sha256_ok)" = true ] || say "  $w (profiled) FAILED: $j"
			done
		done
	fi
	bench_s_sample_stop
	bench_s_unsteer
fi

# --- router CPU across CPUs: several tasks at once --------------------------
# 1, 2 and 4 RS(3,2) reconstructions at once to A1 (the same survivors:
# every task reads B1..B3), against as many plain copies forwarded at once,
# uncapped, with S on two CPUs (make bench gives S's VM two vCPUs for this
# figure).  Each CPU's busy share says whether the work spreads, and the
# cost per input byte, against forwarding's on the same CPUs, whether
# tasks, each under its own lock, stay out of each other's way.  ecproxy
# runs twice: as S's links spread its flows over the CPUs (off_home: the
# tasks' segments that came in away from their connection's CPU), and with
# Receive Flow Steering enabled, which ecproxy uses to keep each
# connection's flows on its CPU (kmod/steer.h), twice: homes chosen by
# load, and where the client's SYN came in (steer_by_load=N).  The samples
# bracket the transfers: the clients wait for a common start.
routerscale_run() {	# WAY N: one CSV line (WAY ecproxy-rfs: ecproxy, RFS on;
			# ecproxy-rfs-syn: and homes where accepted)
	local w=$1 n=$2 a b t at pids=() exact=0 r off=0 v
	for t in $(seq 1 "$n"); do
		[ "$w" = replication ] ||
			ec_task $((100 + t)) isal-cauchy 3 2 0 timeout handshake 30000 >&2
		mkdir -p "$tmp/c$t"
	done
	at=$(awk -v now="$(date +%s.%N)" 'BEGIN { printf "%.3f", now + 3 }')
	for t in $(seq 1 "$n"); do
		if [ "$w" = replication ]; then
			BENCH_OUTDIR="$tmp/c$t" bench_fetch 1 copy "$EC_REPLICA" \
				sha256 "$sha" size "$EC_FRAGSIZE" timeout 60000 start "$at" \
				> "$tmp/conc.$t" &
		else
			BENCH_OUTDIR="$tmp/c$t" bench_fetch 1 proxy $VIP:$((7100 + t)) \
				sha256 "$sha" size "$EC_FRAGSIZE" timeout 60000 start "$at" \
				> "$tmp/conc.$t" &
		fi
		pids+=($!)
	done
	sleep "$(awk -v at="$at" -v now="$(date +%s.%N)" 'BEGIN { d = at - now - 0.2; printf "%.3f", (d > 0 ? d : 0) }')"
	a=$(bench_s_sample)
	wait "${pids[@]}"
	b=$(bench_s_sample)
	for t in $(seq 1 "$n"); do
		[ "$(jq -r .sha256_ok "$tmp/conc.$t" 2>/dev/null)" = true ] && exact=$((exact + 1))
		[ "$w" = replication ] && continue
		v=$(ec_stats $((100 + t)) '.stats.off_home // 0')
		[[ $v =~ ^[0-9]+$ ]] || v=0
		off=$((off + v))
		ecq "$S" task del id $((100 + t))
	done
	[ -n "$a" ] && [ -n "$b" ] || { say "  $w: S's sampler failed"; exact=0; }
	r=$(jq -s -r '"\((map(.bytes) | add) * 8 / ((map(.t_end) | max) - (map(.t_start) | min)) / 1e6)"' "$tmp"/conc.*)
	rm -f "$tmp"/conc.*
	awk -v w="$w" -v n="$n" -v a="$a" -v b="$b" -v null="$s_null" -v r="$r" -v ok="$exact/$n" -v off="$off" 'BEGIN {
		nx = split(a, x, " "); split(b, y, " ")
		span = y[1] - x[1]; busy = span - (y[2] - x[2]) - null; if (busy < 0) busy = 0
		inb = y[3] - x[3]; ncpu = nx - 10; per = ""
		for (i = 11; i <= nx; i++) {
			c = span / ncpu - (y[i] - x[i]); if (c < 0) c = 0
			per = per sprintf("%s%.2f", i > 11 ? ";" : "", c / (span / ncpu))
		}
		printf "%s,%d,%.3f,%.3f,%.2f,%s,%.2f,%s,%d,%.0f\n", w, n, r, busy,
			(span > 0 ? busy / span : 0), per, (inb ? busy * 1e9 / inb : 0), ok, off,
			(inb ? ((y[8] - x[8]) + (y[10] - x[10])) * 1e6 / inb : 0) }'
}
if want routerscale && s_alone routerscale && bench_s_steer 2; then
	setup_code isal-cauchy 3 2 0 $rc_frag || exit 1
	sha=$(sha256sum < "$tmp/d/frag.0" | cut -d' ' -f1)
	if ! bench_s_sample_start; then
		:
	elif [ "$(bench_s_sample | wc -w)" -lt 12 ]; then
		say "routerscale: S has one CPU (selftests/vm/pair --s-smp 2 gives it two); skipped"
	else
		s_null=$(bench_s_null)
		echo "way,tasks,mbit_s,s_cpu_s,s_busy,s_busy_per_cpu,s_ns_per_input_byte,exact,off_home,s_sent_packets_per_input_mb" > "$out/routerscale.csv"
		for n in 1 2 4; do
			for rep in $(seq 1 "$reps"); do
				# The two RFS ways in turns first, so that
				# neither always runs after the other.
				rfs=(ecproxy-rfs ecproxy-rfs-syn)
				[ $((rep % 2)) = 1 ] || rfs=(ecproxy-rfs-syn ecproxy-rfs)
				for w in replication ecproxy "${rfs[@]}"; do
					say "router CPU across CPUs: $w, $n at once, run $rep"
					if [ "${w#ecproxy-rfs}" != "$w" ] && ! topo_rfs on; then
						say "  RFS: S refused it; skipped"
						continue
					fi
					if [ "$w" = ecproxy-rfs-syn ] && ! topo_steer_by_load N; then
						say "  steer_by_load: S refused it; skipped"
						topo_rfs off
						continue
					fi
					routerscale_run $w "$n" >> "$out/routerscale.csv"
					[ "$w" != ecproxy-rfs-syn ] || topo_steer_by_load Y
					[ "${w#ecproxy-rfs}" = "$w" ] || topo_rfs off
					say "  $(tail -1 "$out/routerscale.csv")"
				done
			done
		done
	fi
	bench_s_sample_stop
	bench_s_unsteer
fi

# --- several lost fragments, RS(12,4) --------------------------------------
# r = 1..3 lost fragments, each rebuilt onto its own target T1..Tr, whose
# links are capped (multi_cap, on S): the targets' links are the
# bottleneck.  one: one task with r dests reads every survivor once.
# separate: r tasks with one dest each, started by one ecctl batch, read
# every survivor r times.  native: T1 reads the k survivors (an ecfetch
# copy each, all at once), decodes the r fragments, keeps the first and
# sends the others on to T2..Tr (after decoding: reading k fragments
# dominates).  Bytes are what the survivors' links carried (S's rx
# counters, headers included); the time runs from the start to the end
# of the last target's stream (the mtime of its ecp-tgt log, or of the
# decoded file for the fragment T1 keeps).

# dest_task ID LOST DEST...: task ID rebuilding LOST onto the DESTs.
dest_task() {
	ecin "$S" task add id "$1" vip $VIP code isal-cauchy k 12 m 4 lost "$2" \
		"${EC_SOURCES[@]}" "${@:3}" >&2
}

# multi_native LOST PORT: the native way; the targets listen on PORT.
multi_native() {
	local n=$tmp/nat s f j=1 pids=() ret=0
	rm -rf "$n"
	mkdir -p "$n"
	for s in "${EC_SOURCES[@]}"; do
		[ "$s" = source ] && continue
		ecfetch_in "$T"1 -q -o "$n/frag.${s##*:}" copy "${s%:*}" timeout 60000 &
		pids+=($!)
	done
	for s in "${pids[@]}"; do wait "$s" || ret=1; done
	for f in ${1//,/ }; do
		"$ECCTL" code decode isal-cauchy k 12 m 4 lost "$f" dir "$n" \
			out "$n/dec.$f" >&"$tap_log" || ret=1
	done
	f=${1%%,*}
	mv "$n/dec.$f" "$tmp/d/got.$f"
	pids=()
	for f in $(echo "$1" | cut -s -d, -f2- | tr , ' '); do
		j=$((j + 1))
		ip netns exec "$T"1 socat -u OPEN:"$n/dec.$f" TCP:"$(topo_addr t$j)":"$2" &
		pids+=($!)
	done
	for s in "${pids[@]}"; do wait "$s" || ret=1; done
	return $ret
}

# multi_way WAY LOST PORT: rebuild LOST onto T1..Tr one way (one,
# separate, native), the targets listening on PORT; one CSV line:
# r,way,survivor_bytes,time_s,status.
multi_way() {
	local w=$1 lost=$2 d=$tmp/d r ids=() j f b0 t0 t1 sent=$2 ok=ok
	r=$(echo "${lost//,/ }" | wc -w)
	ec_targets "$d" "$lost" "$3" >&2 || ok=FAILED
	case $w in
	one)
		ids=(1)
		dest_task 1 "$lost" "${EC_DESTS[@]}"
		;;
	separate)
		for j in $(seq 1 "$r"); do
			ids+=($((10 + j)))
			dest_task $((10 + j)) "$(echo "$lost" | cut -d, -f"$j")" \
				"${EC_DESTS[@]:2*j-2:2}"
		done
		;;
	esac
	b0=$(bench_bytes "$S" 'to-b*' rx_bytes)
	t0=$EPOCHREALTIME
	if [ "$w" = native ]; then
		multi_native "$lost" "$3" || ok=FAILED
		f=${lost%%,*}
		cmp -s "$d/frag.$f" "$d/got.$f" || ok=FAILED
		sent=$(echo "$lost" | cut -s -d, -f2-)
	else
		printf 'task start id %s\n' "${ids[@]}" | ecq "$S" -b - >&2 || ok=FAILED
		for j in "${ids[@]}"; do
			wait_for 600 ec_conn_idle "$j" &&
				[ "$(ec_stats "$j" .stats.last_error)" = none ] || ok=FAILED
		done
	fi
	# A target logs the end of its stream after the task saw its ACKs.
	wait_for 30 ec_stored "$d" "$sent" || ok=FAILED
	t1=$(for f in ${lost//,/ }; do
		stat -c %.9Y "$d/tgt.$f" 2>/dev/null || stat -c %.9Y "$d/got.$f"
	done | sort -n | tail -1)
	if [ $ok = ok ]; then
		echo "$r,$w,$(($(bench_bytes "$S" 'to-b*' rx_bytes) - b0)),$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'),ok"
	else
		echo "$r,$w,0,0,FAILED"
		for j in "${ids[@]}"; do ecq "$S" task show id "$j" -s >&2; done
		head "$d"/tgt.* >&2
	fi
	for j in "${ids[@]}"; do ecq "$S" task del id "$j" >&2; done
}
if want multi; then
	echo "r,way,rep,survivor_bytes,time_s,status" > "$out/multi.csv"
	echo "Fragments of $multi_frag bytes; each target's link capped at $multi_cap (tbf on S)." > "$out/multi.txt"
	for i in 1 2 3; do bench_cap t$i "$multi_cap"; done
	port=9000
	for lost in 1 1,13 1,6,13; do
		say "RS(12,4), lost $lost, fragments of $multi_frag bytes, targets' links $multi_cap"
		# The k sources alone (no replica to serve).
		EC_LAYOUT=packed setup_code isal-cauchy 12 4 "$lost" "$multi_frag" || exit 1
		# The first run warms up S's neighbours and the targets' start:
		# not measured, else it would slow down the single loss only.
		[ "$lost" != 1 ] || multi_way one 1 $port > /dev/null
		for w in one separate native; do
			for n in $(seq 1 $([ $w = native ] && echo 1 || echo "$reps")); do
				port=$((port + 1))
				IFS=, read -r r _ b t st <<< "$(multi_way $w "$lost" $port)"
				echo "$r,$w,$n,$b,$t,$st" >> "$out/multi.csv"
				say "  $w, run $n: survivors sent $b bytes, $t s, $st"
			done
		done
	done
	for i in 1 2 3; do bench_uncap t$i; done
fi

# --- degraded read of a striped block (HDFS layout) -----------------------
# A reads a whole RS(6,3) block, data fragment 1 lost, through its capped
# link: replication copies the block from one node, native reads the k
# fragments and decodes the lost cells itself, ecproxy's read task sends
# the block in order with the lost cells rebuilt.  Meanwhile A pings S's
# end of its link every 200 ms: the replies queue on A's capped link
# (tbf on S), where native's k streams converge (incast); and the drops
# of that queue are counted.

# degread_run WAY: one run (idle: only the ping, 3 s), one CSV line
# without its first field: way,bytes,wall_s,cpu_s,mbit_s,ping_mean_ms,
# ping_max_ms,link_drops,status.
degread_run() {
	local w=$1 j d0 pm px dr
	d0=$(bench_qdrops a1)
	bench_ping_start "$A" "$(topo_net a1).1" "$tmp/ping"
	if [ "$w" = idle ]; then
		sleep 3
		j='{"bytes": 0, "wall_s": 0, "cpu_s": 0, "mbit_s": 0, "sha256_ok": true}'
	else
		j=$(BENCH_BLOCK=$dr_block BENCH_CELL=$dr_cell bench_way "$w" 1 1 isal-cauchy 6 3 1 "$sha")
	fi
	read -r pm px <<< "$(bench_ping_stop "$tmp/ping")"
	dr=$(($(bench_qdrops a1) - d0))
	if [ "$(jget "$j" sha256_ok)" = true ]; then
		echo "$w,$(jq -r '[.bytes, .wall_s, .cpu_s, .mbit_s] | map(tostring) | join(",")' <<< "$j"),$pm,$px,$dr,ok"
		[ "$w" = idle ] ||
			say "  $w: $(printf '%.2f' "$(jget "$j" mbit_s)") Mbit/s, cpu $(printf '%.2f' "$(jget "$j" cpu_s)") s"
		say "  $w: ping mean $pm ms, max $px ms, $dr drops on A's link"
	else
		say "$w FAILED: $j"
		ecq "$S" task show -s >&2
		echo "$w,0,0,0,0,$pm,$px,$dr,FAILED"
	fi
}
if want degread; then
	echo "rep,way,bytes,wall_s,cpu_s,mbit_s,ping_mean_ms,ping_max_ms,link_drops,status" > "$out/degread.csv"
	echo "A block of $dr_block bytes in cells of $dr_cell bytes, RS(6,3), data fragment 1 lost; A's link capped at $cap." > "$out/degread.txt"
	say "degraded read: $(cat "$out/degread.txt")"
	ec_stop_servers
	ecq "$S" task flush
	rm -rf "$tmp/d"
	ec_encode "$tmp/d" isal-cauchy 6 3 "$dr_block" "$dr_cell" || exit 1
	ec_store "$tmp/d" 6 3 1 8000 || exit 1
	# The block's replica, on the node that lost fragment 1.
	ec_serve 2 8002 "$tmp/d/in" || exit 1
	EC_REPLICA=$(topo_addr b2):8002
	ec_task 1 isal-cauchy 6 3 1 read block "$dr_block" cell "$dr_cell" >&2
	sha=$(sha256sum < "$tmp/d/in" | cut -d' ' -f1)
	topo_cap 1 "$cap"
	degread_run idle | sed 's/^/1,/' >> "$out/degread.csv"
	# The ways take turns, so that a slow spell of the machine hits each.
	for n in $(seq 1 "$reps"); do
		for w in replication native ecproxy; do
			degread_run $w | sed "s/^/$n,/" >> "$out/degread.csv"
		done
	done
	topo_uncap 1
	ecq "$S" task del id 1
fi

# --- a rate-capped reconstruction beside a foreground flow ----------------
# As selftests/netns/coding_rate.sh: T1's link is capped (rate_link) with
# fq_codel under the shaper, as a Debian router queues (in one deep FIFO
# the greedy flow would hold the capped one's RTT at the FIFO's delay), A1
# sends T1 a TCP flow through S all along, and task 1 rebuilds an RS(3,2)
# fragment onto T1 under the first of rate_caps, changed to the second
# mid-run, then lifted so that the run completes (checked byte for byte).
# Sampled every 0.5 s: the task's rate is the growth of T1's file, the
# foreground's the rest of what T1's link received (headers included).

# rate_sample PHASE CAP: one line of $tmp/samples: PHASE, its cap in
# Mbit/s (- for none), seconds, T1's file bytes and what T1's link
# received, read through the foreground's receiver (fgrx, a process in
# T1): under emulation, sampling must cost little CPU.
rate_sample() {
	local dev rx
	while IFS=': ' read -r dev rx _; do
		[ "$dev" = to-s ] && break
	done < "/proc/$fgrx/net/dev"
	echo "$1 $2 $EPOCHREALTIME $(stat -c %s "$tmp/d/got.0" 2>/dev/null || echo 0) $rx" >> "$tmp/samples"
}

# rate_phase PHASE CAP: a sample every 0.5 s for rate_secs seconds.
rate_phase() {
	local end=$((${EPOCHREALTIME/./} + rate_secs * 1000000))
	while [ "${EPOCHREALTIME/./}" -lt $end ]; do
		sleep 0.5
		rate_sample "$1" "$2"
	done
}
if want rate; then
	read -r r1 r2 <<< "$rate_caps"
	b1=$(bench_bits "$r1") b2=$(bench_bits "$r2")
	m1=$(awk -v b="$b1" 'BEGIN { print b / 1e6 }') m2=$(awk -v b="$b2" 'BEGIN { print b / 1e6 }')
	echo "T1's link capped at $rate_link (tbf and fq_codel on S); task 1 rebuilds an RS(3,2) fragment onto T1 at $r1, changed to $r2 mid-run, then uncapped." > "$out/rate.txt"
	say "rate: $(cat "$out/rate.txt")"
	ec_stop_servers
	ecq "$S" task flush
	rm -rf "$tmp/d"
	# Longer than the capped phases.
	f=$(((b1 + b2) / 8 * rate_secs * 3 / 2))
	ec_encode "$tmp/d" isal-cauchy 3 2 $((3 * f)) || exit 1
	ec_store "$tmp/d" 3 2 0 8000 || exit 1
	ec_targets "$tmp/d" 0 9000 || exit 1
	bench_cap t1 "$rate_link" fq_codel
	ip netns exec "$T"1 socat -u TCP-LISTEN:5001,reuseaddr OPEN:/dev/null 2>/dev/null &
	fgrx=$!
	wait_for 10 topo_listening "$T"1 5001
	ip netns exec "$A" socat -u OPEN:/dev/zero TCP:"$(topo_addr t1)":5001 2>/dev/null &
	fg=$!
	: > "$tmp/samples"
	rate_sample alone -
	rate_phase alone -
	ecin "$S" task add id 1 vip $VIP code isal-cauchy k 3 m 2 lost 0 \
		"${EC_SOURCES[@]}" "${EC_DESTS[@]}" rate "$r1" >&2
	ecin "$S" task start id 1 >&2
	rate_phase capped "$m1"
	s1=$(ec_stats 1 .stats.rate)
	ecin "$S" task change id 1 rate "$r2" >&2
	rate_phase changed "$m2"
	s2=$(ec_stats 1 .stats.rate)
	ecin "$S" task change id 1 rate none >&2
	for i in $(seq 1 600); do
		ec_conn_idle 1 && break
		sleep 0.5
		rate_sample lifted -
	done
	kill "$fg"
	ok=FAILED
	[ "$(ec_stats 1 .stats.last_error)" = none ] && wait_for 30 ec_stored "$tmp/d" 0 && ok=ok
	[ $ok = ok ] || { say "rate FAILED"; ecq "$S" task show id 1 -s >&2; }
	# The series, and each phase's mean over about its second half (from
	# its last sample in the first half): the first holds the ramp after
	# a start or a change (see the series).
	awk -v series="$out/rate-series.csv" -v s1="$s1" -v s2="$s2" -v ok=$ok \
	    -v settle=$((rate_secs / 2)) '
		NR == 1 { print "t_s,phase,task_mbit_s,fg_mbit_s,cap_mbit_s" > series; t0 = $3 }
		NR > 1 { dt = $3 - pt; db = $4 - pb; dr = $5 - pr
			printf "%.2f,%s,%.3f,%.3f,%s\n", $3 - t0, $1, db * 8 / dt / 1e6,
				(dr - db) * 8 / dt / 1e6, $2 == "-" ? "" : $2 > series
			if (!($1 in p0)) { p0[$1] = pt; st[$1] = pt; sb[$1] = pb; sr[$1] = pr }
			if ($3 <= p0[$1] + settle) { st[$1] = $3; sb[$1] = $4; sr[$1] = $5 }
			et[$1] = $3; eb[$1] = $4; er[$1] = $5; cap[$1] = $2 }
		{ pt = $3; pb = $4; pr = $5 }
		END { print "phase,cap_mbit_s,task_mbit_s,ecctl_mbit_s,fg_mbit_s,status"
			e["capped"] = s1; e["changed"] = s2
			split("alone capped changed", ph, " ")
			for (i = 1; i <= 3; i++) { p = ph[i]; d = et[p] - st[p]
				printf "%s,%s,%.3f,%s,%.3f,%s\n", p, cap[p] == "-" ? "" : cap[p],
					(d > 0) ? (eb[p] - sb[p]) * 8 / d / 1e6 : 0,
					(p in e) ? sprintf("%.3f", e[p] * 8 / 1e6) : "",
					(d > 0) ? ((er[p] - sr[p]) - (eb[p] - sb[p])) * 8 / d / 1e6 : 0,
					ok } }' "$tmp/samples" > "$out/rate.csv"
	sed 's/^/  /' "$out/rate.csv" >&2
	ecq "$S" task del id 1
	bench_uncap t1
	ec_stop_servers
fi

# --- the write path: a block written three ways ---------------------------
# A1 (the writer, W) writes a striped RS(6,3) block through its link,
# capped at W's egress: copy sends it whole to T1 (a replica: the
# ceiling), native encodes it on W and sends the 9 fragments to T1..T9
# (host EC: 1.5 times the bytes on W's link), ecproxy sends it once to a
# write task, which stripes it to T1..T9 and makes the parity in S.  W's
# CPU is ecput's (getrusage); every fragment stored is compared with
# ecctl code encode's.

# write_run WAY: one run, one CSV line without its first field:
# way,bytes_w,wall_s,cpu_s,mbit_s,status (bytes_w: W's link, headers too).
write_run() {
	local w=$1 j tx0 tx1 args ok=FAILED
	# ec_stored wants each target's log to hold this run's end only.
	rm -f "$tmp/w"/got.* "$tmp/w"/tgt.*
	case $w in
	copy) args=(copy "$(topo_addr t1)":9100) ;;
	native) args=(native encode isal-cauchy k 6 m 3 cell "$wr_cell" "${wdests[@]}") ;;
	ecproxy) args=(proxy $VIP:7001 nofallback) ;;
	esac
	tx0=$(ip netns exec "$A" cat /sys/class/net/to-s/statistics/tx_bytes)
	j=$(ip netns exec "$A" "$ECPUT" -j -q "${args[@]}" timeout 30000 "$tmp/w/in")
	tx1=$(ip netns exec "$A" cat /sys/class/net/to-s/statistics/tx_bytes)
	if [ "$(jget "$j" ok)" = true ]; then
		if [ "$w" = copy ]; then
			wait_for 10 cmp -s "$tmp/w/in" "$tmp/w/got.copy" && ok=ok
		else
			wait_for 10 ec_stored "$tmp/w" 0,1,2,3,4,5,6,7,8 && ok=ok
		fi
	fi
	if [ $ok = ok ]; then
		say "  $w: $(awk -v b="$wr_block" -v s="$(jget "$j" seconds)" 'BEGIN { printf "%.2f", b * 8 / s / 1e6 }') Mbit/s, W's cpu $(printf '%.2f' "$(jget "$j" cpu_seconds)") s, $((tx1 - tx0)) bytes on W's link"
	else
		say "  $w FAILED: $j"
		ecq "$S" task show -s >&2
	fi
	echo "$w,$((tx1 - tx0)),$(jget "$j" seconds),$(jget "$j" cpu_seconds),$(awk -v b="$wr_block" -v s="$(jget "$j" seconds)" 'BEGIN { printf "%.3f", (s > 0 ? b * 8 / s / 1e6 : 0) }'),$ok"
}
if want write; then
	echo "W (A1) writes a block of $wr_block bytes, RS(6,3) in cells of $wr_cell bytes (isal-cauchy, HDFS); W's link capped at $cap." > "$out/write.txt"
	say "write: $(cat "$out/write.txt")"
	ec_stop_servers
	ecq "$S" task flush
	rm -rf "$tmp/w"
	ec_encode "$tmp/w" isal-cauchy 6 3 "$wr_block" "$wr_cell" || exit 1
	# The storage nodes: fragment f on T(f+1), the replica on T1.
	ec_targets "$tmp/w" 0,1,2,3,4,5,6,7,8 9000 || exit 1
	wdests=("${EC_DESTS[@]}")
	ip netns exec "$T"1 "$PROGS/ecp-tgt" -L "$tmp/w/tgt.copy" 9100 "$tmp/w/got.copy" &
	wait_for 10 topo_listening "$T"1 9100
	ecin "$S" task add id 1 vip $VIP port 7001 encode isal-cauchy k 6 m 3 \
		cell "$wr_cell" "${wdests[@]}" >&2
	ip netns exec "$A" tc qdisc replace dev to-s root tbf rate "$cap" \
		burst $((capbits / 8 / 100 > 16384 ? capbits / 8 / 100 : 16384)) latency 100ms
	echo "rep,way,bytes_w,wall_s,cpu_s,mbit_s,status" > "$out/write.csv"
	# The ways take turns, so that a slow spell of the machine hits each.
	for n in $(seq 1 "$reps"); do
		for w in copy native ecproxy; do
			write_run $w | sed "s/^/$n,/" >> "$out/write.csv"
		done
	done
	ip netns exec "$A" tc qdisc del dev to-s root
	ecq "$S" task del id 1
	ec_stop_servers
fi

say "plots and summary"
"$here/report.sh" "$out" "$size" "$cap" || exit 1
say "done in $(( $(date +%s) - start )) s"
