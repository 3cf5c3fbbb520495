# SPDX-License-Identifier: GPL-2.0
#
# What make demo and make bench add to the topology and the tasks of the
# selftests (selftests/lib/topo.sh and ec.sh, sourced here): the three
# ways of rebuilding a fragment in A, link caps, counters and pings, the
# machine description and a log line.  The command log stays out of their stderr, which is their report
# (TAP_QUIET), and the storage nodes hold the fragments as a cluster does
# (EC_LAYOUT spread: fragment i on B(i+1), the replica of the lost one on
# the next node).
#
# Functions: bench_log MSG, bench_fetch I ARGS..., bench_way WAY I ID
# PROFILE K M LOST SHA, jget JSON KEY, bench_env, bench_bits RATE,
# bench_cap X RATE [LEAF], bench_uncap X, bench_qdrops X,
# bench_bytes NS DEVS STAT,
# bench_ping_start NS ADDR FILE, bench_ping_stop FILE.

TAP_QUIET=1
EC_LAYOUT=spread
. "$(dirname "${BASH_SOURCE[0]}")/../../selftests/lib/ec.sh"

bench_log() {
	echo "[$(date +%H:%M:%S)] $*" >&2
}

# bench_fetch I ARGS...: ecfetch -j ARGS in A_I; the JSON summary on
# stdout.  With BENCH_OUTDIR set, the bytes go to BENCH_OUTDIR/out.I (and
# are hashed after the clock stops), else they are hashed on the way and
# dropped.
bench_fetch() {
	local i=$1
	shift
	ecfetch_in "$P-a$i" -j -q ${BENCH_OUTDIR:+-o "$BENCH_OUTDIR/out.$i"} "$@"
}

# bench_way WAY I ID PROFILE K M LOST SHA: rebuild in A_I one way
# (replication, native or ecproxy; the task ID must exist for ecproxy),
# JSON on stdout.  ecproxy runs with nofallback: a measurement must not
# silently become a native one.  With BENCH_BLOCK and BENCH_CELL, a
# degraded read of that striped block instead: replication copies
# EC_REPLICA (then a replica of the block), native decodes the lost cells
# in A, ecproxy reads task ID, a read task.
bench_way() {
	local way=$1 i=$2 id=$3 code=(code "$4" k "$5" m "$6" lost "$7")
	local size=$EC_FRAGSIZE mode=proxy layout=()
	if [ -n "${BENCH_BLOCK:-}" ]; then
		size=$BENCH_BLOCK mode=read
		layout=(block "$BENCH_BLOCK" cell "$BENCH_CELL")
	fi
	local common=(sha256 "$8" size "$size" timeout "${BENCH_TIMEOUT:-30000}")
	case $way in
	replication) bench_fetch "$i" copy "$EC_REPLICA" "${common[@]}" ;;
	native) bench_fetch "$i" native "${code[@]}" "${EC_SOURCES[@]}" \
			"${layout[@]}" "${common[@]}" ;;
	ecproxy) bench_fetch "$i" $mode $VIP:$((7000 + id)) "${code[@]}" \
			"${EC_SOURCES[@]}" "${layout[@]}" nofallback "${common[@]}" ;;
	esac
}

# bench_bits RATE: a tc rate in bit/s (8mbit: 8000000).
bench_bits() {
	numfmt --from=si "$(echo "${1%bit}" | tr 'a-z' 'A-Z')"
}

# bench_cap X RATE [LEAF]: cap what reaches node X (t1, a2 ...) on its
# link, as topo_cap does for the As (topo.sh has it for them only); with
# LEAF (fq_codel), that qdisc queues under the shaper instead of tbf's
# FIFO.
bench_cap() {
	local tbf
	tbf=$(topo_tbf "$2") || return 1
	# shellcheck disable=SC2086 # tc's words
	ip netns exec "$S" tc qdisc replace dev "to-$1" root handle 1: $tbf ||
		return 1
	[ -z "${3:-}" ] || ip netns exec "$S" tc qdisc replace dev "to-$1" parent 1:1 "$3"
}

bench_uncap() {
	ip netns exec "$S" tc qdisc del dev "to-$1" root 2>/dev/null
	return 0
}

# bench_qdrops X: the packets S's qdisc on its link to X has dropped.
bench_qdrops() {
	ip netns exec "$S" tc -s qdisc show dev "to-$1" root |
		sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | head -1
}

# bench_bytes NS DEVS STAT: statistic STAT (rx_bytes, tx_bytes) summed
# over NS's devices DEVS (a glob: 'to-b*').
bench_bytes() {
	ip netns exec "$1" sh -c "cat /sys/class/net/$2/statistics/$3" |
		awk '{ s += $1 } END { print s + 0 }'
}

# bench_ping_start NS ADDR FILE: ping ADDR from NS every 200 ms into FILE
# until bench_ping_stop FILE, which prints the replies' "MEAN MAX" RTT (ms).
bench_ping_start() {
	ip netns exec "$1" ping -n -i 0.2 "$2" > "$3" 2>&1 &
	echo $! > "$3.pid"
}

bench_ping_stop() {
	kill -INT "$(cat "$1.pid")" 2>/dev/null
	wait "$(cat "$1.pid")" 2>/dev/null
	rm -f "$1.pid"
	sed -n 's/.* time=\([0-9.]*\) ms$/\1/p' "$1" |
		awk '{ s += $1; if ($1 > m) m = $1 } END { printf "%.2f %.2f\n", NR ? s / NR : 0, m }'
}

# bench_rtt_start NS PORT FILE: sample, every 200 ms into FILE, the RTT
# that NS's TCP measures on its connections from local PORT (ss -ti),
# until bench_rtt_stop FILE, which prints the last sample's "SRTT RTTVAR"
# (ms): a plain connection's view of the path, beside ecproxy's.
bench_rtt_start() {
	ip netns exec "$1" sh -c "while :; do ss -tinH state established '( sport = :$2 )'; sleep 0.2; done" \
		> "$3" 2>/dev/null &
	echo $! > "$3.pid"
}

bench_rtt_stop() {
	kill "$(cat "$1.pid")" 2>/dev/null
	wait "$(cat "$1.pid")" 2>/dev/null
	rm -f "$1.pid"
	sed -n 's/.* rtt:\([0-9.]*\)\/\([0-9.]*\) .*/\1 \2/p' "$1" | tail -1 | grep . || echo "0 0"
}

# jget JSON KEY: one field of a JSON summary.
jget() {
	jq -r ".$2" <<< "$1"
}

# bench_env: the machine and versions, one "key: value" per line.
bench_env() {
	local accel=unknown
	if grep -q '^flags.* hypervisor' /proc/cpuinfo; then
		if grep -q kvm-clock /sys/devices/system/clocksource/clocksource0/available_clocksource 2>/dev/null; then
			accel=KVM
		else
			accel=TCG
		fi
	else
		accel="bare metal"
	fi
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "kernel: $(uname -r)"
	echo "virtualisation: $accel"
	echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1) x $(nproc)"
	echo "memory: $(awk '/MemTotal/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo)"
	echo "ecproxy: ${ECP_GIT:-$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)}," \
		"gf_impl $(cat /sys/module/ecproxy/parameters/gf_impl 2>/dev/null || echo -)"
	echo "tools: $(socat -V 2>/dev/null | sed -n 's/^socat version \([^ ]*\).*/socat \1/p'), $(tc -V 2>/dev/null | head -1)"
}
