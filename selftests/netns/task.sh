#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The control plane of reconstruction tasks: `ecctl task` and `ecctl stats`
# over generic netlink.  Tasks are added with explicit coefficients and by
# code profile, shown as text and JSON, rejected with the kernel's exact
# extack message when invalid, kept apart per network namespace, capped by
# netns_mem_max, refused to unprivileged users, and freed on delete, flush,
# namespace removal and module unload (the debug VM checks for leaks).
# No packets flow: the namespaces need no links.
#
#   +-----------+   +-----------+   +-----------+
#   |  ns $X    |   |  ns $Y    |   |  ns $Z    |
#   | tasks 1-6 |   | tasks 1,  |   | deleted   |
#   | 100-119   |   | 7-9 (cap) |   | with tasks|
#   +-----------+   +-----------+   +-----------+
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/topo.sh"

X=ecp-task-x
Y=ecp-task-y
Z=ecp-task-z
param=/sys/module/ecproxy/parameters/netns_mem_max
tmp=$(mktemp -d)
# A copy any user can run, for the unprivileged case.
chmod 755 "$tmp"
cp "$ECCTL" "$tmp/ecctl"
chmod 755 "$tmp/ecctl"
ECCTL=$tmp/ecctl

cleanup() {
	ip netns del $X 2>/dev/null
	ip netns del $Y 2>/dev/null
	ip netns del $Z 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

pp modprobe -r ecproxy 2>/dev/null
tap_check "load the module" modprobe ecproxy
pp ip netns add $X
pp ip netns add $Y
pp ip netns add $Z
# A VIP must be a local address: make every address of 10.8.0.0/15 one
# (AnyIP, a local route), as an operator with many VIPs may.
for ns in $X $Y $Z; do
	pp ip -n $ns link set lo up
	pp ip -n $ns route add local 10.8.0.0/15 dev lo
done
pp echo $((256 << 20)) > $param

# --- GET_INFO: version and GF(2^8) implementations ----------------------------
# ecctl gf show sends GET_INFO.
info=$(pp "$ECCTL" -j gf show |
       jq -r '"version \(.version) impl \(.implementation) avail \(.available | join(","))"')
echo "# $info"
impl=$(cat /sys/module/ecproxy/parameters/gf_impl)
case "$info" in
"version $(modinfo -F version ecproxy) impl $impl avail "*)
	avail=${info##* avail }
	if [[ ",$avail," == *",scalar,"* && ",$avail," == *",$impl,"* ]]; then
		tap_ok "GET_INFO: version, implementation in use ($impl), available ($avail)"
	else
		tap_fail "GET_INFO lists scalar and the implementation in use" "$info"
	fi ;;
*) tap_fail "GET_INFO: version and implementation" "$info (gf_impl $impl)" ;;
esac

# --- explicit coefficients -------------------------------------------------
tap_check "add task 1 with explicit coefficients" \
	ecin $X task add id 1 vip 10.9.0.1 port 5000 \
	source 10.9.1.1:7000 coef 1 source 10.9.1.2:7000 coef 2 \
	source 10.9.1.3:7000 coef 0xfe
tap_expect_out "show task 1 as text, with the defaults" 0 \
"task 1 vip 10.9.0.1 port 5000 state idle
    buffer 1048576 memory 1205440 timeout handshake 3000 idle 60000 linger 1000
    source 0 10.9.1.1:7000 coef 0x01
    source 1 10.9.1.2:7000 coef 0x02
    source 2 10.9.1.3:7000 coef 0xfe" ecin $X task show id 1
tap_expect_jq "JSON of task 1" \
	'length == 1 and .[0].id == 1 and .[0].vip == "10.9.0.1" and .[0].port == 5000
	 and .[0].state == "idle" and .[0].buffer == 1048576
	 and .[0].memory == 1048576 + 131072 + (3 + 1) * 403 * 16
	 and .[0].timeouts == {"handshake": 3000, "idle": 60000, "linger": 1000}
	 and ([.[0].sources[].coef] == [1, 2, 254])
	 and ([.[0].sources[].addr] == ["10.9.1.1", "10.9.1.2", "10.9.1.3"])
	 and (.[0] | has("client") | not) and (.[0] | has("stats") | not)
	 and (.[0].sources[0] | has("frag") | not)' \
	ecin $X -j task show id 1

# --- coefficients from a code profile --------------------------------------
tap_check "add task 2 by profile (isal-cauchy k 3 m 2, lost data fragment 1)" \
	ecin $X task add id 2 vip 10.9.0.1 port 5001 client 10.9.2.0/24 \
	code isal-cauchy k 3 m 2 lost 1 \
	source 10.9.1.1:7000:0 source 10.9.1.3:7000:2 source 10.9.1.4:7000:3 \
	buffer 64k timeout handshake 500 idle 2000 linger 0
want=$(pp "$ECCTL" -j code coef isal-cauchy k 3 m 2 lost 1 avail 0,2,3 | jq -c .coefficients)
got=$(ecin $X -j task show id 2 | jq -c '[.[0].sources[].coef]')
if [ -n "$want" ] && [ "$want" = "$got" ]; then
	tap_ok "task 2 coefficients equal ecctl code coef ($want)"
else
	tap_fail "task 2 coefficients equal ecctl code coef" "task $got, code $want"
fi
tap_expect_jq "JSON of task 2: client, buffer, headroom, timeouts, fragments" \
	'.[0].client == "10.9.2.0/24" and .[0].buffer == 65536
	 and .[0].memory == 65536 + 65536 + (3 + 1) * 44 * 16
	 and .[0].timeouts == {"handshake": 500, "idle": 2000, "linger": 0}
	 and [.[0].sources[].frag] == [0, 2, 3]' \
	ecin $X -j task show id 2

tap_check "add task 3 by profile (ceph-jerasure k 6 m 3, lost parity fragment 7)" \
	ecin $X task add id 3 vip 10.9.0.2 port 5000 code ceph-jerasure k 6 m 3 lost 7 \
	source 10.9.1.1:7000:0 source 10.9.1.2:7000:1 source 10.9.1.3:7000:2 \
	source 10.9.1.4:7000:3 source 10.9.1.5:7000:4 source 10.9.1.6:7000:8
want=$(pp "$ECCTL" -j code coef ceph-jerasure k 6 m 3 lost 7 avail 0,1,2,3,4,8 | jq -c .coefficients)
got=$(ecin $X -j task show id 3 | jq -c '[.[0].sources[].coef]')
if [ -n "$want" ] && [ "$want" = "$got" ]; then
	tap_ok "task 3 coefficients equal ecctl code coef ($want)"
else
	tap_fail "task 3 coefficients equal ecctl code coef" "task $got, code $want"
fi

tap_expect_jq "dump lists tasks 1, 2, 3 in order" '[.[].id] == [1, 2, 3]' ecin $X -j task show
tap_expect_jq "-s adds zeroed statistics to tasks and sources" \
	'.[0].stats.bytes_in == 0 and .[0].stats.conns == 0 and .[0].stats.peak_buffer == 0
	 and .[0].stats.conn_state == "none" and .[0].stats.last_error == "none"
	 and (.[0].stats.drops | length == 10 and all(.[]; . == 0))
	 and .[0].sources[0].stats == {"state": "idle", "bytes_in": 0, "segs_in": 0, "dup_bytes": 0}' \
	ecin $X -j task show id 1 -s
tap_check "text show -s prints statistics" \
	sh -c "ip netns exec $X $ECCTL task show id 1 -s | grep -q '^    drops out-of-window 0 bad-flags 0'"
tap_check "global -s prints statistics too" \
	sh -c "ip netns exec $X $ECCTL -s task show id 1 | grep -q '^    drops out-of-window 0 bad-flags 0'"
tap_check "-n NETNS shows the same task as ip netns exec" \
	sh -c "[ \"\$($ECCTL -n $X -j task show id 1)\" = \"\$(ip netns exec $X $ECCTL -j task show id 1)\" ]"
expect_err_plain() {
	local desc=$1 want=$2
	shift 2
	tap_check "$desc" sh -c "$ECCTL $* 2>&1 >/dev/null | grep -qF '$want'"
}
expect_err_plain "-n with an unknown namespace says so" \
	'"-n ecp-nosuch": cannot open /run/netns/ecp-nosuch' -n ecp-nosuch task show

# --- invalid requests: the kernel's messages -------------------------------
tap_expect_err "duplicate id" 1 "Error: task 1 already exists" \
	ecin $X task add id 1 vip 10.9.0.9 port 5000 source 10.9.1.1:7000 coef 1
tap_expect_err "duplicate VIP:port" 1 "Error: task 4: 10.9.0.1:5000 is already served by task 1" \
	ecin $X task add id 4 vip 10.9.0.1 port 5000 source 10.9.1.1:7000 coef 1
tap_expect_err "a VIP that is not a local address, named with the fix" 1 \
	"Error: task 4: VIP 10.7.0.1 is not a local address of this network namespace; add it first (ip addr add 10.7.0.1/32 dev lo)" \
	ecin $X task add id 4 vip 10.7.0.1 port 5000 source 10.9.1.1:7000 coef 1
pp ip -n $X addr add 10.7.0.1/32 dev lo
tap_check "the same VIP once it is local" \
	ecin $X task add id 4 vip 10.7.0.1 port 5000 source 10.9.1.1:7000 coef 1
tap_check "delete it" ecin $X task del id 4
tap_expect_err "duplicate source" 1 "Error: source 2: 10.9.1.1:7000 is already source 0" \
	ecin $X task add id 4 vip 10.9.0.9 port 5000 source 10.9.1.1:7000 coef 1 \
	source 10.9.1.2:7000 coef 1 source 10.9.1.1:7000 coef 1
tap_expect_err "no source (k = 0)" 1 "Error: sources: got 0, k must be 1..32" \
	ecin $X task add id 4 vip 10.9.0.9 port 5000
srcs=()
for i in $(seq 1 33); do srcs+=(source "10.9.3.$i:7000" coef "$i"); done
tap_expect_err "33 sources" 1 "Error: sources: got 33, k must be 1..32" \
	ecin $X task add id 4 vip 10.9.0.9 port 5000 "${srcs[@]}"
tap_expect_err "coefficient 0" 1 "Error: source 3: coefficient must be non-zero" \
	ecin $X task add id 4 vip 10.9.0.9 port 5000 source 10.9.1.1:7000 coef 1 \
	source 10.9.1.2:7000 coef 1 source 10.9.1.3:7000 coef 1 source 10.9.1.4:7000 coef 0
tap_expect_err "source port 0" 1 "Error: source 0: port must be non-zero" \
	ecin $X task add id 4 vip 10.9.0.9 port 5000 source 10.9.1.1:0 coef 1
tap_expect_err "port 0" 1 "Error: integer out of range (port: valid range 1..65535)" \
	ecin $X task add id 4 vip 10.9.0.9 port 0 source 10.9.1.1:7000 coef 1
tap_expect_err "id 0" 1 "Error: integer out of range (id: valid range 1..4294967295)" \
	ecin $X task add id 0 vip 10.9.0.9 port 5000 source 10.9.1.1:7000 coef 1
tap_expect_err "buffer above 64 MiB" 1 "Error: integer out of range (buffer: valid range 4096..67108864)" \
	ecin $X task add id 4 vip 10.9.0.9 port 5000 source 10.9.1.1:7000 coef 1 buffer 65537k
tap_expect_err "buffer below 4 KiB" 1 "Error: integer out of range (buffer: valid range 4096..67108864)" \
	ecin $X task add id 4 vip 10.9.0.9 port 5000 source 10.9.1.1:7000 coef 1 buffer 4095
tap_expect_err "handshake timeout too short" 1 \
	"Error: integer out of range (timeout handshake: valid range 100..600000)" \
	ecin $X task add id 4 vip 10.9.0.9 port 5000 source 10.9.1.1:7000 coef 1 timeout handshake 99
tap_expect_err "linger timeout too long" 1 \
	"Error: integer out of range (timeout linger: valid range 0..60000)" \
	ecin $X task add id 4 vip 10.9.0.9 port 5000 source 10.9.1.1:7000 coef 1 timeout idle 5000 linger 60001
tap_expect_err "client prefix with host bits" 1 "Error: client: 10.9.2.1 has bits set beyond the /24 prefix" \
	ecin $X task add id 4 vip 10.9.0.9 port 5000 client 10.9.2.1/24 source 10.9.1.1:7000 coef 1
tap_expect_err "client prefix longer than 32" 1 "Error: client: prefix /33 is longer than 32 bits" \
	ecin $X task add id 4 vip 10.9.0.9 port 5000 client 10.9.2.1/33 source 10.9.1.1:7000 coef 1
tap_expect_err "usage: explicit source without coef" 2 \
	"Error: \"source 10.9.1.1:7000\": needs \"coef C\" (or use \"code\")" \
	ecin $X task add id 4 vip 10.9.0.9 port 5000 source 10.9.1.1:7000
tap_expect_err "usage: code with the wrong number of sources" 2 \
	"Error: code with k=3 needs exactly 3 sources, got 2" \
	ecin $X task add id 4 vip 10.9.0.9 port 5000 code isal-cauchy k 3 m 2 lost 1 \
	source 10.9.1.1:7000:0 source 10.9.1.2:7000:2
tap_expect_jq "no failed add left anything behind" '[.[].id] == [1, 2, 3]' ecin $X -j task show

# --- task change: every task is idle here (no packets flow) ------------------
before=$(ecq $X -j task show id 2)
tap_check "change task 2: client, buffer, every timeout" \
	ecin $X task change id 2 client 10.9.3.0/24 buffer 128k \
	timeout handshake 700 idle 3000 linger 10
tap_expect_jq "task 2 shows them; headroom and memory follow the buffer" \
	'.[0].client == "10.9.3.0/24" and .[0].buffer == 131072
	 and .[0].memory == 131072 + 65536 + (3 + 1) * 67 * 16
	 and .[0].timeouts == {"handshake": 700, "idle": 3000, "linger": 10}
	 and [.[0].sources[].frag] == [0, 2, 3] and .[0].vip == "10.9.0.1" and .[0].port == 5001' \
	ecin $X -j task show id 2
tap_expect_jq "the namespace is charged the new buffer" \
	'.mem_used == (1179648 + (3 + 1) * 403 * 16) + (196608 + (3 + 1) * 67 * 16) + (1179648 + (6 + 1) * 403 * 16)' \
	ecin $X -j stats
tap_check "change only the linger timeout" ecin $X task change id 2 timeout linger 20
tap_expect_jq "other settings are kept" \
	'.[0].timeouts == {"handshake": 700, "idle": 3000, "linger": 20} and .[0].buffer == 131072
	 and .[0].client == "10.9.3.0/24"' ecin $X -j task show id 2
tap_check "client any lifts the filter" ecin $X task change id 2 client any
tap_expect_jq "no client shown after client any" '.[0] | has("client") | not' ecin $X -j task show id 2
tap_check "change task 2 back" \
	ecin $X task change id 2 client 10.9.2.0/24 buffer 64k \
	timeout handshake 500 idle 2000 linger 0
after=$(ecq $X -j task show id 2)
if [ -n "$before" ] && [ "$before" = "$after" ]; then
	tap_ok "task 2 is exactly as before the changes"
else
	tap_fail "task 2 is exactly as before the changes" "before $before after $after"
fi
tap_expect_err "show id 0: the range names id" 1 "Error: integer out of range (id: valid range 1..4294967295)" \
	ecin $X task show id 0
tap_expect_err "del id 0: the range names id" 1 "Error: integer out of range (id: valid range 1..4294967295)" \
	ecin $X task del id 0
tap_expect_err "stats reset id 0: the range names id" 1 \
	"Error: integer out of range (id: valid range 1..4294967295)" ecin $X stats reset id 0
tap_expect_err "change id 0: the range names id" 1 "Error: integer out of range (id: valid range 1..4294967295)" \
	ecin $X task change id 0 buffer 64k
tap_expect_err "change a task that does not exist" 1 "Error: task 77 does not exist" \
	ecin $X task change id 77 buffer 64k
tap_expect_err "change: buffer out of range" 1 \
	"Error: integer out of range (buffer: valid range 4096..67108864)" ecin $X task change id 2 buffer 1k
tap_expect_err "change: timeout out of range" 1 \
	"Error: integer out of range (timeout idle: valid range 1000..86400000)" \
	ecin $X task change id 2 timeout idle 999
tap_expect_err "change: client with host bits" 1 \
	"Error: client: 10.9.2.1 has bits set beyond the /24 prefix" ecin $X task change id 2 client 10.9.2.1/24
pp echo $((3 << 20)) > $param
tap_expect_err "change: a buffer over the cap is refused" 1 \
	"Error: task 1: buffer of 2410944 bytes exceeds the namespace cap (used 1358672 of 3145728 by the other tasks)" \
	ecin $X task change id 1 buffer 2m
tap_expect_jq "and the task keeps its buffer" '.[0].buffer == 1048576 and .[0].memory == 1205440' \
	ecin $X -j task show id 1
# Memory is the buffer, its headroom (an eighth) and 16 bytes per hole
# record (ring / 2920 per source and per output, here the client):
# 1358672 + 1765824 fits only if task 1's own 1205440 is given back first.
tap_check "change: the task's own reservation counts as free" \
	ecin $X task change id 1 buffer 1500k
tap_expect_jq "task 1 has its new buffer" \
	'.[0].buffer == 1536000 and .[0].memory == 1536000 + 192000 + (3 + 1) * 591 * 16' \
	ecin $X -j task show id 1
tap_check "change task 1 back to 1m" ecin $X task change id 1 buffer 1m
pp echo $((256 << 20)) > $param

# What ecctl cannot send, as raw generic netlink (../lib/ecpgenl.py): the
# kernel's error and extack message, or "ok".
raw() {
	pp ip netns exec $X python3 "$top/selftests/lib/ecpgenl.py" "$@"
}
tap_expect_out "TASK_SET refuses a new VIP, naming it" 0 \
	"-22 task 2: vip cannot be changed; delete the task and add it again" \
	raw TASK_SET TASK_ID:u32:2 TASK_VIP:ip:10.9.9.9
tap_expect_out "TASK_SET refuses a new port" 0 \
	"-22 task 2: port cannot be changed; delete the task and add it again" \
	raw TASK_SET TASK_ID:u32:2 TASK_PORT:u16:80
tap_expect_out "TASK_SET with nothing to change" 0 \
	"-22 task 2: nothing to change; give client, buffer, rate or a timeout" \
	raw TASK_SET TASK_ID:u32:2
tap_expect_out "TASK_SET without an id" 0 "-22 missing attribute id" \
	raw TASK_SET TASK_BUFFER_SIZE:u32:65536
tap_expect_out "EVENT is no request" 0 "-95 " raw EVENT
tap_expect_out "STATS_RESET of one task, raw" 0 "ok" raw STATS_RESET TASK_ID:u32:2

# --- stats reset (counters under traffic: monitor.sh) ------------------------
tap_expect_err "reset a task that does not exist" 1 "Error: task 77 does not exist" ecin $X stats reset id 77
tap_check "reset task 1's counters" ecin $X stats reset id 1
tap_check "reset the namespace's counters" ecin $X stats reset
tap_expect_jq "stats: events_dropped is reported, zero" '.events_dropped == 0 and .stats.conns == 0' ecin $X -j stats
tap_expect_out "stats as text" 0 \
"tasks 3 memory 2564112 of 268435456 events-dropped 0
    connections 0 done 0 failed 0
    bytes in 0 out 0 segments out 0 applied 0 duplicates 0 resent 0 recoveries 0 timeouts 0
    window-clamps 0 peak-buffer 0 overflow 0 prompts 0 sacks 0 ecn-reductions 0 pace-waits 0 hystart-exits 0
    pmtu-updates 0 syns-resent 0 time-wait-resets 0 window-probes 0 tail-probes 0 reo-timeouts 0 off-home 0 spare-bytes 0 sources-lost 0
    drops out-of-window 0 bad-flags 0 truncated 0 bad-options 0 bad-csum 0 client-denied 0 busy 0 no-memory 0 no-route 0 paws 0" \
	ecin $X stats

# --- many large tasks: a dump in several parts -----------------------------
ok=1
for id in $(seq 100 119); do
	srcs=()
	for i in $(seq 1 32); do srcs+=(source "10.9.4.$i:$((7000 + id))" coef "$i"); done
	ecin $X task add id $id vip 10.9.5.1 port $id buffer 4096 "${srcs[@]}" >/dev/null 2>&1 || ok=0
done
[ $ok = 1 ] && tap_ok "add 20 tasks of 32 sources" || tap_fail "add 20 tasks of 32 sources"
tap_expect_jq "-s dump of 23 tasks (several netlink parts) is complete and ordered" \
	'[.[].id] == ([1, 2, 3] + [range(100; 120)]) and (.[3].sources | length == 32)
	 and .[3].sources[31].coef == 32 and .[22].stats.conns == 0' \
	ecin $X -j task show -s
tap_expect_jq "namespace stats count 23 tasks and their memory" \
	'.tasks == 23 and .mem_used == (1179648 + (3 + 1) * 403 * 16) + (131072 + (3 + 1) * 44 * 16)
	 + (1179648 + (6 + 1) * 403 * 16) + 20 * (4096 + 65536 + (32 + 1) * 32 * 16)
	 and .mem_max == 268435456 and .stats.bytes_in == 0' \
	ecin $X -j stats

# --- per-namespace isolation and memory cap --------------------------------
tap_expect_jq "namespace Y sees no tasks" 'length == 0' ecin $Y -j task show
tap_expect_err "namespace Y cannot see task 1 of X" 1 "Error: task 1 does not exist" ecin $Y task show id 1
tap_expect_err "namespace Y cannot delete task 1 of X" 1 "Error: task 1 does not exist" ecin $Y task del id 1
tap_check "namespace Y may reuse id 1 and VIP:port of X" \
	ecin $Y task add id 1 vip 10.9.0.1 port 5000 source 10.9.1.1:7000 coef 1 buffer 1m
pp echo $((3 << 20)) > $param
tap_check "task 7 fits under a 3 MiB cap" \
	ecin $Y task add id 7 vip 10.9.0.1 port 5007 source 10.9.1.1:7000 coef 1 buffer 1m
tap_expect_err "task 8 exceeds the 3 MiB cap" 1 \
	"Error: task 8: buffer of 1192544 bytes exceeds the namespace cap (used 2385088 of 3145728)" \
	ecin $Y task add id 8 vip 10.9.0.1 port 5008 source 10.9.1.1:7000 coef 1 buffer 1m
tap_check "a smaller task 8 still fits" \
	ecin $Y task add id 8 vip 10.9.0.1 port 5008 source 10.9.1.1:7000 coef 1 buffer 512k
tap_expect_jq "Y's stats: 3 tasks, memory and cap" \
	'.tasks == 3 and .mem_used == 2 * (1179648 + 2 * 403 * 16) + (589824 + 2 * 201 * 16)
	 and .mem_max == 3145728' ecin $Y -j stats
tap_check "deleting task 7 returns its memory" ecin $Y task del id 7
tap_check "so task 9 fits again" \
	ecin $Y task add id 9 vip 10.9.0.1 port 5009 source 10.9.1.1:7000 coef 1 buffer 1m
pp echo $((256 << 20)) > $param
tap_expect_jq "X unaffected by Y" '[.[].id] | length == 23' ecin $X -j task show

# --- batch mode: 1000 tasks from one process ---------------------------------
batch=$tmp/batch
for i in $(seq 1 1000); do
	echo "task add id $((5000 + i)) vip 10.8.$((i / 250)).$((i % 250 + 1)) port 6000 source 10.9.1.1:7000 coef $((i % 255 + 1)) buffer 4k"
done > "$batch"
t0=$(date +%s.%N)
tap_check "batch adds 1000 tasks" ip netns exec $Y $ECCTL -batch "$batch"
echo "# 1000 tasks in $(echo "$(date +%s.%N) - $t0" | bc) s" >&2
tap_expect_jq "all 1000 batch tasks are there, coefficients intact" \
	'[.[] | select(.id > 5000)] | length == 1000 and (map(.sources[0].coef) | add) == ([range(1; 1001) | . % 255 + 1] | add)' \
	ecin $Y -j task show
printf 'task del id 5001\ntask del id 5001\ntask del id 5002\n' > "$batch"
tap_check "a failing batch line is named" \
	sh -c "ip netns exec $Y $ECCTL -batch $batch 2>&1 | grep -qx 'Command failed $batch:2'"
tap_expect_jq "the batch stopped at the failing line" \
	'[.[].id] | (index(5001) == null) and (index(5002) != null)' ecin $Y -j task show
seq 5002 6000 | sed 's/^/task del id /' > "$batch"
tap_check "batch deletes the other 999" ip netns exec $Y $ECCTL -batch "$batch"
tap_expect_jq "only the earlier tasks remain" '[.[] | select(.id > 5000)] | length == 0' ecin $Y -j task show

# --- permissions ------------------------------------------------------------
nobody() {
	ip netns exec $X setpriv --reuid=65534 --regid=65534 --clear-groups "$ECCTL" "$@"
}
for cmd in "task show" "task show id 1" "stats" "task del id 1" "task flush" \
	   "task add id 5 vip 10.9.0.5 port 1 source 10.9.1.1:1 coef 1" \
	   "task change id 1 buffer 64k" "stats reset" "stats reset id 1"; do
	echo "[+] ip netns exec $X setpriv --reuid=65534 --regid=65534 --clear-groups ecctl $cmd" >&2
	# shellcheck disable=SC2086
	err=$(nobody $cmd 2>&1 >/dev/null)
	rc=$?
	if [ $rc = 1 ] && [ "$err" = "Error: Operation not permitted" ]; then
		tap_ok "unprivileged \"$cmd\" gets EPERM"
	else
		tap_fail "unprivileged \"$cmd\" gets EPERM" "rc=$rc: $err"
	fi
done

echo "[+] ip netns exec $X setpriv --reuid=65534 --regid=65534 --clear-groups ecctl monitor" >&2
err=$(timeout 5 ip netns exec $X setpriv --reuid=65534 --regid=65534 --clear-groups \
      "$ECCTL" monitor 2>&1 >/dev/null)
rc=$?
if [ $rc = 1 ] && [ "$err" = "Error: cannot follow the events: Operation not permitted" ]; then
	tap_ok "unprivileged \"monitor\" gets EPERM"
else
	tap_fail "unprivileged \"monitor\" gets EPERM" "rc=$rc: $err"
fi

# --- delete, flush ------------------------------------------------------------
tap_check "delete task 1" ecin $X task del id 1
tap_expect_err "task 1 is gone" 1 "Error: task 1 does not exist" ecin $X task show id 1
tap_expect_err "deleting it again fails" 1 "Error: task 1 does not exist" ecin $X task del id 1
tap_expect_jq "the others remain" '[.[].id] | length == 22 and (index(1) | not)' ecin $X -j task show
tap_check "flush namespace X" ecin $X task flush
tap_expect_out "nothing left to show as text" 0 "" ecin $X task show
tap_expect_jq "nor as JSON" '. == []' ecin $X -j task show
tap_expect_jq "X's stats: no tasks, no memory" '.tasks == 0 and .mem_used == 0' ecin $X -j stats
tap_expect_jq "Y still has its tasks" '[.[].id] == [1, 8, 9]' ecin $Y -j task show

# --- the documentation's examples ----------------------------------------------
# Every `ecctl task add` and `task change` in the README's and ecctl(8)'s
# examples, continuation lines joined, must be taken as written (each add
# replaces an earlier task of its id, as an operator trying them would).
doc_examples() {
	awk '/^```sh/ { on = 1; next } /^```/ { on = 0 } on' "$top/README.md"
	awk '/^\.SH EXAMPLES/ { ex = 1; next } /^\.SH/ { ex = 0 }
	     ex && /^\.nf/ { on = 1; next } /^\.fi/ { on = 0 }
	     ex && on && !/^\./' "$top/docs/ecctl.8" |
		sed -e 's/\\-/-/g; s/\\e$/\\/'
}
pp ip -n $X addr add 10.0.0.100/32 dev lo
n=0
while IFS= read -r cmd; do
	set -- ${cmd#ecctl }
	[ "$2" = add ] && ecin $X task del id "$4" 2>/dev/null
	tap_check "documented: ${cmd:0:72}..." ecin $X "$@"
	n=$((n + 1))
done < <(doc_examples | sed -e ':a' -e '/\\$/N; s/\\\n *//; ta' |
	sed 's/ *#.*//' | grep -E '^ecctl task (add|change) ')
tap_check "the README and ecctl(8) have $n task examples, at least 10" test "$n" -ge 10
tap_check "flush the examples" ecin $X task flush

# --- teardown with tasks configured --------------------------------------------
tap_check "add tasks to namespace Z" \
	ecin $Z task add id 1 vip 10.9.0.1 port 5000 source 10.9.1.1:7000 coef 1 buffer 64m
tap_check "add another to Z" \
	ecin $Z task add id 2 vip 10.9.0.1 port 5001 code isal-cauchy k 3 m 2 lost 4 \
	source 10.9.1.1:7000:0 source 10.9.1.2:7000:1 source 10.9.1.3:7000:2
tap_check "delete namespace Z with its tasks" ip netns del $Z
tap_check "re-add to X after a flush" \
	ecin $X task add id 1 vip 10.9.0.1 port 5000 source 10.9.1.1:7000 coef 1 buffer 64m
tap_check "unload the module with tasks in X and Y" modprobe -r ecproxy
tap_check "module is gone" sh -c '! test -d /sys/module/ecproxy'
tap_check "load it again" modprobe ecproxy
tap_expect_jq "tasks did not survive the unload" 'length == 0' ecin $Y -j task show
tap_check "final unload" modprobe -r ecproxy

tap_done
