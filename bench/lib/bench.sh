# SPDX-License-Identifier: GPL-2.0
#
# What make demo and make bench add to the topology and the tasks of the
# selftests (selftests/lib/topo.sh and ec.sh, sourced here): the three
# ways of rebuilding a fragment in A, the machine description and a log
# line.  The command log stays out of their stderr, which is their report
# (TAP_QUIET), and the storage nodes hold the fragments as a cluster does
# (EC_LAYOUT spread: fragment i on B(i+1), the replica of the lost one on
# the next node).
#
# Functions: bench_log MSG, bench_fetch I ARGS..., bench_way WAY I ID
# PROFILE K M LOST SHA, jget JSON KEY, bench_env.

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
# silently become a native one.
bench_way() {
	local way=$1 i=$2 id=$3 code=(code "$4" k "$5" m "$6" lost "$7")
	local common=(sha256 "$8" size "$EC_FRAGSIZE" timeout 30000)
	case $way in
	replication) bench_fetch "$i" copy "$EC_REPLICA" "${common[@]}" ;;
	native) bench_fetch "$i" native "${code[@]}" "${EC_SOURCES[@]}" "${common[@]}" ;;
	ecproxy) bench_fetch "$i" proxy $VIP:$((7000 + id)) "${code[@]}" \
			"${EC_SOURCES[@]}" nofallback "${common[@]}" ;;
	esac
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
