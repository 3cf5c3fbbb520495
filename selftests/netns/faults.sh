#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Faults during a reconstruction: loss from a source (S prompts it with
# duplicate ACKs), a source or A whose link dies mid-transfer (the idle
# timeout blames the side the stream waits on), a source killed
# mid-transfer (its early FIN is a length mismatch), A killed
# mid-transfer (its reset reaches every source).  Either the bytes
# arrive exact or every side is reset and the reason is reported.
#
# Topology: ../lib/topo.sh with three sources, A -- S (VIP on lo) -- B1..B3.
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

topo_init ft

# no_established NS: no established TCP connection left in NS.
no_established() {
	[ -z "$(ip netns exec "$1" ss -tnH state established)" ]
}

# cut NS DEV: the link stops passing anything (as if the cable were
# pulled), without the route changes of taking it down.
cut() {
	pp ip netns exec "$1" tc qdisc add dev "$2" root netem loss 100%
}

uncut() {
	pp ip netns exec "$1" tc qdisc del dev "$2" root
}

pp modprobe ecproxy
topo_setup 1 3 || exit 1
have_netem=1
ip netns exec $S tc qdisc add dev to-a1 root netem loss 0% 2>/dev/null &&
	ip netns exec $S tc qdisc del dev to-a1 root || have_netem=0

# rebuild DESC ID: RS(3,2) isal-cauchy, lost 0, 1 MiB fragment; exact?
rebuild() {
	local desc=$1 id=$2
	if ec_prep "$id" isal-cauchy 3 2 0 $((3 << 20)); then
		EC_TIMEOUT=120 ec_fetch "$id"
		ec_verify "$desc: exact in ${el} ms" "$id"
	else
		tap_fail "$desc" "setting up the sources or the task failed"
	fi
	ec_stop_servers
	wait_for 10 ec_conn_idle "$id"
	ecin $S task show id "$id" -s >&2
}

# streaming ID: the sources stream zeros forever to A (idle timeout 2 s),
# in the background (apid), and the first 200000 bytes are through.
streaming() {
	ec_endless "$1" 8000 timeout idle 2000 &&
		wait_for 30 ec_bytes_out_gt "$1" 200000
}

# client_gone ID DESC ERROR: after A is gone (link cut, killed), task ID's
# state is freed, the failure reported as ERROR and every source reset.
client_gone() {
	if wait_for 20 ec_conn_idle "$1"; then
		tap_ok "$2: connection state freed"
	else
		tap_fail "$2: connection state freed"
	fi
	ec_reported "$1" "failed 1 .*last-error $3" "$2: reported as $3"
	if wait_for 10 no_established ${B}1 && wait_for 10 no_established ${B}2 &&
	   wait_for 10 no_established ${B}3; then
		tap_ok "$2: every source reset"
	else
		tap_fail "$2: every source reset"
	fi
}

rebuild "clean run, 1 MiB fragment" 1

if [ $have_netem = 1 ]; then
	# Loss from one source without prompts: B1 recovers at its RTO
	# (with prompts, and SACK, in recon_sack.sh on this kernel).
	pp ip netns exec ${B}1 tc qdisc add dev to-s root netem loss 5%
	echo N > /sys/module/ecproxy/parameters/prompt_sources
	rebuild "5% loss from B1, prompting off" 3
	echo Y > /sys/module/ecproxy/parameters/prompt_sources
	ec_reported 3 'prompts 0 ' "5% loss from B1, prompting off: no prompts"
	pp ip netns exec ${B}1 tc qdisc del dev to-s root

	# A source's link dies: after the idle timeout (2 s), A and the
	# other sources are reset, and the silent source is named.
	if streaming 10; then
		ec_client_reset "source link cut: A reset" 20 cut ${B}2 to-s
		uncut ${B}2 to-s
		wait_for 10 ec_conn_idle 10
		ec_reported 10 'failed 1 .*last-error source-timeout (source 1)' \
			"source link cut: reported as source-timeout of source 1"
		if wait_for 10 no_established ${B}1 && wait_for 10 no_established ${B}3; then
			tap_ok "source link cut: the other sources reset"
		else
			tap_fail "source link cut: the other sources reset"
		fi
	else
		tap_fail "source link cut: transfer started"
	fi
	ec_stop_servers
	ecin $S task del id 10 >&2

	# A's link dies: A stops acknowledging; the sources are reset and
	# the state freed.
	if streaming 11; then
		cut $A to-s
		client_gone 11 "client link cut" client-timeout
		uncut $A to-s
	else
		tap_fail "client link cut: transfer started"
	fi
	kill $apid 2>/dev/null
	wait $apid 2>/dev/null
	ec_stop_servers
	ecin $S task del id 11 >&2
else
	for d in "5% loss from B1, prompting off" "prompting off: no prompts" \
		 "source link cut" "client link cut"; do
		tap_skip "$d" "no netem"
	done
fi

# Sources that finish long before a straggler: S acks their FINs, their
# sockets wait in FIN-WAIT-2 for tcp_fin_timeout (1 s here, 60 s by
# default) and vanish, answering S with a RST; the transfer goes on.
if [ $have_netem = 1 ]; then
	for i in 2 3; do
		pp ip netns exec ${B}$i sysctl -qw net.ipv4.tcp_fin_timeout=1
	done
	pp topo_cap_b 1 1mbit
	rebuild "fast sources gone after their FIN while B1 sends at 1 Mbit/s" 14
	ec_reported 14 'connections 1 done 1 failed 0' \
		"fast sources gone after their FIN: done, not failed"
	pp topo_uncap_b 1
	for i in 2 3; do
		ip netns exec ${B}$i sysctl -qw net.ipv4.tcp_fin_timeout=60
	done
else
	tap_skip "fast sources gone after their FIN" "no netem"
	tap_skip "fast sources gone after their FIN: done" "no netem"
fi

# A source killed mid-transfer: its socket closes and, once its queue is
# out, it FINs short of what the others sent.  A is reset at once.
if streaming 12; then
	ec_client_reset "source killed: A reset" 20 pp topo_kill_ns ${B}3 KILL
	wait_for 10 ec_conn_idle 12
	ec_reported 12 'failed 1 .*last-error length-mismatch (source 2)' \
		"source killed: reported as a length mismatch of source 2"
else
	tap_fail "source killed: transfer started"
fi
ec_stop_servers
ecin $S task del id 12 >&2

# A killed mid-transfer: its kernel resets the connection (unread data);
# every source is reset and the state freed.
if streaming 13; then
	kill -9 $apid
	wait $apid 2>/dev/null
	client_gone 13 "client killed" client-reset
else
	tap_fail "client killed: transfer started"
fi
ec_stop_servers
ecin $S task del id 13 >&2

tap_done
