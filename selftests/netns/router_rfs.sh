#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A connection's flows on one CPU (kmod/steer.h).  A's client runs on
# CPU 0 and B2's and B3's servers on CPU 1.  veth delivers a packet on the
# CPU that sent it, so without steering S takes B2's and B3's segments on
# CPU 1, away from the connection's home (CPU 0, where the client's SYN
# came in), and counts them in off-home.  With Receive Flow Steering
# enabled (net.core.rps_sock_flow_entries, rps_flow_cnt on S's links),
# ecproxy records every flow of the connection as its home's and RFS moves
# them there: off-home stays at the few segments each flow sends before
# S first sees it.  Where a connection lives is its home, which `ecctl
# monitor` prints when it is established: without RFS the CPU of the
# client's SYN; with RFS the CPU with the fewest connections (kmod/steer.c),
# so that two connections at once live on different CPUs, unless the
# module parameter steer_by_load is N (both on the SYN's CPU).  Byte-exact
# every time.  Needs two CPUs (make check runs it in netns-debian-late,
# whose VM has two).  ../lib/topo.sh with RS(3,2).
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

ncpu=$(nproc)
if [ "$ncpu" -lt 2 ]; then
	tap_skip "a connection's flows on one CPU" "one CPU"
	tap_done
	exit
fi

topo_init rfs
pp modprobe ecproxy
topo_setup 1 3 || exit 1
ec_monitor
# steer_by_load=N must not outlive this file in the VM (below).
trap 'topo_steer_by_load Y >/dev/null 2>&1; ec_mon_cleanup' EXIT

# pin NODE CPU: NODE's processes (its server, and what it forks) on CPU.
pin() {
	local p
	for p in $(ip netns pids "$P-$1"); do
		taskset -a -p -c "$2" "$p" >/dev/null || return 1
	done
}

# run DESC ID: rebuild fragment 0 with the client on CPU 0, B1 on CPU 0,
# B2 and B3 on CPU 1; sets off (off-home) and segs (segments from the
# sources).
run() {
	local desc=$1 id=$2
	off=-1
	segs=0
	if ! ec_prep "$id" isal-cauchy 3 2 0 $((3 << 20)) ||
		! pin b1 0 || ! pin b2 1 || ! pin b3 1; then
		tap_fail "$desc" "setting up the sources, the task or their CPUs failed"
		ec_stop_servers
		return
	fi
	taskset -p -c 0 $$ >/dev/null
	ec_fetch "$id"
	taskset -p -c 0-$((ncpu - 1)) $$ >/dev/null
	ec_verify "$desc" "$id"
	ec_stop_servers
	# Ended, and so no longer counted on its home: the two at once
	# below must be the only connections.
	if ! wait_for 10 ec_conn_idle "$id"; then
		tap_fail "$desc: the connection ends after the transfer" \
			"$(ecq "$S" task show id "$id" -s 2>&1 | head -3)"
	fi
	off=$(ec_stats "$id" .stats.off_home)
	segs=$(ec_stats "$id" '[.sources[].stats.segs_in] | add')
	echo "# $desc: $off of $segs source segments (and the client's) off home" >&2
}

# both_at_once DESC: tasks 3 and 4 at once, with both clients on CPU 0;
# sets h3 and h4, their homes.  The first client's bytes go through a pipe
# that nobody reads until the second is done (with A's receive buffer
# small), so that the first holds its connection however fast or slow
# the VM.  Two tests (byte-exact); fails if the two did not overlap.
both_at_once() {
	local desc=$1 f3 first
	h3= h4=
	if ! wait_for 10 ec_conn_idle 3 || ! wait_for 10 ec_conn_idle 4; then
		echo "# $desc: an earlier connection of task 3 or 4 did not end" >&2
		return 1
	fi
	ec_mon_mark
	taskset -p -c 0 $$ >/dev/null
	rm -f "$tmp/go"
	echo "[+] ip netns exec $A socat -u TCP:$VIP:7003 - | (held) > out" >&"$tap_log"
	timeout "$EC_TIMEOUT" ip netns exec "$A" socat -u TCP:$VIP:7003 - \
		2> "$tmp/3/err" |
		{ wait_for 60 test -e "$tmp/go"; cat; } > "$tmp/3/out" &
	f3=$!
	h3=$(home 3)
	ec_fetch 4
	h4=$(home 4)
	touch "$tmp/go"
	wait $f3
	taskset -p -c 0-$((ncpu - 1)) $$ >/dev/null
	ec_verify "$desc, two at once: the first fragment, byte-exact" 3
	ec_verify "$desc, two at once: the second fragment, byte-exact" 4
	# The monitor's lines are in the order of the events.
	first=$(mon_text |
		grep -Eo "^task (3 completed|3 failed|4 established)" | head -1)
	if [ "$first" != "task 4 established" ]; then
		echo "# $desc: the first completed before the second was established" >&2
		return 1
	fi
}

# home ID: the CPU task ID's connection was established on (the monitor's
# lines since the last ec_mon_mark).
home() {
	wait_for 10 mon_has "^task $1 established .* cpu [0-9]+\$" &&
		mon_text | sed -n "s/^task $1 established .* cpu \([0-9]*\)\$/\1/p" | tail -1
}

run "RFS off: RS(3,2), sources on both CPUs, 1 MiB fragment" 1
h=$(home 1)
if [ "$h" = 0 ]; then
	tap_ok "RFS off: the connection lives where the client's SYN came in (cpu $h)"
else
	tap_fail "RFS off: the connection lives where the client's SYN came in" \
		"cpu '$h', want 0"
fi
if [ "$off" -gt $((segs / 10)) ]; then
	tap_ok "RFS off: the segments that came in on CPU 1 are counted off home ($off of $segs)"
else
	tap_fail "RFS off: the segments that came in on CPU 1 are counted off home" \
		"off-home $off of $segs source segments"
fi

if pp topo_rfs on; then
	run "RFS on: RS(3,2), sources on both CPUs, 1 MiB fragment" 2
	# Each of the four flows may be seen once away from home, before S
	# has recorded it; a few more for a sender's rehash after a loss.
	if [ "$off" -ge 0 ] && [ "$off" -le 16 ]; then
		tap_ok "RFS on: S steers every flow to its home CPU ($off of $segs off home)"
	else
		tap_fail "RFS on: S steers every flow to its home CPU" \
			"off-home $off of $segs source segments"
	fi

	# Two at once, both clients on CPU 0: by load, the second goes to
	# the other CPU; with steer_by_load=N both live where their SYNs came
	# in.  A's receive buffer is cut to 128 KiB for both_at_once.
	if ec_prep 3 isal-cauchy 3 2 0 $((3 << 20)) &&
		ec_prep 4 isal-cauchy 3 2 0 $((3 << 20)) &&
		pp ip netns exec "$A" sysctl -qw net.ipv4.tcp_rmem="4096 131072 131072" &&
		pp topo_steer_by_load N; then
		if both_at_once "RFS on, steer_by_load=N" &&
			[ "$h3" = 0 ] && [ "$h4" = 0 ]; then
			tap_ok "RFS on, steer_by_load=N: both live where their SYNs came in (cpu 0)"
		else
			tap_fail "RFS on, steer_by_load=N: both live where their SYNs came in" \
				"homes '$h3' and '$h4', want 0 and 0"
		fi
		pp topo_steer_by_load Y
		if both_at_once "RFS on" && [ -n "$h3" ] && [ -n "$h4" ] &&
			[ "$h3" != "$h4" ]; then
			tap_ok "RFS on: two connections at once live on two CPUs ($h3 and $h4)"
		else
			tap_fail "RFS on: two connections at once live on two CPUs" \
				"homes '$h3' and '$h4'"
		fi
	else
		tap_fail "RFS on, two at once" "setting up the sources, the tasks or steer_by_load failed"
	fi
	ec_stop_servers
	topo_rfs off
else
	tap_fail "enable RFS on S's links" "sysctl or sysfs refused"
fi

tap_done
