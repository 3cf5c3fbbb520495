#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Spare sources: S reads one or two more survivors than k, and wherever
# all sources but as many as there are spares have sent, completes the
# rows with the spares' bytes instead of waiting for the slowest (`ecctl
# task add ... spare`).  RS(4,2) and RS(4,3) (ISA-L Cauchy, HDFS) read by
# a client and sent to targets, with a source, two sources, or a spare
# itself much slower than the others (a tbf on its link), and with loss on
# every source's link.  What arrives must equal the lost fragment by
# sha256; the counters must show that the spares stood in (spare_bytes)
# where they should, and hardly anywhere when the spare is the slow one.
# A source that resets mid-stream, refuses S's SYN, answers none or
# closes short is stood in for by the spare, and counted against that
# source (its `lost`); two with one spare fail the run.  One that closed
# short with its socket still open, or whose SYN-ACK comes after the
# spare stood in, gets a RST.  Spares without every check coefficient,
# or those without a spare, are refused with a message.  Topology
# (../lib/topo.sh): B1..B6 serve the survivors, T1 and T2 are targets.
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

topo_init rsp
pp modprobe ecproxy
topo_setup 1 6 2 || exit 1

EC_SPARE=1
m=2
size=$((2 << 20))
frag=$((size / 4))

# spare_case DESC ID SLOW FILTER: task ID reads RS(4,m)'s fragment 1 from
# fragments 0, 2, 3, 4 on B1..B4 and EC_SPARE spares, fragments 5 (and 6)
# on B5 (and B6), with the nodes in SLOW (a list) sending at 400 kbit/s,
# several times slower than the others even on the debug kernel under
# TCG; A's copy must be exact and FILTER (jq, over the task's JSON
# statistics) true.  A slow source still sending when A is done gets a
# RST.  With AGAIN, A reads the fragment a second time through the same
# task.
spare_case() {
	local desc=$1 id=$2 slow=$3 filter=$4 again=${5:-} n got
	if ! ec_prep "$id" isal-cauchy 4 $m 1 $size; then
		tap_fail "$desc" "setting up the sources or the task failed"
		ec_stop_servers
		return
	fi
	for n in $slow; do
		topo_cap_b "$n" 400kbit
	done
	ec_fetch "$id"
	ec_verify "$desc: A's copy" "$id"
	got=$(ec_stats "$id" '.stats | {spare_bytes, conns, conns_failed}')
	if ec_stats "$id" ".stats | $filter" | grep -qx true; then
		tap_ok "$desc: $(echo $got), read in $el ms"
	else
		tap_fail "$desc: $filter" "$(echo $got)"
		ecin $S task show id "$id" -s >&2
	fi
	if [ -n "$again" ]; then
		wait_for 10 ec_conn_idle "$id"
		ec_fetch "$id"
		ec_verify "$desc: A's copy, read again" "$id"
	fi
	for n in $slow; do
		topo_uncap_b "$n"
	done
	ec_stop_servers
	wait_for 10 ec_conn_idle "$id"
}

# The rows wait for nobody: with B2 at 400 kbit/s (10 s for its 512 KiB),
# A gets its fragment while B2 has sent a fraction of its own.
spare_case "a slow source, B2: the spare stands in" 1 2 \
	".spare_bytes >= $((frag / 2)) and .conns_failed == 0" again
# Two slow ones: the rows wait for the faster of them, which leapfrog, so
# that the one the spare stands in for changes as they go.
spare_case "two slow sources, B2 and B3" 2 "2 3" \
	".spare_bytes > 0 and .conns_failed == 0"
# The spare the slowest: the rows need it only in the first moments, while
# it sends what its link's queue takes at once.
spare_case "the spare slow, B5: hardly needed" 3 5 \
	".spare_bytes < $((frag / 4)) and .conns_failed == 0"
# Two spares (RS(4,3): fragments 5 and 6), two slow sources: the rows
# wait for neither.
EC_SPARE=2 m=3 spare_case "two spares, two slow sources, B1 and B3" 5 "1 3" \
	".spare_bytes >= $((frag / 2)) and .conns_failed == 0"
# Nobody slow, loss on every source's link.
for n in 1 2 3 4 5; do
	ip netns exec "$B$n" tc qdisc replace dev to-s root netem loss 2%
done
spare_case "2% loss on every source's link" 4 "" ".conns_failed == 0"
for n in 1 2 3 4 5; do
	topo_uncap_b "$n"
done

# How ecctl shows it: the spare last, every other source with its check
# coefficient (fragment 5 of ISA-L Cauchy RS(4,2) from 0, 2, 3, 4).
tap_expect_jq "task show: the spare last, the others' check coefficients" \
	'.[0].sources | (.[4].spare == true and .[4].frag == 5 and
	 ([.[0:4][] | .check | length == 1 and .[0] > 0] | all) and
	 (.[4].check == null))' \
	ip netns exec "$S" "$ECCTL" -j task show id 1

# Targets: RS(4,3) loses fragments 1 and 6, two rows, each completed
# with the spare (fragment 5) while B3 is slow.
dir=$tmp/6
rm -rf "$dir"
if ec_encode "$dir" isal-cauchy 4 3 $size &&
   ec_store "$dir" 4 3 1,6 8006 && ec_targets "$dir" 1,6 9006 &&
   ecin $S task add id 6 vip $VIP code isal-cauchy k 4 m 3 lost 1,6 \
	"${EC_SOURCES[@]}" "${EC_SPARE_ARGS[@]}" "${EC_DESTS[@]}" >&2; then
	topo_cap_b 3 400kbit
	if ec_run 6 120 && ec_stored "$dir" 1,6; then
		tap_ok "targets: two rows completed with the spare, B3 slow"
	else
		tap_fail "targets: two rows completed with the spare, B3 slow" \
			"$(head -n 3 "$dir"/tgt.* 2>&1)"
		ecin $S task show id 6 -s >&2
	fi
	tap_check "targets: the spare stood in for B3" \
		[ "$(ec_stats 6 '.stats.spare_bytes > 0')" = true ]
	topo_uncap_b 3
else
	tap_fail "targets: two rows completed with the spare, B3 slow" \
		"setting up the sources, targets or the task failed"
fi
ec_stop_servers

# A source that resets mid-stream: one more source the spare stands in
# for, while no more have reset than there are spares.  A node answers
# whatever S sends it but SYNs with a RST (nft's reject): B2 once T1 holds
# 50 kB (T1's link at 400 kbit/s and a 64 KiB buffer hold the sources
# back: B2 is far from done when the reset lands, a second or two later
# on the debug kernel under TCG); B2 and B3 from the start, so that both
# reset before either can finish, and with one spare the run fails and T1
# gets a RST, not a FIN.  A source that refuses S's SYN, or answers none
# of them, is stood in for from the start, and one whose file is short
# from where it ends.
#
# rst_ready N PORT RULE: node N's table, its RULE (an nft verdict with
# its matches) for the addresses in its set, which is empty: registering
# a hook waits for RCU grace periods, seconds on the debug kernel under
# TCG, and the reset would land late.  rst_on N: S's address into the
# set, at once.
rst_ready() {
	ip netns exec "$B$1" nft -f - <<-EOF
		table inet rst {
			set from { type ipv4_addr; }
			chain in {
				type filter hook input priority 0;
				ip saddr @from tcp dport $2 $3
			}
		}
	EOF
}
rst_on() {
	ip netns exec "$B$1" nft add element inet rst from "{ $VIP }"
}
rst_off() {
	ip netns exec "$B$1" nft delete table inet rst
}
rst_mid="tcp flags & syn != syn reject with tcp reset"
# rst_case DESC ID NODES WHEN [RULE]: B2..B5 serve fragments 2, 3, 4 and 5
# (the spare) of RS(4,2), B1 fragment 0; fragment 1 goes to T1; NODES
# apply RULE (by default: reset all but SYNs) from WHEN (mid or start),
# or (WHEN short) serve 3/8 of their fragment and close.
rst_case() {
	local desc=$1 id=$2 nodes=$3 when=$4 rule=${5:-$rst_mid} dir=$tmp/$2 n
	rm -rf "$dir"
	if ! ec_encode "$dir" isal-cauchy 4 2 $size ||
	   ! ec_store "$dir" 4 2 1 $((8000 + id)) ||
	   ! ec_targets "$dir" 1 $((9000 + id)) ||
	   ! ecin $S task add id "$id" vip $VIP code isal-cauchy k 4 m 2 lost 1 \
		"${EC_SOURCES[@]}" "${EC_SPARE_ARGS[@]}" "${EC_DESTS[@]}" \
		buffer 64k >&2; then
		tap_fail "$desc" "setting up the sources, target or task failed"
		return 1
	fi
	if [ "$when" = short ]; then
		for n in $nodes; do truncate -s $((frag * 3 / 8)) "$dir/frag.$n"; done
		ecin $S task start id "$id" >&2
		wait_for 120 ec_conn_idle "$id"
		return
	fi
	for n in $nodes; do rst_ready "$n" $((8000 + id)) "$rule"; done
	if [ "$when" = start ]; then
		for n in $nodes; do rst_on "$n"; done
		ecin $S task start id "$id" >&2
	else
		pp ip netns exec "$S" tc qdisc replace dev to-t1 root tbf \
			rate 400kbit burst 16k latency 1s
		ecin $S task start id "$id" >&2
		wait_for 60 sh -c "[ \$(stat -c %s $dir/got.1 2>/dev/null || echo 0) -gt 50000 ]"
		for n in $nodes; do rst_on "$n"; done
	fi
	wait_for 120 ec_conn_idle "$id"
	for n in $nodes; do rst_off "$n"; done
	[ "$when" = start ] || ip netns exec "$S" tc qdisc del dev to-t1 root
}
# rst_tgt ID: T1's end of case ID, once T1 has seen it.
rst_tgt() {
	wait_for 10 sh -c "[ -s $tmp/$1/tgt.1 ]"
	cat "$tmp/$1/tgt.1"
}
# rst_stored DESC ID: T1's fragment of case ID exact.
rst_stored() {
	rst_tgt "$2" >/dev/null
	if ec_stored "$tmp/$2" 1; then
		tap_ok "$1: the spare stood in, T1's fragment exact"
	else
		tap_fail "$1: T1's fragment exact" "$(cat "$tmp/$2/tgt.1")"
		ecin $S task show id "$2" -s >&2
	fi
}
# rst_one DESC ID JQ WHEN [RULE]: B2 fails WHEN (rst_case); the spare
# stands in: T1's fragment exact, one source counted lost, no error, and
# JQ true over the task's JSON.
rst_one() {
	local desc=$1 id=$2 jq=$3
	shift 3
	rst_case "$desc" "$id" 2 "$@" || return
	rst_stored "$desc" "$id"
	tap_expect_jq "$desc: counted, against B2, no error" \
		"(.[0].stats | .sources_lost == 1 and .last_error == \"none\" and
		  .conns_failed == 0) and .[0].sources[1].stats.lost == 1 and
		 $jq" \
		ecin $S -j task show id "$id" -s
}
# rst_two DESC ID ERR WHEN [RULE]: B2 and B3 fail WHEN with one spare: the
# run fails with ERR, one source counted lost.
rst_two() {
	local desc=$1 id=$2 err=$3
	shift 3
	rst_case "$desc" "$id" "2 3" "$@" || return
	tap_expect_jq "$desc: the run fails, naming one" \
		"(.[0].stats | .sources_lost == 1 and .conns_failed == 1 and
		  .last_error == \"$err\") and
		 ([.[0].sources[].stats.lost] | add) == 1" \
		ecin $S -j task show id "$id" -s
}
rst_one "a source reset mid-stream" 7 \
	'.[0].stats.spare_bytes > 0 and .[0].sources[1].stats.bytes_in < 524288' mid
ec_stop_servers
if rst_two "two sources reset, one spare" 8 source-reset start; then
	tap_check "two sources reset, one spare: T1 got a RST, not a FIN" \
		[ "$(rst_tgt 8 | cut -d' ' -f1)" = reset ]
fi
ec_stop_servers
# B2 answers S's SYN with a RST: the spare gives all of B2's part.
rst_one "a source refuses the handshake" 10 ".[0].stats.spare_bytes == $frag" \
	start "reject with tcp reset"
ec_stop_servers
rst_two "two sources refuse, one spare" 11 source-refused start \
	"reject with tcp reset"
ec_stop_servers
# B2's file is short: it closes at 3/8 of its fragment, the others send
# on, and the spare gives the rest of B2's part.
rst_one "a source closes short" 13 '.[0].stats.spare_bytes > 0' short
ec_stop_servers
if rst_two "two sources close short, one spare" 14 length-mismatch short; then
	tap_check "two sources close short, one spare: T1 got a RST, not a FIN" \
		[ "$(rst_tgt 14 | cut -d' ' -f1)" = reset ]
fi
ec_stop_servers
# silent_case DESC ID HANDSHAKE JQ: A reads task ID (timeout handshake
# HANDSHAKE ms) while B2 drops whatever S sends it; the spare stands in:
# A's copy exact, one source counted lost, no error, B2's state silent
# while the connection lingers, and JQ true over the task's JSON (@el in
# it: the read's time in ms).
silent_case() {
	local desc=$1 id=$2
	if ! EC_TASK="timeout handshake $3 linger 30000" \
		ec_prep "$id" isal-cauchy 4 2 1 $size; then
		tap_fail "$desc" "setting up the sources or the task failed"
		return
	fi
	rst_ready 2 $((8000 + id)) drop
	rst_on 2
	ec_fetch "$id"
	ec_verify "$desc: A's copy" "$id"
	tap_expect_jq "$desc: stood in for, read in ${el} ms" \
		".[0] | (.stats | .sources_lost == 1 and .spare_bytes == $frag and
		 .conns_failed == 0) and .sources[1].stats.state == \"silent\" and
		 .sources[1].stats.lost == 1 and ${4//@el/$el}" \
		ecin $S -j task show id "$id" -s
	rst_off 2
}
# After three SYNs (about a second, ECP_SYN_STAND_IN), long before the
# handshake timeout of 30 s.
silent_case "a source silent in the handshake" 12 30000 '@el < 20000'
ec_stop_servers
# At a handshake timeout of 500 ms, before B2's third SYN (the second
# repeat goes ECP_SYN_GAP, 550 ms, after the first): at most one SYN
# repeated, and the client still acks S's SYN-ACK in time.
silent_case "a source silent at the handshake timeout" 15 500 \
	'.stats.syns_resent <= 1'
ec_stop_servers

# B2's SYN-ACKs are lost (dropped as S receives them, ahead of ecproxy's
# hook, topo_drop: one that B2 could not send would end its request) until the spare stood
# in for it and A's read is done; then they come through.  S answers the
# late SYN-ACK with a RST while the connection lingers, and B2's request
# ends at once (TcpAttemptFails) instead of staying in SYN-RECV through
# its SYN-ACK repeats, 1, 3, 7, 15, 31, 63 and 127 s after S's first SYN
# with tcp_synack_retries 7 (5 by default would end the request at 63 s:
# too near a slow read's end under TCG).  The next repeat after a lift at
# T comes by 2T, inside the longest linger (60 s) while T < 55 s.
late_syns() {
	ip netns exec "${B}2" ss -Htn state syn-recv dst $VIP | grep -c .
}
late_case() {
	local desc="a source's SYN-ACKs late" id=16 fails drops
	if ! ip netns exec "${B}2" sysctl -qw net.ipv4.tcp_synack_retries=7 ||
	   ! EC_TASK="timeout linger 60000" ec_prep "$id" isal-cauchy 4 2 1 $size ||
	   ! topo_drop "$S" ip saddr "$(topo_addr b2)" tcp sport $((8000 + id))
	then
		tap_fail "$desc" "setting up the sources, the task or S's filter failed"
		return
	fi
	ec_fetch "$id"
	ec_verify "$desc: A's copy" "$id"
	tap_expect_jq "$desc: stood in for" \
		".[0] | .stats.sources_lost == 1 and .stats.conns_failed == 0 and
		 .sources[1].stats.state == \"silent\" and .sources[1].stats.lost == 1" \
		ecin $S -j task show id "$id" -s
	fails=$(topo_nstat "${B}2" TcpAttemptFails)
	drops=$(ec_stats "$id" .stats.drops.out_of_window)
	tap_check "$desc: B2 holds S's SYN in SYN-RECV" [ "$(late_syns)" -ge 1 ]
	topo_undrop "$S"
	wait_for 90 late_reset "$fails"
	tap_check "$desc: B2's request reset at its next SYN-ACK" \
		late_reset "$fails"
	tap_expect_jq "$desc: by S, while it lingers" \
		".[0].stats | .conn_state == \"linger\" and
		 .drops.out_of_window > $drops" \
		ecin $S -j task show id "$id" -s
	ip netns exec "${B}2" sysctl -qw net.ipv4.tcp_synack_retries=5
}
late_reset() {
	[ "$(late_syns)" = 0 ] &&
		[ "$(topo_nstat "${B}2" TcpAttemptFails)" -gt "$1" ]
}
late_case
ec_stop_servers

# B2's file is short, and A (ecp-cli) keeps its sending side open, so
# B2's socket is open when the spare stands in: S resets it then, in the
# read, long before the connection ends (B2 serves with -W and logs how
# its connection ended), where without the RST B2 would wait for an end.
short_read() {
	local desc="a source closes short in a read" id=17 log=$tmp/srv17
	if ! EC_SERVER=prog EC_SRV_ARGS=-W EC_SRVLOG=$log EC_TASK="timeout linger 60000" \
		ec_prep "$id" isal-cauchy 4 2 1 $size; then
		tap_fail "$desc" "setting up the sources or the task failed"
		return
	fi
	truncate -s $((frag * 3 / 8)) "$tmp/$id/frag.2"
	EC_CLIENT=prog ec_fetch "$id"
	ec_verify "$desc: A's copy" "$id"
	tap_expect_jq "$desc: stood in for, counted against B2" \
		".[0] | (.stats | .sources_lost == 1 and .spare_bytes > 0 and
		 .conns_failed == 0) and .sources[1].stats.state == \"short\" and
		 .sources[1].stats.lost == 1" \
		ecin $S -j task show id "$id" -s
	wait_for 10 grep -q " end " "$log.2.8017"
	tap_check "$desc: B2 reset before the connection ends" \
		grep -q "^served $((frag * 3 / 8)) end reset$" "$log.2.8017"
	tap_expect_jq "$desc: still lingering" \
		'.[0].stats.conn_state == "linger"' ecin $S -j task show id "$id" -s
}
short_read
ec_stop_servers

# What the kernel refuses, with its reason (ecctl's own refusals:
# tools/tests/ecctl_cli.sh).
add=(task add id 9 vip $VIP port 7009)
tap_expect_err "the kernel: a spare needs every check coefficient" 1 \
	'Error: source 1: 0 check coefficients for 1 spares' \
	ip netns exec "$S" "$ECCTL" "${add[@]}" source 10.0.2.2:1 coef 3 check 7 \
	source 10.0.2.3:1 coef 5 spare 10.0.2.6:1
tap_expect_err "the kernel: a check coefficient without a spare" 1 \
	'Error: source 0: check coefficients without a spare' \
	ip netns exec "$S" "$ECCTL" "${add[@]}" source 10.0.2.2:1 coef 3 check 7 \
	source 10.0.2.3:1 coef 5
tap_expect_jq "coef and check by hand: two spares last" \
	'.[0].sources | (length == 4 and .[2].spare and .[3].spare and .[0].check == [7, 2])' \
	sh -c "ip netns exec $S $ECCTL ${add[*]} source 10.0.2.2:1 coef 3 check 7,2 \
	source 10.0.2.3:1 coef 5 check 9,0x1d spare 10.0.2.6:1 spare 10.0.2.7:1 &&
	ip netns exec $S $ECCTL -j task show id 9"

tap_done
