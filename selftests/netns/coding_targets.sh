#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tasks with targets: S reads the k survivors once and sends every lost
# fragment to its own target node, r of them at once ("dest"), started by
# `ecctl task start`.  RS(6,3) (ISA-L Cauchy, HDFS) and RS(12,4)
# (Jerasure, Ceph) with r = 1..m, data and parity fragments, a striped
# block group with a partial last stripe, a run started again, targets
# that refuse, die or close first (their TIME-WAIT), a source that dies,
# a target's keepalives while a source stalls, a target 300 ms away, ECN
# towards a target, and loss and reordering on every link.  Every stored fragment must equal the one
# `ecctl code encode` made, every survivor must have served one
# connection and its fragment once, and a target that was not fully
# served must see a RST, never a FIN.  Topology (../lib/topo.sh): B1..B12
# serve the survivors, T1..T4 are the targets.
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

EC_SERVER=prog
topo_init ctg
pp modprobe ecproxy
topo_setup 0 12 4 || exit 1

ec_monitor

# prep ID PROFILE K M LOST SIZE [CELL]: fragments, survivors (logging
# their connections to $tmp/ID/served.*), targets, and task ID with them.
prep() {
	local id=$1 dir=$tmp/$1 layout=()
	rm -rf "$dir"
	ec_encode "$dir" "$2" "$3" "$4" "$6" ${7:+"$7"} || return 1
	[ -z "${7:-}" ] || layout=(block "$6" cell "$7")
	EC_SRVLOG=$dir/served ec_store "$dir" "$3" "$4" "$5" $((8000 + id)) ||
		return 1
	ec_targets "$dir" "$5" $((9000 + id)) || return 1
	ecin $S task add id "$id" vip $VIP code "$2" k "$3" m "$4" lost "$5" \
		"${EC_SOURCES[@]}" "${EC_DESTS[@]}" "${layout[@]}" \
		${EC_TASK:-} >&2
}

# case DESC ID PROFILE K M LOST SIZE [CELL]: one whole run, checked.
case_run() {
	local desc=$1 id=$2 dir=$tmp/$2 why=
	if ! prep "$id" "${@:3}"; then
		tap_fail "$desc" "setting up the survivors, targets or the task failed"
	elif ! ec_run "$id" 120; then
		why="the run did not complete"
	elif ! ec_stored "$dir" "$6"; then
		why="a target's fragment differs, or it did not end with a FIN"
	elif ! ec_served_once "$dir/served" "$dir"; then
		why="a survivor did not serve one connection and its fragment once"
	elif ! wait_for 5 mon_has "^task $id completed bytes [0-9]+ duration"; then
		why="no completed event"
	fi
	if [ -n "$why" ]; then
		tap_fail "$desc" "$why" "$(head -n 3 "$dir"/tgt.* "$dir"/served.* 2>&1)"
		ecin $S task show id "$id" -s >&2
	else
		tap_ok "$desc"
	fi
	ec_stop_servers
}

# --- r = 1, 2 and 4 rows, data and parity ----------------------------------
# Fragments of 64 KiB + 5, so that the block is no multiple of k.  r = 3
# is the striped block's (lost 1,4,7) and the loss case's (lost 0,5,7)
# below.  The profile and the lost fragments only change the
# coefficients, which ecctl computes and the tools' oracle tests check for
# every loss pattern; the kernel sees r rows of k coefficients.
id=1
for c in "isal-cauchy 6 3 2" "isal-cauchy 6 3 1,7" \
	"jerasure-rs 12 4 2,7,12,15"; do
	read -r profile k m lost <<< "$c"
	r=$(echo "$lost" | tr ',' '\n' | wc -l)
	case_run "$profile RS($k,$m): r=$r lost $lost, one pass to $r targets" \
		$id "$profile" "$k" "$m" "$lost" $((k * ((64 << 10) + 5) - 3))
	id=$((id + 1))
done

# The last case: four rows over twelve sources, each byte out once per row.
last=$((id - 1))
frag=$(stat -c %s "$tmp/$last/frag.0")
tap_expect_jq "RS(12,4) r=4: the task read $((12 * frag)) bytes and sent $((4 * frag))" \
	".[0].stats.bytes_in == $((12 * frag)) and .[0].stats.bytes_out == $((4 * frag))
	 and ([.[0].rows[].stats.state] | unique) == [\"done\"]
	 and ([.[0].rows[].stats.bytes_out] | unique) == [$frag]" \
	ecin $S -j task show id $last -s
tap_expect_jq "show: mode dest, the targets and their fragments" \
	'.[0].mode == "dest" and (.[0] | has("port") | not)
	 and ([.[0].rows[].frag] == [2, 7, 12, 15])
	 and ([.[0].rows[].addr] == ["10.0.101.2", "10.0.102.2", "10.0.103.2", "10.0.104.2"])' \
	ecin $S -j task show id $last
tap_check "monitor: the run of task $last started" mon_has "^task $last started$"

# --- a task is started again after it ended --------------------------------
# The second run is capped, so that the debug kernel runs the rate cap's
# code too; whether the cap holds is coding_rate.sh's question, which
# needs the stock kernel's timing.
dir=$tmp/1
EC_SRVLOG=$dir/served ec_store "$dir" 6 3 2 8001 >/dev/null
ec_targets "$dir" 2 9001
tap_check "task 1: a rate cap set while it is idle" \
	ecin $S task change id 1 rate 4mbit
if ec_run 1 60 && ec_stored "$dir" 2; then
	tap_ok "task 1 started again, capped: the fragment stored again"
else
	tap_fail "task 1 started again" "$(cat "$dir/tgt.2")"
fi
tap_expect_jq "task 1 capped: rate 500000 bytes/s configured, a rate measured" \
	'.[0].rate == 500000 and .[0].stats.rate > 0' \
	ecin $S -j task show id 1 -s
ec_stop_servers
tap_expect_err "start an unknown task" 1 "Error: task 77 does not exist" \
	ecin $S task start id 77
ecin $S task add id 50 vip $VIP port 7050 code isal-cauchy k 6 m 3 lost 0 \
	source 10.0.11.2:1:1 source 10.0.12.2:1:2 source 10.0.13.2:1:3 \
	source 10.0.14.2:1:4 source 10.0.15.2:1:5 source 10.0.16.2:1:6 >&2
tap_expect_err "start a pull task: refused, its client starts it" 1 \
	"Error: task 50 has no targets: a client starts it by connecting to 10.99.0.1:7050" \
	ecin $S task start id 50
# A VIP checked at TASK_ADD can go before TASK_START.
pp ip -n $S addr add 10.99.0.2/32 dev lo
ecin $S task add id 51 vip 10.99.0.2 code isal-cauchy k 6 m 3 lost 0 \
	source 10.0.11.2:1:1 source 10.0.12.2:1:2 source 10.0.13.2:1:3 \
	source 10.0.14.2:1:4 source 10.0.15.2:1:5 source 10.0.16.2:1:6 \
	dest 10.0.101.2:1:0 >&2
pp ip -n $S addr del 10.99.0.2/32 dev lo
tap_expect_err "start a task whose VIP is no longer local: refused, named with the fix" 1 \
	"Error: task 51: VIP 10.99.0.2 is no longer a local address of this network namespace; add it again (ip addr add 10.99.0.2/32 dev lo)" \
	ecin $S task start id 51
tap_expect_jq "task 51 did not run" '.[0].stats.conn_state == "none" and .[0].stats.conns == 0' \
	ecin $S -j task show id 51 -s
ecin $S task del id 51 >&2

# --- a target that closes first: its TIME-WAIT ------------------------------
# T1 closes its half of each connection as soon as it is accepted (ecp-tgt
# -C): its FIN comes first, so that it keeps the TIME-WAIT.  S walks its
# ports per peer as connect() does; with 5 of them, 4 taken by each run
# (3 sources and T1), T1 meets its port again within a few runs, while
# the TIME-WAIT of the last use lasts.
# Without timestamps (S's tcp_timestamps 0) about half of those refuse
# S's SYN, whose random ISN is not above the last sequence number they
# saw, and answer with an ACK: S answers that with a RST, which ends the
# TIME-WAIT, and sends its SYN again (time_wait_resets), as it does to a
# source (router_conns.sh).  Every run must store the fragment.
pp ip netns exec $S sysctl -qw net.ipv4.tcp_timestamps=0
pp ip netns exec $S sysctl -qw net.ipv4.ip_local_port_range="40000 40004"
dir=$tmp/41
runs=16
EC_TGT_ARGS="2 -C" prep 41 isal-cauchy 3 2 2 $((3 * 65536 - 1))
topo_capture "$T"1 to-s "$tmp/tw.pcap" tcp and src host $VIP and \
	'tcp[tcpflags] & (tcp-rst | tcp-syn) != 0'
bad=0
for i in $(seq 1 $runs); do
	ec_run 41 60 && wait_for 10 cmp -s "$dir/frag.2" "$dir/got.2" ||
		bad=$((bad + 1))
done
topo_capture_stop
tap_check "a target that closes first: $runs runs on 5 ports without timestamps, $bad failed" \
	test $bad = 0
tap_check "T1's connections each ended with S's FIN after the whole fragment" \
	test "$(grep -cx "fin $(stat -c %s "$dir/frag.2")" "$dir/tgt.2")" = $runs
# A RST that ends a TIME-WAIT is followed at once by S's SYN again; one
# that aborts a run (a handshake timed out) by none until the next run.
n=$(tcpdump -tt -n -r "$tmp/tw.pcap" 2>/dev/null | awk '
	/Flags \[R/ { rst = $1; next }
	/Flags \[S/ && rst && $1 - rst < 0.5 { n++ }
	{ rst = 0 }
	END { print n + 0 }')
tap_check "S reset T1's TIME-WAITs and sent its SYN again at once ($n times; time_wait_resets $(ec_stats 41 .stats.time_wait_resets))" \
	test "$n" -gt 0
pp ip netns exec $S sysctl -qw net.ipv4.tcp_timestamps=1
pp ip netns exec $S sysctl -qw net.ipv4.ip_local_port_range="32768 60999"
ec_stop_servers
ecin $S task del id 41 >&2

# --- a striped block group with a partial last stripe ----------------------
# RS(6,3) in 4 KiB cells, the block ending in the middle of data
# fragment 3's cell: fragments 0..2 full, 3 partial, 4 and 5 a cell short.
block=$((6 * 4096 * 5 + 3 * 4096 + 1000))
case_run "striped block of $block bytes, 4 KiB cells: lost 1,4,7 to exact lengths" \
	20 isal-cauchy 6 3 1,4,7 $block 4096
lens=$(for f in 1 4 7; do stat -c %s "$tmp/20/got.$f"; done | tr '\n' ' ')
if [ "$lens" = "24576 20480 24576 " ]; then
	tap_ok "striped: the targets got 24576, 20480 and 24576 bytes (data 1, short data 4, parity 7)"
else
	tap_fail "striped: exact lengths" "got $lens"
fi
tap_expect_jq "striped: show gives every source and row its exact length" \
	'.[0].block == '$block' and .[0].cell == 4096
	 and ([.[0].rows[].length] == [24576, 20480, 24576])' \
	ecin $S -j task show id 20

# A lost data fragment a cell shorter than the lost parity, with a buffer of
# a quarter cell: once the short row is done, the sources must run on for
# the parity's last cell, which the finished row no longer bounds.
block=$((6 * 65536 * 2 + 4 * 65536))
EC_TASK="buffer 16k" case_run \
	"striped: lost short data 4 and parity 7, a cell apart, buffer 16k" \
	21 isal-cauchy 6 3 4,7 $block 65536
tap_expect_jq "striped: rows of 131072 and 196608 bytes, both done" \
	'[.[0].rows[] | [.length, .stats.state, .stats.bytes_out]] ==
	 [[131072, "done", 131072], [196608, "done", 196608]]' \
	ecin $S -j task show id 21 -s

# --- a target that refuses --------------------------------------------------
EC_TGT_NONE=5 prep 30 isal-cauchy 6 3 2,5 $((6 * 200000))
ecin $S task start id 30 >&2
tap_check "target refuses: the run ends" wait_for 30 ec_conn_idle 30
tap_check "target refuses: failed event names the target" wait_for 5 mon_has \
	"^task 30 failed error target-refused target 1 10\.0\.102\.2:9030 bytes [0-9]+ duration [0-9]+ ms$"
tap_expect_jq "target refuses: last error target-refused, target 1" \
	'.[0].stats.last_error == "target-refused" and .[0].stats.last_error_target == 1' \
	ecin $S -j task show id 30 -s
got=$(cat "$tmp/30/tgt.2" 2>/dev/null)
if [ -z "$got" ] || [ "${got%% *}" = reset ]; then
	tap_ok "target refuses: the other target got a RST, never a FIN (${got:-no data})"
else
	tap_fail "target refuses: the other target got a RST" "$got"
fi
ec_stop_servers

# --- a target that dies mid-stream ------------------------------------------
EC_TASK="buffer 64k" EC_TGT_ARGS="4 -x 100000" \
	prep 31 jerasure-rs 6 3 1,4,8 $((6 * 1000000))
ecin $S task start id 31 >&2
tap_check "target dies: the run ends" wait_for 60 ec_conn_idle 31
tap_check "target dies: failed event names the target" wait_for 5 mon_has \
	"^task 31 failed error target-(reset|refused) target 1 10\.0\.102\.2:9031 bytes [0-9]+ duration"
# The targets log how their streams ended as their reads return, which
# under load can come after S's own end.
wait_for 10 sh -c "[ \$(cat $tmp/31/tgt.1 $tmp/31/tgt.8 2>/dev/null | wc -l) -ge 2 ]"
ends=$(cat "$tmp/31/tgt.1" "$tmp/31/tgt.8" | cut -d' ' -f1 | tr '\n' ' ')
if [ "$ends" = "reset reset " ]; then
	tap_ok "target dies: the two other targets got a RST, not a FIN"
else
	tap_fail "target dies: the two other targets got a RST" "$ends"
fi
ec_stop_servers

# --- a source that dies mid-stream ------------------------------------------
# T1's link is slow (1 MB takes 8 s), so that EBSN holds the sources back
# long enough for the kill to land mid-stream, also on the debug kernel.
EC_TASK="buffer 64k" prep 32 isal-cauchy 6 3 3,6 $((6 * 1000000))
pp ip netns exec $S tc qdisc add dev to-t1 root tbf rate 1mbit burst 16k latency 1s
ecin $S task start id 32 >&2
wait_for 30 sh -c "[ \$(stat -c %s $tmp/32/got.3 2>/dev/null || echo 0) -gt 20000 ]"
topo_kill_ns "$B"4 KILL
tap_check "source dies: the run ends" wait_for 60 ec_conn_idle 32
tap_check "source dies: failed event names the source" wait_for 5 mon_has \
	"^task 32 failed error (length-mismatch|source-reset) source 3 10\.0\.14\.2:8032 bytes"
# T1's RST waits behind what its slow link still queues (up to half a
# second), and the targets log how their streams ended as their reads
# return: after S's own end.
wait_for 10 sh -c "[ \$(cat $tmp/32/tgt.3 $tmp/32/tgt.6 2>/dev/null | wc -l) -ge 2 ]"
ends=$(cat "$tmp/32/tgt.3" "$tmp/32/tgt.6" | cut -d' ' -f1 | tr '\n' ' ')
if [ "$ends" = "reset reset " ]; then
	tap_ok "source dies: both targets got a RST, not a FIN"
else
	tap_fail "source dies: both targets got a RST" "$ends"
fi
pp ip netns exec $S tc qdisc del dev to-t1 root
ec_stop_servers

# --- a target's keepalives --------------------------------------------------
# T1 sends keepalives after 1 s idle, every second, and gives up after two
# unanswered (ecp-tgt -K); B1 sends nothing for 8 s mid-stream, so S has
# nothing for T1.  A keepalive carries the sequence number before the
# target's first byte: S must answer it as TCP does, or T1 resets.  B1 at
# 256 kbit/s until then, so that a loaded machine cannot send its whole
# fragment before the test cuts it (router_conns' client lost its stall
# that way at 4 Mbit/s).
ka=$(topo_nstat "$T"1 TcpExtTCPKeepAlive)
EC_TGT_ARGS="2 -K" prep 33 isal-cauchy 6 3 2 $((6 << 20))
pp topo_cap_b 1 256kbit
ecin $S task start id 33 >&2
wait_for 30 sh -c "[ \$(stat -c %s $tmp/33/got.2 2>/dev/null || echo 0) -gt 65536 ]"
pp ip netns exec "$B"1 tc qdisc replace dev to-s root netem loss 100%
sleep 8
pp topo_uncap_b 1
if wait_for 120 ec_conn_idle 33 && [ "$(ec_stats 33 .stats.last_error)" = none ] &&
	ec_stored "$tmp/33" 2; then
	tap_ok "target keepalives while a source stalls: answered, fragment stored"
else
	tap_fail "target keepalives while a source stalls: answered, fragment stored" \
		"$(cat "$tmp/33/tgt.2" 2>&1) $(ecq $S task show id 33 -s | tr '\n' ' ')"
fi
tap_check "T1 sent keepalives while the source stalled" \
	test "$(topo_nstat "$T"1 TcpExtTCPKeepAlive)" -ge $((ka + 2))
tap_check "S dropped none of them as out of window" \
	test "$(ec_stats 33 .stats.drops.out_of_window)" = 0
ec_stop_servers

# --- a target 300 ms away ---------------------------------------------------
# Its SYN-ACK's round trip times the first flight's RTO, as Linux's
# tcp_synack_rtt_meas() does: with 200 ms and no sample, S re-sent the
# first flight before its ack could come back.  S repeats the SYN after
# three of the sources' round trips (a tick at least), before T1 can
# answer: the sample is the echo of S's clock in T1's SYN-ACK.  Without
# timestamps the repeated SYN leaves no sample at all, and the first
# flight's RTO is Linux's fallback of 3 s.
pp ip netns exec "$T"1 tc qdisc replace dev to-s root netem delay 300ms limit 100000
id=34
for tsv in 1 0; do
	ts=$([ $tsv = 1 ] && echo on || echo off)
	pp ip netns exec "$T"1 sysctl -qw net.ipv4.tcp_timestamps=$tsv
	case_run "a target 300 ms away, timestamps $ts: RS(6,3) r=1 of a 1 MB fragment" \
		$id isal-cauchy 6 3 0 $((6 * 1000000))
	tap_expect_jq "a target 300 ms away, timestamps $ts: SYN repeated, no RTO, nothing re-sent" \
		'.[0].stats | .syns_resent >= 1 and .timeouts == 0 and .resent == 0 and .rtt_us >= 300000' \
		ecin $S -j task show id $id -s
	id=$((id + 1))
done
pp ip netns exec "$T"1 sysctl -qw net.ipv4.tcp_timestamps=1
pp ip netns exec "$T"1 tc qdisc del dev to-s root
ec_stop_servers

# --- ECN towards a target ----------------------------------------------------
# S asks the targets for ECN (RFC 3168) when its namespace asks for it on
# its own connections (tcp_ecn=1; the targets' default, 2, accepts), and
# an FQ-CoDel queue behind 20 Mbit/s on S's end of T1's link marks S's
# segments instead of dropping them: S cuts its window for T1's echoes,
# which it can only have had if both sides set ECN up.
pp ip netns exec $S sysctl -qw net.ipv4.tcp_ecn=1
tap_check "ECN towards a target: a marking queue on its link" topo_mark $S to-t1
case_run "ECN towards a target, a marking queue on its link: RS(6,3) r=1 of a 2 MB fragment" \
	36 isal-cauchy 6 3 0 $((6 * 2000000))
tap_expect_jq "ECN towards a target: S cut its window for the echoes" \
	'.[0].stats.ecn_reductions > 0' ecin $S -j task show id 36 -s
ip netns exec $S tc -s qdisc show dev to-t1 | sed 's/^/# /'
pp ip netns exec $S tc qdisc del dev to-t1 root
pp ip netns exec $S sysctl -qw net.ipv4.tcp_ecn=2

# --- loss and reordering on every link --------------------------------------
add_netem() {
	ip netns exec "$1" tc qdisc replace dev "$2" root netem \
		delay 2ms 1ms loss 1% reorder 10% 50%
}
pp topo_each_link add_netem
case_run "1% loss and reordering on every link: RS(6,3) r=3 of 1 MB fragments" \
	40 isal-cauchy 6 3 0,5,7 $((6 * 1000000))
tap_expect_jq "loss: sources retransmitted, applied once" \
	'.[0].stats.dups_skipped + .[0].stats.resent > 0' ecin $S -j task show id 40 -s

ec_monitor_stop
tap_check "flush" ecin $S task flush
tap_check "unload" modprobe -r ecproxy
tap_done
