# SPDX-License-Identifier: GPL-2.0
#
# Shared topology for make demo and make bench (sourced, bash).
#
#                    +------------------------------+
#   A1 10.1.1.2 -----| s-a1 10.1.1.1                |----- B1 10.2.1.2 (fragment 0)
#   A2 10.1.2.2 -----| s-a2 ...    S: router,       |----- B2 10.2.2.2 (fragment 1)
#   ...              |             VIP 10.99.0.1/lo |      ...
#                    |             ecproxy tasks    |----- Bn 10.2.n.2 (fragment n-1)
#                    +------------------------------+
#
# Node Bi serves fragment i-1 on port 8000 (socat, one fork per
# connection).  The replica of a lost fragment is served by another node on
# port 8001.  Everything that reaches an A crosses S's s-aI, where the cap
# (tbf) sits, so the three ways of rebuilding share one bottleneck.
#
# Functions: topo_setup NA NB, topo_cleanup, topo_cap I RATE, topo_delay I MS,
# topo_uncap I, topo_cap_b I RATE, topo_uncap_b I, topo_bytes_out_gt ID N, topo_encode DIR PROFILE K M SIZE, topo_serve NODE FILE PORT,
# topo_stop_servers, topo_task ID PROFILE K M LOST [ECCTL-ARGS...], topo_sources,
# topo_fetch I ARGS... (ecfetch in A_I), topo_env (machine description).

TOPO_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ECCTL=${ECCTL:-$TOPO_TOP/tools/ecctl/ecctl}
ECFETCH=${ECFETCH:-$TOPO_TOP/tools/ecfetch/ecfetch}
TOPO_P=${TOPO_P:-ecp-t}
TOPO_S=$TOPO_P-s
TOPO_VIP=10.99.0.1
TOPO_NA=0
TOPO_NB=0
topo_pids=()

topo_log() {
	echo "[$(date +%H:%M:%S)] $*" >&2
}

topo_cleanup() {
	local i
	topo_stop_servers
	ip netns del "$TOPO_S" 2>/dev/null
	for i in $(seq 1 "$TOPO_NA"); do
		ip netns del "$TOPO_P-a$i" 2>/dev/null
	done
	for i in $(seq 1 "$TOPO_NB"); do
		ip netns del "$TOPO_P-b$i" 2>/dev/null
	done
	return 0
}

# topo_node NS SIF NET: namespace NS linked to S by veth SIF (S's side,
# NET.1/24) and "to-s" (NS's side, NET.2/24, default route).
topo_node() {
	ip netns add "$1" || return 1
	ip -n "$1" link set lo up
	ip -n "$TOPO_S" link add "$2" type veth peer name to-s netns "$1"
	ip -n "$TOPO_S" addr add "$3.1/24" dev "$2"
	ip -n "$TOPO_S" link set "$2" up
	ip -n "$1" addr add "$3.2/24" dev to-s
	ip -n "$1" link set to-s up
	ip -n "$1" route add default via "$3.1"
}

# topo_setup NA NB: S, NA clients and NB storage nodes.
topo_setup() {
	local i
	TOPO_NA=$1
	TOPO_NB=$2
	ip netns add "$TOPO_S" || return 1
	ip -n "$TOPO_S" link set lo up
	ip -n "$TOPO_S" addr add $TOPO_VIP/32 dev lo
	ip netns exec "$TOPO_S" sysctl -qw net.ipv4.ip_forward=1
	for i in $(seq 1 "$TOPO_NA"); do
		topo_node "$TOPO_P-a$i" s-a"$i" 10.1."$i" || return 1
	done
	for i in $(seq 1 "$TOPO_NB"); do
		topo_node "$TOPO_P-b$i" s-b"$i" 10.2."$i" || return 1
	done
}

# topo_cap I RATE: cap what reaches A_I (e.g. 200mbit).  The bucket holds
# 10 ms at the rate (at least 16 KiB: one TSO segment and a timer tick at
# low rates), so that small transfers are not one free burst; the queue
# holds 100 ms, so that k converging streams are not starved by drops alone.
topo_cap() {
	local bits burst
	bits=$(numfmt --from=si "$(echo "${2%bit}" | tr 'a-z' 'A-Z')") || return 1
	burst=$((bits / 8 / 100))
	[ $burst -ge 16384 ] || burst=16384
	ip netns exec "$TOPO_S" tc qdisc replace dev s-a"$1" root \
		tbf rate "$2" burst $burst latency 100ms
}

# topo_cap_b I RATE: cap what storage node B_I sends (a straggler).
topo_cap_b() {
	ip netns exec "$TOPO_P-b$1" tc qdisc replace dev to-s root \
		tbf rate "$2" burst 16384 latency 1s
}

topo_uncap_b() {
	ip netns exec "$TOPO_P-b$1" tc qdisc del dev to-s root 2>/dev/null
	return 0
}

# topo_delay I MS: delay A_I's outgoing packets (its ACKs), which is the
# RTT between A_I and every sender.
topo_delay() {
	ip netns exec "$TOPO_P-a$1" tc qdisc replace dev to-s root netem delay "$2"ms limit 100000
}

topo_uncap() {
	ip netns exec "$TOPO_S" tc qdisc del dev s-a"$1" root 2>/dev/null
	ip netns exec "$TOPO_P-a$1" tc qdisc del dev to-s root 2>/dev/null
	return 0
}

# topo_encode DIR PROFILE K M SIZE: SIZE random bytes encoded into DIR;
# sets TOPO_FRAGSIZE.
topo_encode() {
	local dir=$1
	mkdir -p "$dir"
	head -c "$5" /dev/urandom > "$dir/block"
	"$ECCTL" code encode "$2" k "$3" m "$4" in "$dir/block" out "$dir" >/dev/null || return 1
	rm -f "$dir/block"
	TOPO_FRAGSIZE=$(stat -c %s "$dir/frag.0")
}

# topo_serve NODE FILE PORT: B_NODE serves FILE on PORT until stopped.
topo_serve() {
	local ns=$TOPO_P-b$1 t
	ip netns exec "$ns" socat -U TCP-LISTEN:"$3",reuseaddr,fork,backlog=128 \
		OPEN:"$2",rdonly 2>/dev/null &
	topo_pids+=($!)
	for t in $(seq 100); do
		ip netns exec "$ns" ss -ltnH | grep -q ":$3 " && return 0
		sleep 0.1
	done
	return 1
}

topo_stop_servers() {
	local p
	for p in "${topo_pids[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	topo_pids=()
}

# topo_store DIR K M LOST: serve every fragment of DIR but LOST on its node
# (fragment i on B_{i+1}) and the replica of LOST on the next node, port
# 8001.  Sets TOPO_SOURCES (the first K survivors, ecctl/ecfetch syntax)
# and TOPO_REPLICA (ADDR:PORT).
topo_store() {
	local dir=$1 k=$2 m=$3 lost=$4 i n=0 rep
	TOPO_SOURCES=()
	for i in $(seq 0 $((k + m - 1))); do
		[ "$i" != "$lost" ] || continue
		topo_serve $((i + 1)) "$dir/frag.$i" 8000 || return 1
		if [ $n -lt "$k" ]; then
			TOPO_SOURCES+=(source 10.2.$((i + 1)).2:8000:$i)
			n=$((n + 1))
		fi
	done
	rep=$(((lost + 1) % (k + m) + 1))
	topo_serve $rep "$dir/frag.$lost" 8001 || return 1
	TOPO_REPLICA=10.2.$rep.2:8001
}

# topo_task ID PROFILE K M LOST [ECCTL-ARGS...]: a task on VIP:7000+ID
# rebuilding LOST from TOPO_SOURCES; ECCTL-ARGS (buffer, timeout ...) are
# added to the task add command.
topo_task() {
	ip netns exec "$TOPO_S" "$ECCTL" task add id "$1" vip $TOPO_VIP port $((7000 + $1)) \
		code "$2" k "$3" m "$4" lost "$5" "${TOPO_SOURCES[@]}" "${@:6}"
}

topo_task_del() {
	ip netns exec "$TOPO_S" "$ECCTL" task del id "$1"
}

# topo_fetch I ARGS...: ecfetch -j ARGS in A_I; the JSON summary on stdout.
# With TOPO_OUTDIR set, the bytes go to TOPO_OUTDIR/out.I (and are hashed
# after the clock stops), else they are hashed on the way and dropped.
topo_fetch() {
	local i=$1
	shift
	ip netns exec "$TOPO_P-a$i" "$ECFETCH" -j -q \
		${TOPO_OUTDIR:+-o "$TOPO_OUTDIR/out.$i"} "$@"
}

# topo_way WAY I ID PROFILE K M LOST SHA: rebuild in A_I one way
# (replication, native or ecproxy; the task ID must exist for ecproxy),
# JSON on stdout.  ecproxy runs with nofallback: a measurement must not
# silently become a native one.
topo_way() {
	local way=$1 i=$2 id=$3 code=(code "$4" k "$5" m "$6" lost "$7")
	local common=(sha256 "$8" size "$TOPO_FRAGSIZE" timeout 30000)
	case $way in
	replication) topo_fetch "$i" copy "$TOPO_REPLICA" "${common[@]}" ;;
	native) topo_fetch "$i" native "${code[@]}" "${TOPO_SOURCES[@]}" "${common[@]}" ;;
	ecproxy) topo_fetch "$i" proxy $TOPO_VIP:$((7000 + id)) "${code[@]}" \
			"${TOPO_SOURCES[@]}" nofallback "${common[@]}" ;;
	esac
}

# topo_bytes_out_gt ID N: task ID has sent its client more than N bytes.
topo_bytes_out_gt() {
	local out
	out=$(ip netns exec "$TOPO_S" "$ECCTL" task show id "$1" -s 2>/dev/null |
	      sed -n 's/.*bytes in [0-9]* out \([0-9]*\) .*/\1/p')
	[ -n "$out" ] && [ "$out" -gt "$2" ]
}

# jget JSON KEY: one field of a JSON summary.
jget() {
	jq -r ".$2" <<< "$1"
}

# topo_env: the machine and versions, one "key: value" per line.
topo_env() {
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
	echo "ecproxy: ${ECP_GIT:-$(git -C "$TOPO_TOP" describe --always --dirty 2>/dev/null || echo unknown)}," \
		"gf_impl $(cat /sys/module/ecproxy/parameters/gf_impl 2>/dev/null || echo -)"
	echo "tools: $(socat -V 2>/dev/null | sed -n 's/^socat version \([^ ]*\).*/socat \1/p'), $(tc -V 2>/dev/null | head -1)"
}
