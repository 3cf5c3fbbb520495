#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Many connections and slow clients, as a router sees them:
#  - hundreds of back-to-back reconstructions from the same sources, which
#    close first and keep TIME-WAIT for 60 s: S walks its ports per source
#    as connect() does, and answers a TIME-WAIT's ACK with a RST and a new
#    SYN when the port range is too small to avoid them and S offers no
#    timestamps (with them the TIME-WAITs take S's SYNs);
#  - a client that stops reading for 10 s, its window update lost: S's
#    persist timer probes the zero window; one that stops for four idle
#    timeouts: the probes come often enough that its answers keep it;
#  - a client that sends keepalives while a source stalls, and sources
#    that send them before their first byte: S answers each, as TCP
#    does, and no TCP gives up;
#  - a client that reads slowly, its ACKs reordered: S takes a window only
#    from an ACK no older than the last, and never sends past A's edge;
#  - a client with window scale 14 and a small buffer: the sources' shift
#    comes from the buffer, not from the client;
#  - a connection aborted with its buffer full of partial sums: the next
#    client, at once, gets exact bytes (its rings store over what was
#    left, they do not add to it).
#
#   A1 -------- S -------- B1, B2, B3
set -u
. "$(dirname "$0")/../lib/ec.sh"

topo_init conns
ec_prog ecp-srv
ec_prog ecp-cli
pp modprobe ecproxy
topo_setup 1 3 || exit 1
# Hundreds of back-to-back reconstructions, more than TIME-WAIT's minute
# holds with random ports.
BACK_TO_BACK=${ECP_BACK_TO_BACK:-200}

# --- back-to-back reconstructions --------------------------------------------
EC_TASK="timeout linger 0" ec_prep 1 isal-cauchy 3 2 0 3000 >&2
want=$(sha256sum < "$tmp/1/frag.0")

# back_to_back N: N reconstructions in a row, each byte-exact, each on an
# idle task; prints how many failed.
back_to_back() {
	local i bad=0 got
	for i in $(seq 1 "$1"); do
		got=$(timeout 20 ip netns exec $A socat -u TCP:$VIP:7001 - | sha256sum)
		[ "$got" = "$want" ] || bad=$((bad + 1))
		wait_for 5 ec_conn_idle 1
	done
	echo $bad
}

start=$(date +%s)
bad=$(back_to_back "$BACK_TO_BACK")
echo "# $BACK_TO_BACK in $(($(date +%s) - start)) s" >&2
tap_check "$BACK_TO_BACK back-to-back reconstructions: all byte-exact" test "$bad" = 0
tap_check "none failed" test "$(ec_stats 1 .stats.conns_failed)" = 0
tap_check "S's ports walked past the sources' TIME-WAITs: none met" \
	test "$(ec_stats 1 .stats.time_wait_resets)" = 0
# 4 ports, 3 taken by each connection: every source meets its port again
# within a few connections, while the TIME-WAIT of the last use still
# lasts (4 connections take well under its 60 s even in a loaded debug
# kernel under TCG, where 8 took 60 s and met none).  With timestamps on
# every side (Linux's default) a TIME-WAIT takes a SYN whose timestamp is
# ahead of the last it saw (RFC 6191), and S's clock on the same four
# ports runs on from one connection to the next (ts.h): none refuses.
pp ip netns exec $S sysctl -qw net.ipv4.ip_local_port_range="40000 40003"
bad=$(back_to_back 24)
tap_check "24 more with 4 ports: all byte-exact" test "$bad" = 0
tap_check "none failed" test "$(ec_stats 1 .stats.conns_failed)" = 0
tap_check "the sources' TIME-WAITs took S's SYNs by their timestamps" \
	test "$(ec_stats 1 .stats.time_wait_resets)" = 0
# S offering no timestamps (its tcp_timestamps 0): about half of the
# TIME-WAITs met refuse the SYN (its sequence number is the client's ISN,
# not above the last one seen) and answer with an ACK.
pp ip netns exec $S sysctl -qw net.ipv4.tcp_timestamps=0
bad=$(back_to_back 24)
tap_check "24 more without timestamps: all byte-exact" test "$bad" = 0
tap_check "none failed" test "$(ec_stats 1 .stats.conns_failed)" = 0
tap_check "TIME-WAITs met were reset and the SYN sent again" \
	test "$(ec_stats 1 .stats.time_wait_resets)" -gt 0
pp ip netns exec $S sysctl -qw net.ipv4.tcp_timestamps=1
pp ip netns exec $S sysctl -qw net.ipv4.ip_local_port_range="32768 60999"
ec_stop_servers

# client_done DESC ID: A, reading task ID in the background as $cpid, ends
# within 60 s with the lost fragment, byte-exact (one test); if it stalls,
# it is killed and the task's statistics tell where.
client_done() {
	if wait_gone $cpid 60; then
		wait $cpid
		ec_verify "$1" "$2"
	else
		kill $cpid 2>/dev/null
		tap_fail "$1" "stalled: $(ecq $S task show id "$2" -s | tr '\n' ' ')"
	fi
}

# client_paused ID: A reads task ID with ecp-cli, a 16 KiB buffer, in the
# background ($cpid), and stops after its first bytes until $tmp/go.ID.
client_paused() {
	local port=$((7000 + $1))
	echo "[+] ip netns exec $A ecp-cli -P go.$1 -b 16384 -o out $VIP $port" >&"$tap_log"
	ip netns exec $A "$PROGS/ecp-cli" -P "$tmp/go.$1" -b 16384 \
		-o "$tmp/$1/out" $VIP $port 2> "$tmp/$1/err" &
	cpid=$!
}

# --- a client that stops reading -------------------------------------------
# A reads the first bytes, then nothing for 10 s: its 16 KiB buffer fills
# and its window closes.  When it reads again, its link drops everything
# for 2 s, window updates included; then 2% loss.  Only S's probes of the
# zero window can start the transfer again.  A offers a quarter of its
# free buffer (tcp_adv_win_scale -2), not half: its window, not its
# memory, must be what closes.  With half offered, under load (CI's three
# lanes, or a second VM beside this one), A's socket ran out of memory
# first, and Linux drops in-window data without an ACK (TCPRcvQDrop 13):
# S had bytes in flight, no zero window to probe, and a client as silent
# as a dead one, whose idle timeout came before the test's "go".
pp ip netns exec $A sysctl -qw net.ipv4.tcp_adv_win_scale=-2
EC_TASK="timeout idle 30000" ec_prep 2 isal-cauchy 3 2 0 $((2 << 20)) >&2
client_paused 2
sleep 10
tap_check "S probes the client's zero window" \
	wait_for 10 sh -c "[ \$(ip netns exec $S '$ECCTL' -j task show id 2 -s | jq '.[0].stats.window_probes') -gt 0 ]"
pp ip netns exec $A tc qdisc replace dev to-s root netem loss 100%
touch "$tmp/go.2"
sleep 2
pp ip netns exec $A tc qdisc replace dev to-s root netem loss 2%
client_done "it reads again, its window update lost: byte-exact" 2
ip netns exec $A nstat -az TcpExtTCPRcvQDrop TcpExtTCPOFODrop | sed 's/^/# A: /'
pp ip netns exec $A tc qdisc del dev to-s root
ec_stop_servers

# A closes its window for 12 s, four times the idle timeout: it answers
# every probe, and only those answers keep the connection.  Backed off
# towards a minute, the probes came 3.2 s apart after 3 s, and the
# connection was reset between two of them; S probes at least three
# times per idle time.
EC_TASK="timeout idle 3000" ec_prep 7 isal-cauchy 3 2 0 $((2 << 20)) >&2
client_paused 7
sleep 12
touch "$tmp/go.7"
client_done "its window closed for four idle times: byte-exact" 7
tap_check "its window closed for four idle times: S probed it 8 times or more" \
	test "$(ec_stats 7 .stats.window_probes)" -ge 8
ec_stop_servers

# --- a slow client whose ACKs are reordered ------------------------------------
# A reads 400 KB/s, 2 KiB at a time, through a 16 KiB buffer: its window
# narrows as S's segments come and widens with each read, and its link
# sends half of its packets 20 ms late, so that its ACKs reach S out of
# order.  An older ACK's window counts from its older ack: S takes a window
# only from an ACK no older than the last it took (SND.WL1, RFC 9293),
# or it would send past the edge A offers (before that rule, 42 of 1645
# segments went past it, by up to two segments).  A capture at A checks
# every data segment against A's ACKs, in the order S got them.
EC_TASK="timeout idle 30000" ec_prep 8 isal-cauchy 3 2 0 $((12 << 20)) >&2
pp ip netns exec $A tc qdisc replace dev to-s root netem delay 20ms \
	reorder 50% limit 100000
topo_capture $A to-s "$tmp/slow.pcap" tcp port 7008
echo "[+] ip netns exec $A ecp-cli -b 16384 -R 400000 -o out $VIP 7008" >&"$tap_log"
timeout 120 ip netns exec $A "$PROGS/ecp-cli" -b 16384 -R 400000 \
	-o "$tmp/8/out" $VIP 7008 2> "$tmp/8/err"
topo_capture_stop
ec_verify "a slow client whose ACKs are reordered: byte-exact" 8
topo_within_window "a slow client whose ACKs are reordered: S kept within the edge it offered" \
	"$tmp/slow.pcap" "$(topo_addr a1)"
pp ip netns exec $A tc qdisc del dev to-s root
pp ip netns exec $A sysctl -qw net.ipv4.tcp_adv_win_scale=1
ec_stop_servers

# --- a client's keepalives ----------------------------------------------------
# B1's data stops for 8 s, so S has nothing for A.  A, idle, sends a
# keepalive every second (the sequence number before its next byte, no
# payload) and gives up after two unanswered: S must answer each with an
# ACK, as TCP answers a segment that is not acceptable, or A's TCP aborts.
# B1 at 256 kbit/s takes 20 s over its 683 KiB: at 4 Mbit/s, a loaded
# debug kernel had sent them all before the test got to cutting B1, and A
# never idled.
EC_TASK="timeout idle 30000" ec_prep 5 isal-cauchy 3 2 0 $((2 << 20)) >&2
pp topo_cap_b 1 256kbit
ka=$(topo_nstat $A TcpExtTCPKeepAlive)
ka_opts=keepalive,keepidle=1,keepintvl=1,keepcnt=2
echo "[+] ip netns exec $A socat -u TCP:$VIP:7005,$ka_opts - > out" >&"$tap_log"
ip netns exec $A socat -u TCP:$VIP:7005,$ka_opts - > "$tmp/5/out" 2> "$tmp/5/err" &
cpid=$!
wait_for 20 sh -c "[ \$(stat -c %s $tmp/5/out) -gt 65536 ]"
pp ip netns exec "$B"1 tc qdisc replace dev to-s root netem loss 100%
sleep 8
pp topo_uncap_b 1
client_done "keepalives while a source stalls: answered, byte-exact" 5
tap_check "A sent keepalives while its source stalled" \
	test "$(topo_nstat $A TcpExtTCPKeepAlive)" -ge $((ka + 2))
# A keepalive is offset -1 of A's stream: compared unsigned with the window's
# right edge, it read as 2^64 - 1 and was dropped here.
tap_check "S dropped none of them as out of window" \
	test "$(ec_stats 5 .stats.drops.out_of_window)" = 0
ec_stop_servers

# The sources' keepalives before their first byte: S connects to them when
# A connects, and A sends its request only when the gate opens, 5 s after
# the connection is established (counted from A's start, a loaded debug
# kernel left the sources less than a second).  The sources (ecp-srv -K)
# idle meanwhile and send keepalives at offset -1 of their streams, which
# S must answer.
ka=0
for n in 1 2 3; do
	ka=$((ka + $(topo_nstat "$B$n" TcpExtTCPKeepAlive)))
done
conn_established() {
	[ "$(ec_stats "$1" .stats.conn_state)" = established ]
}
rm -f "$tmp/gate6"
EC_SERVER=prog EC_SRV_ARGS=-K EC_REQ=100 EC_TASK="timeout idle 30000" \
	ec_prep 6 isal-cauchy 3 2 0 $((256 << 10)) >&2
EC_CLIENT=prog EC_GATE=$tmp/gate6 ec_fetch 6 &
cpid=$!
wait_for 60 conn_established 6
sleep 5
touch "$tmp/gate6"
wait $cpid
ec_verify "sources' keepalives while A holds its request: answered, byte-exact" 6
kb=0
for n in 1 2 3; do
	kb=$((kb + $(topo_nstat "$B$n" TcpExtTCPKeepAlive)))
done
tap_check "the sources sent keepalives before their first byte" \
	test "$kb" -ge $((ka + 3))
tap_check "S dropped none of them as out of window" \
	test "$(ec_stats 6 .stats.drops.out_of_window)" = 0
ec_stop_servers

# --- window scale --------------------------------------------------------------
# A offers shift 14 (1 GiB of receive buffer); the task's buffer is 8 KiB.
# With the client's shift, the window to the sources would be 8 KiB >> 14:
# zero, for ever.
pp ip netns exec $A sysctl -qw net.ipv4.tcp_rmem="4096 131072 1073741824"
EC_TASK="buffer 8k timeout idle 20000" ec_recon "client window scale 14, 8 KiB buffer: byte-exact" 3 \
	isal-cauchy 3 2 0 $((256 << 10))
pp ip netns exec $A sysctl -qw net.ipv4.tcp_rmem="4096 131072 6291456"

# --- an abort with a full buffer ----------------------------------------------
# B1 is slow, so B2 and B3 fill the 8 MiB buffer ahead of it (A's window
# is larger: EBSN lets them); then A vanishes, leaving megabytes of
# partial sums in the rings.  A, coming back at once, gets exact bytes.
EC_TASK="buffer 8m timeout linger 0" ec_prep 4 isal-cauchy 3 2 0 $((24 << 20)) >&2
pp topo_cap_b 1 1mbit
pp ip netns exec $A sysctl -qw net.ipv4.tcp_rmem="4096 16777216 33554432"
ip netns exec $A socat -u TCP:$VIP:7004 /dev/null 2>/dev/null &
apid=$!
tap_check "the buffer fills ahead of the slow source" \
	wait_for 60 sh -c "[ \$(ip netns exec $S '$ECCTL' -j task show id 4 -s | jq '.[0].stats.peak_buffer') -gt $((4 << 20)) ]"
kill -KILL $apid
wait $apid 2>/dev/null
pp topo_uncap_b 1
pp ip netns exec $A sysctl -qw net.ipv4.tcp_rmem="4096 131072 6291456"
EC_TIMEOUT=120 ec_fetch 4
ec_verify "the next client, at once: byte-exact" 4
tap_check "the first connection failed, the second did not" \
	test "$(ec_stats 4 .stats.conns_failed)" = 1
ec_stop_servers

tap_done
