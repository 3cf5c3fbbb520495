# SPDX-License-Identifier: GPL-2.0
#
# The namespace topology of the netns selftests and the benchmarks (bash;
# sources tap.sh).  S routes and runs ecproxy, the As are clients (the
# node rebuilding a fragment), the Bs storage nodes (the sources), the Ts
# target nodes (where S sends rebuilt fragments); every node has its own
# link to S.
#
#                    +---------------------------+
#   A1 10.0.1.2 -----| to-a1 10.0.1.1            |----- B1 10.0.11.2
#   A2 10.0.2.2 -----| to-a2 10.0.2.1     S      |----- B2 10.0.12.2
#   ...              | VIP 10.99.0.1/32 on lo    |      ...
#   An 10.0.n.2 -----| forwarding, ecproxy tasks |----- Bn 10.0.(10+n).2
#      (to-s)        | to-b1 10.0.11.1 ...       |         (to-s)
#                    +---------------------------+
#                          |                |
#                 T1 10.0.101.2   ...   Tn 10.0.(100+n).2
#
# topo_init TAG names the namespaces ecp-TAG-s, ecp-TAG-a1.. and
# ecp-TAG-b1.., ecp-TAG-t1..: $S, $A (A1), $B$i and $T$i; it makes the
# scratch directory $tmp and the EXIT trap that removes it all.
# topo_setup NA NB [NT] builds S with NA clients, NB storage nodes and NT
# targets.  Nodes have short names (a1, b3): node
# X's link to S is 10.0.N.0/24 (topo_net X), S at .1, X at .2 (topo_addr
# X), and each end of a link is named after its peer: to-X in S, to-s in X.
# At most 9 clients, 89 storage nodes and 39 targets.
#
# Functions: topo_init TAG, topo_setup NA NB, topo_node X, topo_cleanup,
# topo_s_run CMD, topo_link_mac SIDE J, topo_link_dev SIDE J, topo_rfs on|off,
# topo_net X, topo_addr X, topo_kill_ns NS [SIG], topo_each_link FN ARGS...,
# topo_mtu X MTU, topo_tbf RATE, topo_cap I RATE, topo_delay I MS, topo_uncap I,
# topo_cap_b I RATE, topo_uncap_b I, topo_listening NS PORT,
# topo_nstat NS COUNTER, topo_qdisc_drops DEV, topo_mark NS DEV,
# topo_capture NS DEV FILE FILTER..., topo_capture_stop,
# topo_ece_echoes DESC FILE, topo_within_window DESC FILE ADDR, topo_via X,
# topo_via_mtu X MTU, topo_router NS, topo_veth ...; and for any
# namespace: ecin NS ECCTL-ARGS... (logged), ecq NS ECCTL-ARGS... (not
# logged), ecfetch_in NS ECFETCH-ARGS... (logged).
#
# More roles (a writer) go into topo_net (a subnet each) and
# topo_setup (a count each), every one linked to S by topo_node; nodes
# behind routers are TOPO_VIA's (below).
#
# S in a VM of its own (selftests/vm/pair sets ECP_S_VM): S is then not a
# namespace here but the other VM's root namespace, already addressed by
# its agent (selftests/vm/s-agent.sh), and each node's link is a NIC of
# this VM's that topo_node moves into the node's namespace.  ecin and ecq
# reach S's ecctl there, and topo_s_run runs any other command in S, in
# either topology; what a test does with "ip netns exec $S" directly
# works only with S as a namespace.

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ECCTL=${ECCTL:-$top/tools/ecctl/ecctl}
ECFETCH=${ECFETCH:-$top/tools/ecfetch/ecfetch}
ECPUT=${ECPUT:-$top/tools/ecput/ecput}
PROGS=${PROGS:-$top/selftests/netns/progs}
VIP=10.99.0.1

# Nodes named in TOPO_VIA (set before topo_setup, e.g. "a1 b1") are not
# on a link of S's but two routers away, so that the path has a middle
# link S is not on, whose MTU topo_via_mtu sets (path MTU discovery,
# fragmentation) and where NAT may sit:
#
#   S to-X ---- to-s X-r1 to-r2 ---- to-r1 X-r2 to-X ---- to-s X
#     10.0.N.1    10.0.N.2  10.2.N.1   10.2.N.2 10.1.N.1   10.1.N.2
#
# Namespaces ecp-TAG-X-r1 and ecp-TAG-X-r2; X's address is then
# 10.1.N.2 (topo_addr).
TOPO_VIA=${TOPO_VIA:-}

# topo_init TAG: names, the scratch directory and the cleanup trap.
topo_init() {
	P=ecp-$1
	S=$P-s
	A=$P-a1
	B=$P-b
	T=$P-t
	topo_nodes=()
	topo_routers=()
	tmp=$(mktemp -d)
	trap topo_cleanup EXIT
}

# topo_net X: the first three octets of node X's link to S.
topo_net() {
	local n=${1:1}
	case $1 in
	a[1-9]) echo "10.0.$n" ;;
	b[1-9] | b[1-8][0-9]) echo "10.0.$((10 + n))" ;;
	t[1-9] | t[1-3][0-9]) echo "10.0.$((100 + n))" ;;
	*)
		echo "topo: no subnet for node $1" >&2
		return 1
		;;
	esac
}

# selftests/vm/pair's two VMs: S's agent (selftests/vm/s-agent.sh)
# listens on S's end of link ctl, TOPO_S_CTL port TOPO_S_PORT.
TOPO_S_CTL=10.255.255.1
TOPO_S_PORT=7777

# topo_link_mac SIDE J: the MAC of link J of selftests/vm/pair (ECP_LINKS'
# Jth name, from 0) on SIDE: 00 in S, 01 in the hosts' VM.
topo_link_mac() {
	printf '52:54:00:ec:%s:%02x' "$1" "$2"
}

# topo_link_dev SIDE J: the interface with that MAC.
topo_link_dev() {
	local mac f
	mac=$(topo_link_mac "$1" "$2")
	for f in /sys/class/net/*/address; do
		[ "$(cat "$f")" = "$mac" ] && { basename "$(dirname "$f")"; return 0; }
	done
	return 1
}

# topo_s_run CMD: the shell command CMD (one string) in S, its stdout,
# stderr and exit status; in S's VM through its agent when there is one.
topo_s_run() {
	local f hl rc ol el
	if [ -z "${ECP_S_VM:-}" ]; then
		ip netns exec "$S" bash -c "$1"
		return
	fi
	f=$(mktemp)
	printf '%s' "$1" | socat -t 86400 - "TCP:$ECP_S_VM:$TOPO_S_PORT" > "$f" || {
		rm -f "$f"
		echo "topo: S's agent did not answer" >&2
		return 125
	}
	read -r _ rc ol el < "$f"
	hl=$(head -1 "$f" | wc -c)
	tail -c +$((hl + 1)) "$f" | head -c "$ol"
	tail -c +$((hl + 1 + ol)) "$f" | head -c "$el" >&2
	rm -f "$f"
	return "${rc:-125}"
}

# topo_qdisc_drops DEV: how many packets the root qdisc of S's DEV
# dropped (netem's losses, a tbf's overflows), in either topology.
topo_qdisc_drops() {
	topo_s_run "tc -s qdisc show dev $1" |
		sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | head -1
}

# topo_via X: is node X behind routers (TOPO_VIA)?
topo_via() {
	case " $TOPO_VIA " in *" $1 "*) return 0 ;; esac
	return 1
}

# topo_addr X: node X's address.
topo_addr() {
	local net
	net=$(topo_net "$1") || return 1
	if topo_via "$1"; then
		echo "10.1.${net##*.}.2"
	else
		echo "$net.2"
	fi
}

# topo_veth NS1 DEV1 ADDR1 NS2 DEV2 ADDR2: a link, addresses /24.
topo_veth() {
	ip -n "$1" link add "$2" type veth peer name "$5" netns "$4" || return 1
	ip -n "$1" addr add "$3/24" dev "$2"
	ip -n "$1" link set "$2" up
	ip -n "$4" addr add "$6/24" dev "$5"
	ip -n "$4" link set "$5" up
}

# topo_router NS: a namespace that forwards.
topo_router() {
	ip netns add "$1" || return 1
	topo_routers+=("$1")
	ip -n "$1" link set lo up
	ip netns exec "$1" sysctl -qw net.ipv4.ip_forward=1
}

# topo_via_node X NS NET: the two routers in front of node X (namespace
# NS, its link to S on NET.0/24), see TOPO_VIA.
topo_via_node() {
	local x=$1 ns=$2 net=$3 n=${3##*.} r1=$P-$1-r1 r2=$P-$1-r2
	topo_router "$r1" && topo_router "$r2" || return 1
	topo_veth "$S" "to-$x" "$net.1" "$r1" to-s "$net.2" || return 1
	topo_veth "$r1" to-r2 "10.2.$n.1" "$r2" to-r1 "10.2.$n.2" || return 1
	topo_veth "$r2" "to-$x" "10.1.$n.1" "$ns" to-s "10.1.$n.2" || return 1
	ip -n "$S" route add "10.1.$n.0/24" via "$net.2"
	ip -n "$r1" route add default via "$net.1"
	ip -n "$r1" route add "10.1.$n.0/24" via "10.2.$n.2"
	ip -n "$r2" route add default via "10.2.$n.1"
	ip -n "$ns" route add default via "10.1.$n.1"
}

# topo_via_mtu X MTU: the MTU of the middle link in front of node X.
topo_via_mtu() {
	ip -n "$P-$1-r1" link set to-r2 mtu "$2" &&
		ip -n "$P-$1-r2" link set to-r1 mtu "$2"
}

# topo_node X: namespace ecp-TAG-X, linked to S, its default route via S.
topo_node() {
	local ns=$P-$1 net
	net=$(topo_net "$1") || return 1
	ip netns add "$ns" || return 1
	topo_nodes+=("$1")
	ip -n "$ns" link set lo up
	if [ -n "${ECP_S_VM:-}" ]; then
		topo_node_nic "$1" "$ns" "$net"
		return
	fi
	if topo_via "$1"; then
		topo_via_node "$1" "$ns" "$net"
		return
	fi
	ip -n "$S" link add "to-$1" type veth peer name to-s netns "$ns" || return 1
	ip -n "$S" addr add "$net.1/24" dev "to-$1"
	ip -n "$S" link set "to-$1" up
	ip -n "$ns" addr add "$net.2/24" dev to-s
	ip -n "$ns" link set to-s up
	ip -n "$ns" route add default via "$net.1"
}

# topo_node_nic X NS NET: node X's link to S in S's VM: this VM's NIC of
# link X moved into NS (selftests/vm/pair).
topo_node_nic() {
	local j names dev
	read -ra names <<<"$ECP_LINKS"
	for j in "${!names[@]}"; do
		[ "${names[$j]}" = "$1" ] && break
	done
	if [ "${names[$j]}" != "$1" ] || ! dev=$(topo_link_dev 01 "$j"); then
		echo "topo: no link to S's VM for node $1 (ECP_LINKS: $ECP_LINKS)" >&2
		return 1
	fi
	ip link set "$dev" netns "$2" name to-s || return 1
	ip -n "$2" addr add "$3.2/24" dev to-s
	ip -n "$2" link set to-s up
	ip -n "$2" route add default via "$3.1"
}

# topo_setup NA NB [NT]: S, clients A1..A_NA, storage nodes B1..B_NB and
# targets T1..T_NT.
topo_setup() {
	local i
	if [ -z "${ECP_S_VM:-}" ]; then
		pp ip netns add "$S" || return 1
		ip -n "$S" link set lo up
		pp ip -n "$S" addr add $VIP/32 dev lo
		pp ip netns exec "$S" sysctl -qw net.ipv4.ip_forward=1
	fi
	for i in $(seq 1 "$1"); do
		pp topo_node "a$i" || return 1
	done
	for i in $(seq 1 "$2"); do
		pp topo_node "b$i" || return 1
	done
	for i in $(seq 1 "${3:-0}"); do
		pp topo_node "t$i" || return 1
	done
}

# topo_kill_ns NS [SIGNAL]: end every process started in NS (servers and
# their children, clients), with SIGTERM or SIGNAL.
topo_kill_ns() {
	local p
	p=$(ip netns pids "$1" 2>/dev/null)
	[ -z "$p" ] || kill -"${2:-TERM}" $p 2>/dev/null
	return 0
}

topo_cleanup() {
	local x
	topo_rfs off >/dev/null 2>&1
	for x in "${topo_nodes[@]}"; do
		topo_kill_ns "$P-$x"
		ip netns del "$P-$x" 2>/dev/null
	done
	for x in "${topo_routers[@]}"; do
		ip netns del "$x" 2>/dev/null
	done
	if [ -n "${ECP_S_VM:-}" ]; then
		# S outlives the topology: what it holds goes, its links stay.
		topo_s_run "$(printf '%q ' "$ECCTL") task flush" >/dev/null 2>&1
		# shellcheck disable=SC2016 # expanded in S
		topo_s_run 'for d in /sys/class/net/to-*; do tc qdisc del dev "${d##*/}" root; done' >/dev/null 2>&1
	else
		topo_kill_ns "$S"
		ip netns del "$S" 2>/dev/null
	fi
	topo_nodes=()
	topo_routers=()
	rm -rf "$tmp"
	return 0
}

# topo_rfs on|off: Receive Flow Steering on every receive queue of S's
# links, sized as the kernel's scaling.rst suggests (32768 flows; 4096 per
# queue), or off.  The flow table is global, the initial namespace's (this
# machine's, or S's VM's own): off, and topo_cleanup, give it back the size
# it had before.
topo_rfs_was=
topo_rfs() {
	local e=32768 n=4096 root=(bash -c)
	[ -z "${ECP_S_VM:-}" ] || root=(topo_s_run)
	if [ "$1" = off ]; then
		[ -n "$topo_rfs_was" ] || return 0
		e=$topo_rfs_was
		n=0
	elif [ -z "$topo_rfs_was" ]; then
		topo_rfs_was=$("${root[@]}" "sysctl -n net.core.rps_sock_flow_entries") || return 1
	fi
	"${root[@]}" "sysctl -q -w net.core.rps_sock_flow_entries=$e" &&
		topo_s_run "for q in /sys/class/net/*/queues/rx-*; do echo $n > \$q/rps_flow_cnt || exit 1; done" ||
		return 1
	[ "$1" != off ] || topo_rfs_was=
}

# topo_steer_by_load Y|N: the module parameter on S (kmod/steer.c): with
# RFS on, homes chosen by load (Y) or where accepted (N).
topo_steer_by_load() {
	topo_s_run "echo $1 > /sys/module/ecproxy/parameters/steer_by_load"
}

# topo_each_link FN ARGS...: FN NS DEV ARGS... for both ends of every link.
topo_each_link() {
	local x fn=$1
	shift
	for x in "${topo_nodes[@]}"; do
		$fn "$S" "to-$x" "$@" && $fn "$P-$x" to-s "$@" || return 1
	done
}

# topo_mtu X MTU: both ends of S's link to node X.
topo_mtu() {
	ip -n "$S" link set "to-$1" mtu "$2" && ip -n "$P-$1" link set to-s mtu "$2"
}

# topo_tbf RATE: the tc words of a shaper at RATE (e.g. 200mbit), for
# topo_cap and the benchmarks' caps.  The bucket holds 10 ms at the rate
# (at least 16 KiB: one TSO segment and a timer tick at low rates), so
# that small transfers are not one free burst; the queue holds 100 ms, so
# that k converging streams are not starved by drops alone.
topo_tbf() {
	local bits burst
	bits=$(numfmt --from=si "$(echo "${1%bit}" | tr 'a-z' 'A-Z')") || return 1
	burst=$((bits / 8 / 100))
	[ $burst -ge 16384 ] || burst=16384
	echo "tbf rate $1 burst $burst latency 100ms"
}

# topo_cap I RATE: cap what reaches A_I (topo_tbf).
topo_cap() {
	local tbf
	tbf=$(topo_tbf "$2") || return 1
	# shellcheck disable=SC2086 # tc's words
	ip netns exec "$S" tc qdisc replace dev "to-a$1" root $tbf
}

# topo_delay I MS: delay A_I's outgoing packets (its ACKs), which is the
# RTT between A_I and every sender.
topo_delay() {
	ip netns exec "$P-a$1" tc qdisc replace dev to-s root netem delay "$2"ms limit 100000
}

topo_uncap() {
	ip netns exec "$S" tc qdisc del dev "to-a$1" root 2>/dev/null
	ip netns exec "$P-a$1" tc qdisc del dev to-s root 2>/dev/null
	return 0
}

# topo_cap_b I RATE: cap what storage node B_I sends (a straggler).
topo_cap_b() {
	ip netns exec "$B$1" tc qdisc replace dev to-s root \
		tbf rate "$2" burst 16384 latency 1s
}

topo_uncap_b() {
	ip netns exec "$B$1" tc qdisc del dev to-s root 2>/dev/null
	return 0
}

# topo_segs NS DEV N: NS's TCP puts at most N segments in one packet on
# DEV (gso_max_segs, taken at connect).  A qdisc on a veth sees a
# sender's GSO packet whole, so netem's "loss 5%" would drop 5% of
# packets of up to 44 segments, often a window's whole tail; with N 1
# it drops segments, as a lossy wire drops frames that a NIC cut from
# them.  65535 is the default.
topo_segs() {
	ip -n "$1" link set "$2" gso_max_segs "$3"
}

# Drops that netem cannot make: netem runs before a GSO packet is cut into
# segments, and TCP builds them whatever the link's offloads
# (sk_setup_caps()).  Each makes NS's table "loss", its rules counted;
# topo_undrop NS logs and deletes it.  Only nf_tables' core (sets) and
# numgen: the debug kernel has no NFT_NUMGEN, so topo_drop_every is for
# the stock kernel's files.
#
# topo_drop NS MATCH...: every packet NS receives that MATCH (nft words)
# selects, ahead of every other hook (the module's at
# NF_IP_PRI_CONNTRACK_DEFRAG + 1 included).
topo_drop() {
	ip netns exec "$1" nft -f - <<EOF
table ip loss {
	chain in {
		type filter hook prerouting priority -450;
		${*:2} counter drop
	}
}
EOF
}

# topo_drop_every NS N MATCH...: every Nth of those packets.  With TSO/GSO
# off on the sender's link, a packet is one segment (a veth passes a GSO
# packet whole).
topo_drop_every() {
	topo_drop "$1" "${@:3}" numgen inc mod "$2" $(($2 / 2))
}

# topo_drop_first_synack NS PORT: the first SYN-ACK NS sends from PORT to
# each address (a set remembers whom it dropped one to).
topo_drop_first_synack() {
	ip netns exec "$1" nft -f - <<EOF
table ip loss {
	set seen {
		type ipv4_addr
		flags dynamic
	}
	chain out {
		type filter hook output priority raw;
		tcp sport $2 tcp flags & (syn | ack) == syn | ack \
			ip daddr @seen accept
		tcp sport $2 tcp flags & (syn | ack) == syn | ack \
			add @seen { ip daddr } counter drop
	}
}
EOF
}

# topo_drop_first_acks NS PORT N: the first N pure ACKs NS sends to PORT
# at each address: set i remembers whom the i-th was dropped to.
topo_drop_first_acks() {
	local i ack="tcp dport $2 tcp flags & (syn | ack | fin | rst) == ack"
	{
		echo "table ip loss {"
		for ((i = 1; i <= $3; i++)); do
			echo "set seen$i { type ipv4_addr; flags dynamic; }"
		done
		echo "chain out {"
		echo "type filter hook output priority raw;"
		echo "$ack ip daddr @seen$3 accept"
		for ((i = $3; i > 1; i--)); do
			echo "$ack ip daddr @seen$((i - 1)) add @seen$i { ip daddr } counter drop"
		done
		echo "$ack add @seen1 { ip daddr } counter drop"
		echo "}"
		echo "}"
	} | ip netns exec "$1" nft -f -
}

# topo_dropped NS: how many packets NS's table "loss" dropped.
topo_dropped() {
	ip netns exec "$1" nft list table ip loss |
		awk '$0 ~ /counter packets/ { for (i = 1; i < NF; i++)
			if ($i == "packets") n += $(i + 1) }
		END { print n + 0 }'
}

topo_undrop() {
	ip netns exec "$1" nft list table ip loss >&2
	ip netns exec "$1" nft delete table ip loss
}

# topo_nstat NS COUNTER: NS's TCP/IP counter COUNTER since NS began
# (nstat's name: TcpExtTCPKeepAlive, the keepalive probes NS sent;
# TcpExtTCPDSACKRecv, the D-SACKs its senders were told), the history
# untouched.
topo_nstat() {
	ip netns exec "$1" nstat -asz "$2" | awk -v c="$2" '$1 == c { print $2 }'
}

# topo_mark NS DEV: an FQ-CoDel queue behind 20 Mbit/s on DEV in NS,
# which marks ECN-capable packets (RFC 3168) instead of dropping them
# (fq_codel: systemd's default qdisc, and the debug kernel has no plain
# codel).  Fails if either qdisc cannot be set.
topo_mark() {
	ip netns exec "$1" tc qdisc replace dev "$2" root handle 1: \
		tbf rate 20mbit burst 16384 limit 1000000 &&
		ip netns exec "$1" tc qdisc replace dev "$2" parent 1:1 \
			fq_codel ecn target 1ms interval 10ms limit 10000
}

# topo_capture NS DEV FILE FILTER...: tcpdump writes what DEV in NS
# carries (a pcap filter) to FILE, from a second on (it has started
# then), until topo_capture_stop.
topo_capture() {
	local ns=$1 dev=$2 file=$3
	shift 3
	ip netns exec "$ns" tcpdump -U -n -i "$dev" -w "$file" "$@" 2>/dev/null &
	topo_capture_pid=$!
	sleep 1
}

# topo_capture_stop: a second on (the last packets are in), topo_capture's
# tcpdump ends.
topo_capture_stop() {
	sleep 1
	kill "$topo_capture_pid" 2>/dev/null
	wait "$topo_capture_pid" 2>/dev/null
}

# topo_ece_echoes DESC FILE: one test, that the ECN receiver whose
# segments capture FILE holds echoed a congestion mark and that an echo
# ended (RFC 3168 §6.1.3: until the sender's CWR): of its segments, SYNs
# aside, some carry ECE, and some without it come after the first that
# did.  An echo that never ended would cut the sender's window every
# round trip.
topo_ece_echoes() {
	local n
	n=$(tcpdump -n -r "$2" 2>/dev/null | awk '
		/Flags \[/ {
			f = $0; sub(/.*Flags \[/, "", f); sub(/\].*/, "", f)
			if (f ~ /S/) next
			if (f ~ /E/) { e++; seen = 1 } else if (seen) after++
		}
		END { print e + 0, after + 0 }')
	set -- "$1" ${n:-0 0}
	tap_check "$1 (ECE on $2, then none on $3)" test "$2" -gt 0 -a "$3" -gt 0
}

# topo_within_window DESC FILE ADDR: one test, that no data segment
# towards ADDR in capture FILE (taken at ADDR's end of its link, so that
# ADDR's ACKs are in the order the sender got them) ends past the right
# edge ADDR had offered by then: the highest ack + window of its ACKs so
# far, the window scaled by the shift of its SYN.  A Linux receiver never
# moves its edge back, so that highest edge is what it offers.  Relative
# sequence numbers: one connection per capture.
topo_within_window() {
	local n
	n=$(tcpdump -n -r "$2" 2>/dev/null | awk -v a="$3." '
		{ from = index($3, a) == 1 }
		from && /Flags \[S/ {
			ws = 0
			if (match($0, /wscale [0-9]+/))
				ws = substr($0, RSTART + 7, RLENGTH - 7) + 0
			next
		}
		/Flags \[S/ { next }
		from && match($0, /ack [0-9]+/) {
			ack = substr($0, RSTART + 4, RLENGTH - 4) + 0
			match($0, /win [0-9]+/)
			e = ack + substr($0, RSTART + 4, RLENGTH - 4) * 2 ^ ws
			if (e > edge) edge = e
			next
		}
		!from && match($0, /seq [0-9]+:[0-9]+/) {
			split(substr($0, RSTART + 4, RLENGTH - 4), x, ":")
			segs++
			if (x[2] > edge) { past++; if (x[2] - edge > over) over = x[2] - edge }
		}
		END { print segs + 0, past + 0, over + 0 }')
	set -- "$1" ${n:-0 0 0}
	tap_check "$1 ($3 of $2 data segments past it, by up to $4 bytes)" \
		test "$2" -gt 0 -a "$3" = 0
}

# topo_listening NS PORT: something listens on TCP PORT in NS.
topo_listening() {
	ip netns exec "$1" ss -ltnH "sport = :$2" | grep -q .
}

# ecin NS ECCTL-ARGS...: ecctl in namespace NS, logged; ecq does not log
# (for polling).  ecctl -n enters NS itself: one exec fewer than "ip netns
# exec" for every poll, which adds up under TCG.
ecq() {
	local ns=$1
	shift
	if [ -n "${ECP_S_VM:-}" ] && [ "$ns" = "$S" ]; then
		topo_s_run "$(printf '%q ' "$ECCTL" "$@")"
		return
	fi
	"$ECCTL" -n "$ns" "$@"
}

ecin() {
	echo "[+] ip netns exec $1 ecctl ${*:2}" >&"$tap_log"
	ecq "$@"
}

# ecfetch_in NS ECFETCH-ARGS...: ecfetch in namespace NS, logged.
ecfetch_in() {
	local ns=$1
	shift
	echo "[+] ip netns exec $ns ecfetch $*" >&"$tap_log"
	ip netns exec "$ns" "$ECFETCH" "$@"
}
