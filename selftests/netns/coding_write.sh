#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The write path ("encode"): a writer W (A1) connects to VIP:port, sends a
# block and shuts its side down; S stripes it over the k data targets and
# sends the parity it computes to the m parity targets.  W must read the
# end of the stream (S's FIN) only once every target has its fragment:
# then every stored fragment must equal what `ecctl code encode ... cell`
# made of the same block (whose code the tools tests check against ISA-L
# and Jerasure).  RS(3,2), RS(6,3), RS(10,4) and RS(12,4), the four
# profiles, blocks ending mid-cell and mid-stripe, a 1-byte block, cells
# of 4 KiB and 1 MiB; a target that refuses, and one that dies
# mid-stream: W sees a reset, the event names the target; ECN from W;
# loss on W's link with its SACK on and off; loss, reordering and
# duplication on every link.  Topology (../lib/topo.sh):
# A1 is W, T1..T16 are the targets (fragment f on T(f+1)).
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

topo_init cwr
pp modprobe ecproxy
topo_setup 1 0 16 || exit 1
ec_prog ecp-cli

ec_monitor

# prep ID PROFILE K M SIZE CELL: SIZE random bytes encoded into $tmp/ID,
# one target per fragment, and task ID writing to them on VIP:7000+ID.
prep() {
	local id=$1 dir=$tmp/$1 n=$(($3 + $4))
	rm -rf "$dir"
	ec_encode "$dir" "$2" "$3" "$4" "$5" "$6" || return 1
	ec_targets "$dir" "$(seq -s, 0 $((n - 1)))" $((9000 + id)) || return 1
	ecin $S task add id "$id" vip $VIP port $((7000 + id)) encode "$2" \
		k "$3" m "$4" cell "$6" "${EC_DESTS[@]}" ${EC_TASK:-} >&2
}

# write ID: W sends $tmp/ID/in to task ID, shuts down its side and reads
# until S closes; true if S closed with a FIN (not a reset).
write() {
	ip netns exec $A "$PROGS/ecp-cli" -q "$tmp/$1/in" -S -o /dev/null \
		$VIP $((7000 + $1)) 2> "$tmp/$1/w.err"
}

# all_stored ID N: the N targets have their fragments, closed by a FIN.
all_stored() {
	ec_stored "$tmp/$1" "$(seq -s, 0 $(($2 - 1)))"
}

# case_write DESC ID PROFILE K M SIZE CELL: one whole write, checked.
case_write() {
	local desc=$1 id=$2 dir=$tmp/$2 why=
	if ! prep "$id" "${@:3}"; then
		tap_fail "$desc" "setting up the targets or the task failed"
		return
	fi
	if ! write "$id"; then
		why="W did not see S's FIN: $(tail -n 1 "$dir/w.err")"
	# W's end of stream comes after every target acked its FIN; the
	# targets may still be writing their files.
	elif ! wait_for 10 all_stored "$id" $(($4 + $5)); then
		why="a target's fragment differs, or it did not end with a FIN"
	elif ! wait_for 5 mon_has "^task $id completed client [0-9.:]+ bytes [0-9]+ duration"; then
		why="no completed event"
	fi
	if [ -n "$why" ]; then
		tap_fail "$desc" "$why" "$(head -n 3 "$dir"/tgt.* 2>&1)"
		ecin $S task show id "$id" -s >&2
	else
		tap_ok "$desc"
	fi
	ec_stop_servers
}

# --- codes and profiles -------------------------------------------------
# Blocks that end mid-cell and mid-stripe.
case_write "RS(3,2) isal-cauchy, 4 KiB cells, block ends mid-stripe" \
	1 isal-cauchy 3 2 $((3 * 65536 + 4096 + 5)) 4096
case_write "RS(6,3) isal-cauchy (HDFS), block ends mid-cell" \
	2 isal-cauchy 6 3 $((6 * 65536 + 5)) 4096
case_write "RS(10,4) vandermonde (MinIO), a partial stripe" \
	3 vandermonde 10 4 $((10 * 4096 * 7 + 3 * 4096 + 777)) 4096
case_write "RS(3,2) jerasure-rs, 1 MiB cells, a partial stripe" \
	9 jerasure-rs 3 2 $((3 * 1048576 + 1048576 + 777)) 1048576
case_write "RS(12,4) jerasure-rs (Ceph), whole stripes" \
	4 jerasure-rs 12 4 $((12 * 4096 * 9)) 4096
# 64 KiB cells with a partial stripe: case 12, under loss.  The profile
# only changes the parity rows' coefficients, which ecctl computes and the
# tools' oracle tests check.
case_write "a 1-byte block: one data byte, empty data fragments" \
	6 isal-cauchy 6 3 1 4096

# Write, lose a node, rebuild: T2 (fragment 1) is gone; a pull task reads
# the fragments case 1 stored on T1, T3 and T4 and rebuilds fragment 1 for
# a client, which must get exactly what was written there.
dir=$tmp/1
for n in 1 3 4; do
	ip netns exec "$T$n" socat -U TCP-LISTEN:8101,reuseaddr,fork \
		OPEN:"$dir/got.$((n - 1))",rdonly 2>/dev/null &
	wait_for 10 topo_listening "$T$n" 8101
done
tap_check "write, lose a node: a pull task rebuilds its fragment" \
	ecin $S task add id 20 vip $VIP port 7020 code isal-cauchy k 3 m 2 lost 1 \
	source "$(topo_addr t1)":8101:0 source "$(topo_addr t3)":8101:2 \
	source "$(topo_addr t4)":8101:3 block $((3 * 65536 + 4096 + 5)) cell 4096
if ip netns exec $A "$PROGS/ecp-cli" -o "$dir/rebuilt" $VIP 7020 2> "$dir/r.err" &&
	cmp -s "$dir/frag.1" "$dir/rebuilt"; then
	tap_ok "the rebuilt fragment equals the one written, byte for byte"
else
	tap_fail "the rebuilt fragment equals the one written" "$(tail -n 1 "$dir/r.err")"
fi
ec_stop_servers
ecin $S task flush >&2

prep 7 isal-cauchy 3 2 100 4096
tap_expect_jq "show: a write's mode, cell and targets, no sources" \
	'.[0].mode == "write" and .[0].cell == 4096 and (.[0].rows | length) == 5 and ((.[0].sources // []) | length) == 0' \
	ecin $S -j task show id 7
ec_stop_servers
ecin $S task del id 7 >&2

# --- what TASK_ADD and ecctl refuse --------------------------------------
tap_expect_fail "a write with sources is refused" \
	ecin $S task add id 8 vip $VIP port 7008 encode isal-cauchy k 3 m 2 \
	cell 4096 source 10.0.11.2:1:0
tap_expect_fail "a write without its cell is refused" \
	ecin $S task add id 8 vip $VIP port 7008 encode isal-cauchy k 3 m 2 \
	dest 10.0.101.2:1:0 dest 10.0.102.2:1:1 dest 10.0.103.2:1:2 \
	dest 10.0.104.2:1:3 dest 10.0.105.2:1:4
tap_expect_fail "a write missing a fragment's target is refused" \
	ecin $S task add id 8 vip $VIP port 7008 encode isal-cauchy k 3 m 2 \
	cell 4096 dest 10.0.101.2:1:0 dest 10.0.102.2:1:1 dest 10.0.103.2:1:2 \
	dest 10.0.104.2:1:3

# --- failures: W is reset, never told its block is stored ----------------
dir=$tmp/10
EC_TGT_NONE=4 prep 10 isal-cauchy 3 2 $((3 * 65536)) 4096
if write 10; then
	tap_fail "a target that refuses: W is reset" "W saw a clean close"
else
	tap_ok "a target that refuses: W is reset"
fi
tap_check "the failed event names target 4" wait_for 5 mon_has \
	"^task 10 failed client [0-9.:]+ error target-refused target 4 10\.0\.105\.2:9010 "
ec_stop_servers
ecin $S task del id 10 >&2

dir=$tmp/11
EC_TGT_ARGS="1 -x 100000" prep 11 isal-cauchy 3 2 $((3 * 1048576)) 4096
if write 11; then
	tap_fail "a target that dies mid-stream: W is reset" "W saw a clean close"
else
	tap_ok "a target that dies mid-stream: W is reset"
fi
if wait_for 10 sh -c "grep -q '^reset' $dir/tgt.0 && grep -q '^reset' $dir/tgt.4"; then
	tap_ok "the other targets got RSTs, no FIN"
else
	tap_fail "the other targets got RSTs, no FIN" "$(head -n 2 "$dir"/tgt.* 2>&1)"
fi
ec_stop_servers
ecin $S task del id 11 >&2

# --- one slow target: EBSN holds W, and the buffer stays in its bound ------
# T4 (parity fragment 3) behind 256 kbit/s; a buffer of 64 KiB (the
# two-cell minimum with 32 KiB cells): the ring of every row stays within
# the buffer and its headroom, W is held back (window clamps), and every
# fragment arrives.  T4 drains 32 KB/s, so W is held once it sends more
# than 96 KB/s of data; at 2 Mbit/s the debug kernel in a loaded CI run
# encoded slower than T4 drained (167 KB/s of data), and nothing held W.
pp ip netns exec $S tc qdisc add dev to-t4 root tbf rate 256kbit burst 16k latency 2s
EC_TASK="buffer 64k" case_write "one slow target: the write completes at its pace" \
	17 isal-cauchy 3 2 $((3 * 262144 + 1000)) 32768
total=$(cat "$tmp"/17/frag.* | wc -c)
tap_expect_jq "slow target: peak buffer within one ring, W held back, bytes per target" \
	".[0].stats.peak_buffer <= 65536 + 65536 and .[0].stats.window_clamps > 0 and ([.[0].rows[].stats.bytes_out] | add) == $total" \
	ecin $S -j task show id 17 -s
pp ip netns exec $S tc qdisc del dev to-t4 root
ecin $S task flush >&2

# --- ecput: the writer's tool, and its fallback to the host's encode -------
# put ID ARGS...: W runs `ecput -j ARGS` with task ID's code and targets
# and $tmp/ID/in; its JSON summary goes to $tmp/ID/json.
put() {
	local id=$1 dir=$tmp/$1
	shift
	ip netns exec $A "$ECPUT" -j "$@" encode isal-cauchy k 3 m 2 cell 4096 \
		"${EC_DESTS[@]}" timeout 5000 "$dir/in" > "$dir/json" 2> "$dir/w.err"
}

dir=$tmp/13
prep 13 isal-cauchy 3 2 $((3 * 65536 + 99)) 4096
put 13 proxy $VIP:7013
tap_expect_jq "ecput proxy: stored through ecproxy" \
	'.path == "proxy" and .ok and (.fallback | not)' cat "$dir/json"
tap_check "ecput proxy: every fragment stored" wait_for 10 all_stored 13 5
ec_stop_servers

# No task on the port: refused, so the host encodes and sends k+m streams.
prep 14 isal-cauchy 3 2 $((3 * 65536 + 99)) 4096
ecin $S task del id 14 >&2
put 14 proxy $VIP:7014
rc=$?
tap_expect_jq "ecput falls back when the proxy refuses (exit 3)" \
	".path == \"native\" and .ok and .fallback and $rc == 3" cat "$tmp/14/json"
tap_check "ecput fallback: every fragment stored by the host" \
	wait_for 10 all_stored 14 5
ec_stop_servers

# A target dies mid-stream and comes back: the proxied write is reset, the
# fallback stores every fragment.
dir=$tmp/15
EC_TGT_ARGS="1 -x 100000" prep 15 isal-cauchy 3 2 $((3 * 1048576)) 4096
( wait_for 60 sh -c "grep -q '^killed' $dir/tgt.1" &&
	exec ip netns exec "$T"2 "$PROGS/ecp-tgt" -L "$dir/tgt.1" 9015 "$dir/got.1" ) &
put 15 proxy $VIP:7015
rc=$?
tap_expect_jq "ecput: a target dies, W is reset, the fallback stores the block (exit 3)" \
	".path == \"native\" and .ok and .fallback and $rc == 3" cat "$dir/json"
tap_check "ecput fallback after a reset: every fragment stored" \
	wait_for 10 sh -c "cmp -s $dir/frag.0 $dir/got.0 && cmp -s $dir/frag.1 $dir/got.1 && cmp -s $dir/frag.2 $dir/got.2 && cmp -s $dir/frag.3 $dir/got.3 && cmp -s $dir/frag.4 $dir/got.4"
tap_check "the failed event names target 1" wait_for 5 mon_has \
	"^task 15 failed client [0-9.:]+ error target-(reset|refused) target 1 "
ec_stop_servers
ecin $S task flush >&2

# W killed mid-stream (ecput's streams reset when it dies): the targets get
# RSTs, never a FIN, and the event blames the client.  A small buffer and a
# rate cap keep W's block from reaching S whole before it dies: the window
# S offers W (3 fragments of 64 KiB) holds the rest in W's socket.
dir=$tmp/16
EC_TASK="rate 2mbit buffer 64k" prep 16 isal-cauchy 3 2 $((3 * 1048576)) 4096
ip netns exec $A "$ECPUT" proxy $VIP:7016 nofallback "$dir/in" 2> "$dir/w.err" &
w=$!
wait_for 20 sh -c "[ \$(stat -c %s $dir/got.3 2>/dev/null || echo 0) -gt 50000 ]"
kill -9 $w
wait $w 2>/dev/null
if wait_for 10 sh -c "grep -q '^reset' $dir/tgt.0 && grep -q '^reset' $dir/tgt.3"; then
	tap_ok "W killed mid-stream: the targets got RSTs"
else
	tap_fail "W killed mid-stream: the targets got RSTs" "$(head -n 2 "$dir"/tgt.* 2>&1)"
fi
tap_check "W killed: no target got a FIN" sh -c "! grep -q '^fin' $dir/tgt.*"
tap_check "W killed: the failed event blames the client" wait_for 5 mon_has \
	"^task 16 failed client [0-9.:]+ error client-reset "
ec_stop_servers
ecin $S task flush >&2

# --- a target's SYN-ACK lost ---------------------------------------------
# T2 drops the first SYN-ACK it sends: the other targets answered, so S
# sends T2 its SYN again after three of their round trips (at least a
# tick), and W gets its SYN-ACK before its own 1 s SYN timeout: it does
# not re-send its SYN (its stack's TCPSynRetrans).
pp topo_drop_first_synack "$T"2 9017
syns=$(topo_nstat $A TcpExtTCPSynRetrans)
case_write "a target's SYN-ACK lost: the write completes" \
	17 isal-cauchy 3 2 $((3 * 65536 + 99)) 4096
cat "$tmp/17/w.err" >&2
tap_check "it was lost" test "$(topo_dropped "$T"2)" -eq 1
tap_check "S sent T2 its SYN again" \
	test "$(ec_stats 17 .stats.syns_resent)" -eq 1
tap_check "W did not re-send its SYN ($(tail -n 1 "$tmp/17/w.err"))" \
	test "$(topo_nstat $A TcpExtTCPSynRetrans)" -eq "$syns"
pp topo_undrop "$T"2

# --- ECN from the writer -------------------------------------------------
# W asks for ECN (tcp_ecn=1), S takes it (its namespace's default, 2), and
# an FQ-CoDel queue behind 20 Mbit/s on W's end of its link marks W's
# segments instead of dropping them.  S echoes each mark with ECE on its
# ACKs until W's CWR says W cut its window (RFC 3168 §6.1.3): W's socket
# says ECN was on, its stack counts the segments the echoes acked
# (TcpExtTCPDeliveredCE), and a capture at S shows ACKs with ECE and,
# after them, ACKs without (an echo that never ended would cut W's
# window every round trip).
pp ip netns exec $A sysctl -qw net.ipv4.tcp_ecn=1
tap_check "ECN from W: a marking queue on its link" topo_mark $A to-s
ce=$(topo_nstat $A TcpExtTCPDeliveredCE)
topo_capture $S to-a1 "$tmp/ecn.pcap" tcp and dst host "$(topo_addr a1)"
case_write "ECN from W, a marking queue on its link" \
	18 isal-cauchy 3 2 $((3 * 1048576 + 1000)) 65536
topo_capture_stop
ce=$(($(topo_nstat $A TcpExtTCPDeliveredCE) - ce))
ip netns exec $A tc -s qdisc show dev to-s | sed 's/^/# /'
tap_check "ECN from W: W's connection negotiated it ($(grep '^tcp sack' "$tmp/18/w.err"))" \
	grep -q '^tcp sack .* ecn 1 ' "$tmp/18/w.err"
topo_ece_echoes "ECN from W: S echoed the marks, and each echo ended" \
	"$tmp/ecn.pcap"
tap_check "ECN from W: W's stack took the echoes ($ce segments)" test "$ce" -gt 0
pp ip netns exec $A tc qdisc del dev to-s root
pp ip netns exec $A sysctl -qw net.ipv4.tcp_ecn=2

# --- loss on W's link, W's SACK on and off ---------------------------------
# S is W's receiver: it answers W's SACK-permitted and tells W what it
# holds beyond each hole (sacks), so that W's own stack repairs several
# holes per round trip (TcpExtTCPSackRecovery); without SACK, W's NewReno
# repairs one (TcpExtTCPRenoRecovery), and S sends no blocks.  netem drops
# 3% of W's segments: W puts one segment in a packet on its link
# (topo_segs), as a lossy wire drops frames.  It also sends 5% of them
# twice: S tells W of each with a D-SACK (RFC 2883) when W has SACK, and
# W's stack counts them (TcpExtTCPDSACKRecv); never without SACK.
pp topo_segs $A to-s 1
pp ip netns exec $A tc qdisc replace dev to-s root netem loss 3% \
	duplicate 5% limit 100000
id=23
for sack in 1 0; do
	on=$([ $sack = 1 ] && echo on || echo off)
	rec=$([ $sack = 1 ] && echo TcpExtTCPSackRecovery || echo TcpExtTCPRenoRecovery)
	pp ip netns exec $A sysctl -qw net.ipv4.tcp_sack=$sack
	n=$(topo_nstat $A $rec)
	dsack=$(topo_nstat $A TcpExtTCPDSACKRecv)
	case_write "W's SACK $on, 3% loss and 5% duplicates on its link" \
		$id isal-cauchy 3 2 $((3 * 1048576 + 1000)) 65536
	n=$(($(topo_nstat $A $rec) - n))
	dsack=$(($(topo_nstat $A TcpExtTCPDSACKRecv) - dsack))
	neg=$(grep '^tcp sack' "$tmp/$id/w.err")
	echo "# W: $neg, $rec $n, TcpExtTCPDSACKRecv $dsack"
	tap_check "W's SACK $on: W was told of $dsack duplicates only with SACK" \
		test $((dsack > 0)) = $sack
	tap_check "W's SACK $on: W's connection negotiated SACK $sack ($neg)" \
		grep -q "^tcp sack $sack " "$tmp/$id/w.err"
	tap_expect_jq "W's SACK $on: S told W what it held (sacks) only with SACK" \
		"(.[0].stats.sacks > 0) == ($sack == 1)" \
		ecin $S -j task show id $id -s
	tap_check "W's SACK $on: W's stack recovered by it ($rec $n)" test "$n" -gt 0
	id=$((id + 1))
done
pp ip netns exec $A sysctl -qw net.ipv4.tcp_sack=1
pp ip netns exec $A tc qdisc del dev to-s root
pp topo_segs $A to-s 65535

# --- loss, reordering and duplication on every link ----------------------
add_netem() {
	ip netns exec "$1" tc qdisc replace dev "$2" root netem \
		delay 2ms 1ms loss 1% reorder 10% 50% duplicate 1%
}
del_netem() {
	ip netns exec "$1" tc qdisc del dev "$2" root
}
# W puts one segment in a packet (topo_segs): netem sees a GSO packet whole,
# and W's write is only about a hundred of them, of which at 1% none was
# duplicated in about a third of the runs; segment by segment, as a wire
# duplicates frames, about a thousand.
pp topo_each_link add_netem
pp topo_segs "$A" to-s 1
case_write "1% loss, reordering and duplication on every link" \
	12 isal-cauchy 6 3 $((6 * 262144 + 1000)) 65536
tap_expect_jq "loss: W retransmitted, applied once" \
	'.[0].stats.dups_skipped > 0' ecin $S -j task show id 12 -s
pp topo_segs "$A" to-s 65535
pp topo_each_link del_netem

tap_check "flush" ecin $S task flush
tap_check "unload" modprobe -r ecproxy
tap_done
