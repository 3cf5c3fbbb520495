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
# bench_ping_start NS ADDR FILE, bench_ping_stop FILE, bench_s_steer,
# bench_s_sample_start, bench_s_sample, bench_s_sample_stop, bench_s_null,
# bench_s_perf_start, bench_s_perf_stop FILE.

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

# What S's CPU does, apart from the hosts' stacks.  In S's own VM
# (selftests/vm/pair) that is the VM's every CPU.  On one machine
# (VM=0), bench_s_steer N gives S the last N CPUs (default 1): Receive
# Packet Steering sends every packet S's links receive there, and every
# other packet and the bench's processes elsewhere, so that those CPUs'
# busy time is S's (and what else the kernel runs there); bench_s_unsteer
# undoes it.  bench_s_cpus names their /proc/stat lines (empty: all).
bench_s_cpus=
bench_s_steer() {
	local n want=${1:-1} first mask others x d q c ns dev m
	[ -z "${ECP_S_VM:-}" ] || return 0
	n=$(nproc --all)
	[ "$n" -gt "$want" ] || { bench_log "bench: $n CPUs: S's time cannot be told apart on $want of them"; return 1; }
	first=$((n - want))
	bench_s_cpus=
	for c in $(seq "$first" $((n - 1))); do bench_s_cpus+=" cpu$c"; done
	mask=$(bench_cpumask "$first" $((n - 1)))
	others=$(bench_cpumask 0 $((first - 1)))
	for x in "${topo_nodes[@]}"; do
		for d in "$S to-$x $mask" "$P-$x to-s $others"; do
			read -r ns dev m <<< "$d"
			for q in $(ip netns exec "$ns" sh -c "ls -d /sys/class/net/$dev/queues/rx-*"); do
				ip netns exec "$ns" sh -c "echo $m > $q/rps_cpus" || return 1
			done
		done
	done
	# This shell and what it starts from now on (servers, clients).
	taskset -a -p -c "0-$((first - 1))" $$ >/dev/null
}

bench_s_unsteer() {
	local x d q ns dev
	[ -z "${ECP_S_VM:-}" ] && [ -n "$bench_s_cpus" ] || return 0
	for x in "${topo_nodes[@]}"; do
		for d in "$S to-$x" "$P-$x to-s"; do
			read -r ns dev <<< "$d"
			for q in $(ip netns exec "$ns" sh -c "ls -d /sys/class/net/$dev/queues/rx-*"); do
				ip netns exec "$ns" sh -c "echo 0 > $q/rps_cpus"
			done
		done
	done
	taskset -a -p -c "0-$(($(nproc --all) - 1))" $$ >/dev/null
	bench_s_cpus=
}

# bench_cpumask FIRST LAST: CPUs FIRST..LAST as rps_cpus takes them:
# 32-bit hex words, comma-separated, the highest first.
bench_cpumask() {
	awk -v f="$1" -v l="$2" -v n="$(nproc --all)" 'BEGIN {
		for (w = int((n + 31) / 32) - 1; w >= 0; w--) {
			hi = 0; lo = 0
			for (b = 0; b < 32; b++) {
				c = w * 32 + b
				if (c < f || c > l) continue
				if (b < 16) lo += 2 ^ b; else hi += 2 ^ (b - 16)
			}
			printf "%s%04x%04x", (w < int((n + 31) / 32) - 1 ? "," : ""), hi, lo
		}
		printf "\n" }'
}

# bench_s_sample_start: S's sampler (bench/lib/s-sample.sh), in S for
# the figure, on a connection of its own (a coprocess here); then each
# bench_s_sample prints one line, "WALL IDLE RX_B TX_A RX_A TX_B RXP_B
# TXP_A RXP_A TXP_B IDLE1 ...": S's CPU seconds so far, those idle (idle
# and iowait), the bytes S's links to the storage nodes received, its
# link to A1 sent and received, and the storage nodes' links sent
# (headers included), the same links' packets in the same order, then
# each CPU's idle seconds; or nothing and fails.  Busy is wall less idle:
# /proc/stat's idle leaves out the interrupts and softirqs a CPU ran
# while idle, while its system and softirq ticks miss them (the tick is
# off: NO_HZ), which is most of what an S that keeps up does.  A sample
# costs S a few reads and no process (a request to its agent costs about
# half a second of S's CPU under emulation).
bench_s_sample_start() {
	local i
	if [ -z "${ECP_S_VM:-}" ]; then
		# shellcheck disable=SC2086 # a list of CPUs
		coproc S_SAMPLE { ip netns exec "$S" "$top/bench/lib/s-sample.sh" $bench_s_cpus; }
	else
		topo_s_run "nohup socat TCP-LISTEN:7778,bind=$ECP_S_VM,reuseaddr EXEC:'$top/bench/lib/s-sample.sh$bench_s_cpus' > /dev/null 2>&1 < /dev/null &"
		for i in $(seq 1 100); do
			topo_s_run "ss -Hltn 'sport = :7778' | grep -q ." && break
			sleep 0.1
		done
		coproc S_SAMPLE { socat - "TCP:$ECP_S_VM:7778"; }
	fi
	# Copies that command substitutions keep (bash closes a coproc's own
	# descriptors in subshells).
	exec {bench_s_to}>&"${S_SAMPLE[1]}" {bench_s_from}<&"${S_SAMPLE[0]}"
	bench_s_sample > /dev/null || { bench_log "bench: S's sampler does not answer"; return 1; }
}

bench_s_sample_stop() {
	local pid=${S_SAMPLE_PID:-}
	exec {bench_s_to}>&- {bench_s_from}<&-
	[ -z "${S_SAMPLE[1]:-}" ] || eval "exec ${S_SAMPLE[1]}>&-"
	[ -z "$pid" ] || wait "$pid" 2>/dev/null
	return 0
}

bench_s_sample() {
	local line
	echo >&"$bench_s_to" 2>/dev/null || return 1
	read -r line <&"$bench_s_from" && [ -n "$line" ] || return 1
	# %.0f: mawk's %d stops at 2^31, and the counters do not.
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%.3f %.3f %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f", $1 * $2, $3 / hz,
			$4, $7, $6, $5, $8, $11, $10, $9
		for (i = 12; i <= NF; i++) printf " %.3f", $i / hz
		printf "\n" }' <<< "$line"
}

# bench_s_null: the median over five of the busy seconds that two samples
# back to back cost S.
bench_s_null() {
	local i a b
	for i in 1 2 3 4 5; do
		a=$(bench_s_sample)
		b=$(bench_s_sample)
		echo "$a $b" | awk '{ n = NF / 2; printf "%.3f\n", ($(n + 1) - $1) - ($(n + 2) - $2) }'
	done | sort -n | sed -n 3p
}

# bench_s_perf_start: profile S's CPUs (perf record, the software clock:
# it works under emulation) until bench_s_perf_stop FILE, which writes to
# FILE the share of the samples S was idle, then the top 20 kernel
# symbols as shares of S's busy kernel samples (user space there is the
# agent's and perf's own), and what ecproxy's own functions add up to.
bench_s_perf_start() {
	local cpus=-a
	# shellcheck disable=SC2086 # a list of CPUs, one word each
	[ -z "$bench_s_cpus" ] || cpus="-C $(echo $bench_s_cpus | sed 's/cpu//g; s/ /,/g')"
	# perf takes a while to start under emulation: the data file is
	# written once it records.
	topo_s_run "rm -f /tmp/ecp-perf.data; nohup perf record -q -e cpu-clock -F 997 $cpus -o /tmp/ecp-perf.data > /tmp/ecp-perf.log 2>&1 < /dev/null & echo \$! > /tmp/ecp-perf.pid
		for i in \$(seq 1 300); do [ -s /tmp/ecp-perf.data ] && break; sleep 0.1; done; sleep 1"
}

bench_s_perf_stop() {
	local rc=0
	# shellcheck disable=SC2016 # expanded in S
	topo_s_run 'p=$(cat /tmp/ecp-perf.pid); kill -INT $p; while kill -0 $p 2>/dev/null; do sleep 0.2; done
		perf report -i /tmp/ecp-perf.data --stdio --no-children --sort dso,sym --percent-limit 0 2>/dev/null' |
		awk 'BEGIN { n = 0 }
			/^#/ || !NF { next }
			{ p = $1; sub(/%/, "", p) }
			$0 ~ /native_safe_halt|default_idle|cpuidle|poll_idle|mwait_idle|acpi_idle/ { idle += p; next }
			$3 != "[k]" { next }
			{ v = $4; for (i = 5; i <= NF; i++) v = v " " $i; sym[n] = v; share[n] = p; n++; busy += p
			  if ($4 ~ /^ecp_/) mod += p }
			END {
				printf "# S idle in %.1f%% of the samples, busy in the kernel in %.1f%%; ecproxy'"'"'s own functions (ecp_*) are %.1f%% of that\n", idle, busy, busy ? 100 * mod / busy : 0
				printf "# top 20 kernel symbols, as shares of the busy kernel samples:\n"
				for (i = 0; i < n && i < 20; i++)
					printf "%6.2f%%  %s\n", busy ? 100 * share[i] / busy : 0, sym[i]
				exit !n
			}' > "$1" || rc=1
	[ $rc = 0 ] || bench_log "bench: perf recorded nothing in S ($1)"
	return $rc
}
