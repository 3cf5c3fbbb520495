#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `ecctl monitor` follows the events of a real reconstruction, and
# `ecctl task change` and `ecctl stats reset` act on tasks that carry
# traffic.  Two monitors (text and -j) run in S's namespace, a third in
# A's, which must see nothing.  Fragments are encoded with ecctl, served
# by socat on the Bs, and read by socat on A through the VIP, as in
# recon.sh, on its topology (../lib/topo.sh):
#
#                 +---------------------------+
#   +-------+     |            S              |     +--------+
#   |   A   |-----| to-a1 10.0.1.1            |-----| B1 .2  | 10.0.11.0/24
#   | .1.2  |     | VIP 10.99.0.1 (on lo)     |-----| B2 .2  | 10.0.12.0/24
#   +-------+     | ecproxy, ecctl monitor    |-----| B3 .2  | 10.0.13.0/24
#                 +---------------------------+     +--------+
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

topo_init mon
mons=()

# line_of FILE REGEX: the number of the first matching line.
line_of() {
	grep -En "$2" "$1" | head -1 | cut -d: -f1
}

# jq_line DESC FILTER: one line of the -j monitor satisfies FILTER.
jq_line() {
	if jq -e -s "[.[] | select($2)] | length == 1" "$tmp/mon.json" >/dev/null; then
		tap_ok "$1"
	else
		tap_fail "$1" "no single line with $2 in: $(tr '\n' ' ' < "$tmp/mon.json")"
	fi
}

pp modprobe ecproxy
topo_setup 1 3 || exit 1
# The probe task's VIP, local in S and in A (A's monitor sees only A's).
pp ip -n $S addr add 10.99.0.99/32 dev lo
pp ip -n $A addr add 10.99.0.99/32 dev lo

# --- three monitors; they are listening once they see task 99 come --------
ip netns exec $S "$ECCTL" monitor > "$tmp/mon.txt" 2> "$tmp/mon.err" &
mons+=($!)
ip netns exec $S "$ECCTL" -j monitor > "$tmp/mon.json" 2> "$tmp/monj.err" &
mons+=($!)
ip netns exec $A "$ECCTL" monitor > "$tmp/mon.a" 2>&1 &
mons+=($!)
probe() {
	ecq "$1" task add id 99 vip 10.99.0.99 port 99 \
		source 10.0.11.2:1 coef 1 buffer 4k >/dev/null 2>&1
	mon_has '^task 99 added|"task":99' "$2" && return 0
	ecq "$1" task del id 99 >/dev/null 2>&1
	return 1
}
tap_check "text monitor is listening" wait_for 20 probe $S "$tmp/mon.txt"
tap_check "JSON monitor is listening" wait_for 20 probe $S "$tmp/mon.json"
tap_check "A's monitor is listening (A's own task 99)" wait_for 20 probe $A "$tmp/mon.a"
ecin $A task del id 99
tap_check "task 99 deleted in A seen by A" wait_for 10 mon_has '^task 99 deleted$' "$tmp/mon.a"
ecin $S task del id 99 >&2
tap_check "text: task 99 added" \
	mon_has '^task 99 added vip 10\.99\.0\.99 port 99 sources 1$' "$tmp/mon.txt"

# --- a reconstruction: added, established, completed, deleted -------------
k=3 m=2 lost=1 size=300000
frag=$((size / k))
ec_encode "$tmp/frags" isal-cauchy $k $m $size
# B1..B3 serve fragments 0, 2 and 3 (EC_SOURCES); again for each fetch.
ec_store "$tmp/frags" $k $m $lost 8000
tap_check "add task 1" ec_task 1 isal-cauchy $k $m $lost
ec_fetch 1
if cmp -s "$tmp/frags/frag.$lost" "$tmp/1/out"; then
	tap_ok "fragment $lost rebuilt, $frag bytes, byte-exact"
else
	tap_fail "fragment $lost rebuilt byte-exact" "got $(stat -c %s "$tmp/1/out") bytes; $(cat "$tmp/1/err")"
fi
tap_check "completed event arrives" wait_for 10 mon_has '^task 1 completed ' "$tmp/mon.txt"
tap_check "text: task 1 added" \
	mon_has "^task 1 added vip 10\\.99\\.0\\.1 port 7001 sources 3\$" "$tmp/mon.txt"
tap_check "text: task 1 established, from A, with its home CPU" \
	mon_has '^task 1 established client 10\.0\.1\.2:[0-9]+ cpu [0-9]+$' "$tmp/mon.txt"
tap_check "text: task 1 completed with the fragment's byte count" \
	mon_has "^task 1 completed client 10\\.0\\.1\\.2:[0-9]+ bytes $frag duration [0-9]+ ms\$" "$tmp/mon.txt"
port1=$(sed -n 's/^task 1 established client 10\.0\.1\.2:\([0-9]*\) .*/\1/p' "$tmp/mon.txt")
tap_check "text: the same client port in established and completed ($port1)" \
	mon_has "^task 1 completed client 10\\.0\\.1\\.2:$port1 " "$tmp/mon.txt"
ec_stop_servers
wait_for 10 ec_conn_idle 1
tap_check "delete task 1" ecin $S task del id 1
tap_check "text: task 1 deleted" wait_for 10 mon_has '^task 1 deleted$' "$tmp/mon.txt"
a=$(line_of "$tmp/mon.txt" '^task 1 added')
e=$(line_of "$tmp/mon.txt" '^task 1 established')
c=$(line_of "$tmp/mon.txt" '^task 1 completed')
d=$(line_of "$tmp/mon.txt" '^task 1 deleted')
if [ -n "$a" ] && [ -n "$e" ] && [ -n "$c" ] && [ -n "$d" ] &&
   [ "$a" -lt "$e" ] && [ "$e" -lt "$c" ] && [ "$c" -lt "$d" ]; then
	tap_ok "text: added, established, completed, deleted, in that order"
else
	tap_fail "text: events in order" "lines $a $e $c $d: $(tr '\n' '|' < "$tmp/mon.txt")"
fi
tap_check "no failed event for task 1" sh -c "! grep -q '^task 1 failed' $tmp/mon.txt"
tap_check "JSON monitor: every line is valid JSON" sh -c "jq -e . $tmp/mon.json >/dev/null"
jq_line "JSON: task 1 added" '.event == "added" and .task == 1 and .vip == "10.99.0.1" and .port == 7001 and .sources == 3'
jq_line "JSON: task 1 established" \
	".event == \"established\" and .task == 1 and .client == \"10.0.1.2\" and .client_port == ${port1:-0} and .cpu >= 0"
jq_line "JSON: task 1 completed, bytes and duration" \
	".event == \"completed\" and .task == 1 and .bytes == $frag and .duration_ms >= 0 and .client_port == ${port1:-0} and (has(\"error\") | not) and (has(\"cpu\") | not)"
jq_line "JSON: task 1 deleted" '.event == "deleted" and .task == 1 and (has("vip") | not)'

# --- a source whose port is closed: failed, with the reason and the source
ec_serve 2 8000 /dev/null
tap_check "add task 2 (source 0 on a closed port)" \
	ecin $S task add id 2 vip $VIP port 7002 source 10.0.11.2:8001 coef 1 \
	source 10.0.12.2:8000 coef 1
tap_expect_fail "A's connect to task 2 fails" \
	timeout 10 ip netns exec $A socat -u TCP:$VIP:7002 -
ec_stop_servers
tap_check "failed event arrives" wait_for 10 mon_has '^task 2 failed ' "$tmp/mon.txt"
tap_check "text: failed names the reason and the source at fault" \
	mon_has '^task 2 failed client 10\.0\.1\.2:[0-9]+ error source-refused source 0 10\.0\.11\.2:8001 bytes 0 duration [0-9]+ ms$' "$tmp/mon.txt"
jq_line "JSON: failed, source-refused, source 0 at 10.0.11.2:8001" \
	'.event == "failed" and .task == 2 and .error == "source-refused" and .source == {"index": 0, "addr": "10.0.11.2", "port": 8001} and .bytes == 0'
tap_check "no established event for task 2" sh -c "! grep -q '^task 2 established' $tmp/mon.txt"

# --- task change: refused while a connection is live, then applied --------
# A reads it in the background (apid).
tap_check "add task 3, sources streaming zeros forever" ec_endless 3 8000
tap_check "task 3 is busy" wait_for 20 mon_has '^task 3 established ' "$tmp/mon.txt"
echo "[+] ip netns exec $S ecctl task change id 3 buffer 64k" >&2
err=$(ecq $S task change id 3 buffer 64k 2>&1)
rc=$?
if [ $rc = 1 ] && [ "$err" = "Error: task 3 has a live connection; change it when it is idle" ]; then
	tap_ok "change while busy: refused with the kernel's reason"
else
	tap_fail "change while busy: refused with the kernel's reason" "rc=$rc: $err"
fi
tap_check "timeouts are refused too while busy" sh -c \
	"! ip netns exec $S $ECCTL task change id 3 timeout idle 5000 2>/dev/null"
tap_expect_jq "nothing changed: buffer 1 MiB, idle timeout 60 s" \
	'.[0].buffer == 1048576 and .[0].timeouts.idle == 60000 and .[0].state == "busy"' ecq $S -j task show id 3
tap_check "no changed event while busy" sh -c "! grep -q '^task 3 changed' $tmp/mon.txt"
kill $apid
wait $apid 2>/dev/null
ec_stop_servers
tap_check "task 3 goes idle after A leaves" wait_for 20 ec_conn_idle 3
tap_check "text: task 3 failed, the client reset it" \
	wait_for 10 mon_has '^task 3 failed client 10\.0\.1\.2:[0-9]+ error (client|source)-reset( source [0-9] [0-9.:]+)? bytes [1-9][0-9]* duration [0-9]+ ms$' "$tmp/mon.txt"
tap_check "change when idle: buffer 64k, idle timeout 5 s" \
	ecin $S task change id 3 buffer 64k timeout idle 5000
tap_expect_jq "the change is applied" \
	'.[0].buffer == 65536 and .[0].memory == 131072 + (3 + 1) * 44 * 16 and .[0].timeouts.idle == 5000' \
	ecq $S -j task show id 3
tap_check "text: task 3 changed" wait_for 10 mon_has '^task 3 changed$' "$tmp/mon.txt"

# fetch3 DESC: A fetches through task 3, byte-exact; sources stopped and
# the task idle afterwards.
fetch3() {
	ec_fetch 3
	if cmp -s "$tmp/frags/frag.$lost" "$tmp/3/out"; then
		tap_ok "$1"
	else
		tap_fail "$1" "got $(stat -c %s "$tmp/3/out") bytes"
	fi
	ec_stop_servers
	wait_for 10 ec_conn_idle 3
}

# The new buffer carries a reconstruction; its bound holds.
ec_store "$tmp/frags" $k $m $lost 8000
tap_check "change task 3 to rebuild fragment $lost" sh -c \
	"ip netns exec $S $ECCTL task del id 3 &&
	 ip netns exec $S $ECCTL task add id 3 vip $VIP port 7003 buffer 16k \
	 code isal-cauchy k $k m $m lost $lost ${EC_SOURCES[*]} &&
	 ip netns exec $S $ECCTL task change id 3 buffer 8k"
fetch3 "through the changed 8 KiB buffer: byte-exact"
tap_expect_jq "its peak occupancy stayed within 8 KiB plus headroom" \
	'.[0].buffer == 8192 and .[0].stats.peak_buffer > 0 and .[0].stats.peak_buffer <= 8192 + 65536' \
	ecq $S -j task show id 3 -s

# The client filter: a change shuts A out, another lets it in again.
tap_check "change task 3: only clients of 10.0.9.0/24" ecin $S task change id 3 client 10.0.9.0/24
# A's SYNs go unanswered, so its connect keeps retrying them; each is
# counted.  Wait for the counter rather than a fixed time: under load
# socat may take seconds to send its first SYN.
ip netns exec $A socat -u TCP:$VIP:7003 - > "$tmp/out.denied" 2>/dev/null &
dpid=$!
tap_check "A's SYN counted as client-denied" wait_for 30 sh -c \
	"ip netns exec $S $ECCTL -j task show id 3 -s | jq -e '.[0].stats.drops.client_denied >= 1'"
tap_expect_jq "A is not served" '.[0].stats.conn_state == "none" and .[0].stats.conns == 1' \
	ecq $S -j task show id 3 -s
tap_check "A is still waiting, with nothing received" sh -c "kill -0 $dpid && [ ! -s $tmp/out.denied ]"
kill $dpid 2>/dev/null
wait $dpid 2>/dev/null
ec_store "$tmp/frags" $k $m $lost 8000
tap_check "change task 3: only clients of 10.0.1.0/24, A's" \
	ecin $S task change id 3 client 10.0.1.0/24
fetch3 "A is served again: byte-exact"

# --- stats reset under traffic counters ---------------------------------
tap_expect_jq "before reset: namespace counters are not zero" \
	'.stats.conns >= 4 and .stats.bytes_out > 0 and .stats.conns_failed >= 2' ecq $S -j stats
tap_check "stats reset id 3" ecin $S stats reset id 3
tap_expect_jq "task 3's counters are zero, its state and last error kept" \
	'.[0].stats.bytes_out == 0 and .[0].stats.conns == 0 and .[0].stats.drops.client_denied == 0
	 and .[0].stats.peak_buffer == 0 and ([.[0].sources[].stats.bytes_in] | add) == 0
	 and .[0].stats.last_error == "none"' ecq $S -j task show id 3 -s
tap_expect_jq "task 2's are not" \
	'.[0].stats.conns_failed == 1 and .[0].stats.last_error == "source-refused"' ecq $S -j task show id 2 -s
tap_check "stats reset" ecin $S stats reset
tap_expect_jq "every namespace total is zero, deleted task 1 included" \
	'.stats.conns == 0 and .stats.bytes_out == 0 and .stats.bytes_in == 0 and .stats.conns_failed == 0
	 and .stats.conns_done == 0 and .stats.peak_buffer == 0 and ([.stats.drops[]] | add) == 0
	 and .events_dropped == 0 and .tasks == 2' ecq $S -j stats
tap_expect_jq "task 2's last error survives the reset" \
	'.[0].stats.conns_failed == 0 and .[0].stats.last_error == "source-refused"' ecq $S -j task show id 2 -s

# --- namespaces, and the end of the monitors ------------------------------
tap_check "flush" ecin $S task flush
tap_check "text: flush deletes tasks 2 and 3" \
	wait_for 10 sh -c "grep -qx 'task 2 deleted' $tmp/mon.txt && grep -qx 'task 3 deleted' $tmp/mon.txt"
tap_check "A's monitor saw only A's task 99" \
	sh -c "grep -qx 'task 99 added vip 10.99.0.99 port 99 sources 1' $tmp/mon.a &&
	       ! grep -v '^task 99 ' $tmp/mon.a"
for p in "${mons[@]}"; do
	kill -TERM "$p"
done
rcs=""
for p in "${mons[@]}"; do
	wait "$p"
	rcs="$rcs $?"
done
mons=()
if [ "$rcs" = " 0 0 0" ] && [ ! -s "$tmp/mon.err" ] && [ ! -s "$tmp/monj.err" ]; then
	tap_ok "monitors exit 0 on SIGTERM, nothing on stderr"
else
	tap_fail "monitors exit 0 on SIGTERM" "rc$rcs; $(cat "$tmp/mon.err" "$tmp/monj.err")"
fi
echo "# text monitor:" >&2
sed 's/^/#   /' "$tmp/mon.txt" >&2
tap_check "unload" modprobe -r ecproxy

tap_done
