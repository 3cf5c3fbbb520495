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
# Topology: lib/recon.sh with three sources, A -- S (VIP on lo) -- B1..B3.
set -u
. "$(dirname "$0")/../lib/tap.sh"

. "$(dirname "$0")/lib/recon.sh"

rc_init ft 3

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
rc_setup || exit 1
have_netem=1
ip netns exec $S tc qdisc add dev s-a root netem loss 0% 2>/dev/null &&
	ip netns exec $S tc qdisc del dev s-a root || have_netem=0

# fetch ID DIR: A reads task ID into DIR/out; sets el (ms).
fetch() {
	local start
	start=$(date +%s%N)
	timeout 120 ip netns exec $A socat -u TCP:$VIP:$((7000 + $1)) - \
		> "$2/out" 2> "$2/err"
	el=$((($(date +%s%N) - start) / 1000000))
}

# rebuild DESC ID: RS(3,2) isal-cauchy, lost 0, 1 MiB fragment; exact?
rebuild() {
	local desc=$1 id=$2 dir=$tmp/$2 i
	mkdir -p "$dir"
	head -c $((3 << 20)) /dev/urandom > "$dir/in"
	pp "$ECCTL" code encode isal-cauchy k 3 m 2 in "$dir/in" out "$dir" >&2
	for i in 1 2 3; do
		rc_serve $i 8000 "$dir/frag.$i"
	done
	ecin task add id "$id" vip $VIP port $((7000 + id)) \
		code isal-cauchy k 3 m 2 lost 0 \
		source 10.0.11.2:8000:1 source 10.0.12.2:8000:2 \
		source 10.0.13.2:8000:3 >&2
	fetch "$id" "$dir"
	if [ "$(sha256sum < "$dir/frag.0")" = "$(sha256sum < "$dir/out")" ]; then
		tap_ok "$desc: exact in ${el} ms"
	else
		tap_fail "$desc" "got $(stat -c %s "$dir/out") bytes; $(cat "$dir/err")"
	fi
	rc_stop_servers
	wait_for 10 rc_conn_idle "$id"
	ecin task show id "$id" -s >&2
}

# endless ID: the sources stream zeros forever to A (idle timeout 2 s), in
# the background; sets apid.
endless() {
	local i
	for i in 1 2 3; do
		rc_serve $i 8000 /dev/zero
	done
	ecin task add id "$1" vip $VIP port $((7000 + $1)) timeout idle 2000 \
		source 10.0.11.2:8000 coef 1 source 10.0.12.2:8000 coef 2 \
		source 10.0.13.2:8000 coef 3 >&2
	ip netns exec $A socat -u TCP:$VIP:$((7000 + $1)) /dev/null \
		2> "$tmp/endless.err" &
	apid=$!
	wait_for 30 rc_bytes_out_gt "$1" 200000
}

# client_gone ID DESC ERROR: after A is gone (link cut, killed), task ID's
# state is freed, the failure reported as ERROR and every source reset.
client_gone() {
	if wait_for 20 rc_conn_idle "$1"; then
		tap_ok "$2: connection state freed"
	else
		tap_fail "$2: connection state freed"
	fi
	rc_reported "$1" "failed 1 .*last-error $3" "$2: reported as $3"
	if wait_for 10 no_established ${B}1 && wait_for 10 no_established ${B}2 &&
	   wait_for 10 no_established ${B}3; then
		tap_ok "$2: every source reset"
	else
		tap_fail "$2: every source reset"
	fi
}

rebuild "clean run, 1 MiB fragment" 1

if [ $have_netem = 1 ]; then
	# Loss from one source: the others run ahead into their EBSN edge,
	# A acks up to the hole, and S's duplicate ACKs make B1 resend it.
	pp ip netns exec ${B}1 tc qdisc add dev b-s root netem loss 5%
	rebuild "5% loss from B1" 2
	rc_reported 2 'prompts [1-9]' "5% loss from B1: S prompted B1 with duplicate ACKs"
	# The same without prompts: B1 recovers at its RTO (for comparison).
	echo N > /sys/module/ecproxy/parameters/prompt_sources
	rebuild "5% loss from B1, prompting off" 3
	echo Y > /sys/module/ecproxy/parameters/prompt_sources
	rc_reported 3 'prompts 0$' "5% loss from B1, prompting off: no prompts"
	pp ip netns exec ${B}1 tc qdisc del dev b-s root

	# A source's link dies: after the idle timeout (2 s), A and the
	# other sources are reset, and the silent source is named.
	if endless 10; then
		cut ${B}2 b-s
		if rc_gone $apid 20; then
			tap_ok "source link cut: A reset"
		else
			tap_fail "source link cut: A reset" "$(cat "$tmp/endless.err")"
			kill $apid 2>/dev/null
		fi
		wait $apid 2>/dev/null
		uncut ${B}2 b-s
		wait_for 10 rc_conn_idle 10
		rc_reported 10 'failed 1 .*last-error source-timeout (source 1)' \
			"source link cut: reported as source-timeout of source 1"
		if wait_for 10 no_established ${B}1 && wait_for 10 no_established ${B}3; then
			tap_ok "source link cut: the other sources reset"
		else
			tap_fail "source link cut: the other sources reset"
		fi
	else
		tap_fail "source link cut: transfer started"
	fi
	rc_stop_servers
	ecin task del id 10 >&2

	# A's link dies: A stops acknowledging; the sources are reset and
	# the state freed.
	if endless 11; then
		cut $A a-s
		client_gone 11 "client link cut" client-timeout
		uncut $A a-s
	else
		tap_fail "client link cut: transfer started"
	fi
	kill $apid 2>/dev/null
	wait $apid 2>/dev/null
	rc_stop_servers
	ecin task del id 11 >&2
else
	for d in "5% loss from B1" "5% loss from B1: prompted" \
		 "5% loss from B1, prompting off" "prompting off: no prompts" \
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
	pp ip netns exec ${B}1 tc qdisc add dev b-s root tbf rate 1mbit \
		burst 16384 latency 1s
	rebuild "fast sources gone after their FIN while B1 sends at 1 Mbit/s" 14
	rc_reported 14 'connections 1 done 1 failed 0' \
		"fast sources gone after their FIN: done, not failed"
	pp ip netns exec ${B}1 tc qdisc del dev b-s root
	for i in 2 3; do
		ip netns exec ${B}$i sysctl -qw net.ipv4.tcp_fin_timeout=60
	done
else
	tap_skip "fast sources gone after their FIN" "no netem"
	tap_skip "fast sources gone after their FIN: done" "no netem"
fi

# A source killed mid-transfer: its socket closes and, once its queue is
# out, it FINs short of what the others sent.  A is reset at once.
if endless 12; then
	pp ip netns pids ${B}3
	ip netns pids ${B}3 | xargs -r kill -9
	if rc_gone $apid 20; then
		tap_ok "source killed: A reset"
	else
		tap_fail "source killed: A reset" "$(cat "$tmp/endless.err")"
		kill $apid 2>/dev/null
	fi
	wait $apid 2>/dev/null
	wait_for 10 rc_conn_idle 12
	rc_reported 12 'failed 1 .*last-error length-mismatch (source 2)' \
		"source killed: reported as a length mismatch of source 2"
else
	tap_fail "source killed: transfer started"
fi
rc_stop_servers
ecin task del id 12 >&2

# A killed mid-transfer: its kernel resets the connection (unread data);
# every source is reset and the state freed.
if endless 13; then
	kill -9 $apid
	wait $apid 2>/dev/null
	client_gone 13 "client killed" client-reset
else
	tap_fail "client killed: transfer started"
fi
rc_stop_servers
ecin task del id 13 >&2

tap_done
