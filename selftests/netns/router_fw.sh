#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ecproxy on a router with the firewall a real one has: conntrack, a
# stateful ruleset ("ct state invalid drop" in input, forward and output),
# masquerade towards the storage nodes, and a client behind NAT, in
# nftables and in iptables-nft style, while the router's other traffic is
# tracked and NATed as usual.  Then: how an operator filters what reaches
# a VIP (before the hook, not in raw), and the hook being there only while
# the namespace has tasks.
#
#   A1 ---- a1-r1 (masquerade) ---- a1-r2 ---- S (ruleset, NAT) ---- B1..B4
#
# B1..B3 serve fragments; B4 is a plain server whose traffic S forwards.
set -u
. "$(dirname "$0")/../lib/ec.sh"

TOPO_VIA="a1"
topo_init fw
ec_prog ecp-srv
pp modprobe ecproxy
topo_setup 1 4 || exit 1
# A's home router NATs it: S sees the client as a1-r1's address.
pp ip netns exec $P-a1-r1 nft -f - <<'EOF'
table ip nat {
	chain post {
		type nat hook postrouting priority srcnat;
		oifname "to-s" masquerade
	}
}
EOF

# hooked: S's namespace has ecproxy's netfilter hook.  nft list hooks
# shows it where the kernel has nfnetlink_hook (the debug kernel; not
# Debian's): it must list the ruleset's own chains ("chain inet fw
# input") first.
hooked() {
	ip netns exec $S nft list hooks 2>/dev/null | grep -q ecp_hook_in
}

head -c 1048576 /dev/urandom > "$tmp/plain"

# forwarded DESC: a file B4 serves through S, forwarded and tracked,
# arrives whole, and masquerade changed its source address on the way to
# B4 (which keeps the address it saw).
forwarded() {
	rm -f "$tmp/peer" "$tmp/plain.out"
	ip netns exec ${B}4 socat -U TCP-LISTEN:9000,reuseaddr \
		SYSTEM:"echo \$SOCAT_PEERADDR > $tmp/peer; cat $tmp/plain" 2>/dev/null &
	wait_for 10 topo_listening ${B}4 9000
	timeout 60 ip netns exec $A socat -u TCP:$(topo_addr b4):9000 - > "$tmp/plain.out"
	if ! cmp -s "$tmp/plain" "$tmp/plain.out"; then
		tap_fail "$1: byte-exact" "got $(stat -c %s "$tmp/plain.out") bytes"
	elif [ "$(cat "$tmp/peer")" != "$(topo_net b4).1" ]; then
		tap_fail "$1: byte-exact" "B4 saw $(cat "$tmp/peer"), not S's masqueraded address"
	else
		tap_ok "$1: byte-exact, masqueraded"
	fi
}

# untracked DESC: conntrack in S holds the forwarded flow's entry and
# nothing of ecproxy's: no entry with the VIP at either end.
untracked() {
	local all
	all=$(ip netns exec $S conntrack -L 2>/dev/null)
	echo "$all" | sed 's/^/# /' >&2
	if ! echo "$all" | grep -q "dport=9000"; then
		tap_fail "$1" "the forwarded flow is not tracked"
	elif echo "$all" | grep -q "$VIP"; then
		tap_fail "$1" "an entry with the VIP: $(echo "$all" | grep "$VIP")"
	else
		tap_ok "$1"
	fi
}

# fw_case NAME: the whole check under the ruleset in place.
fw_case() {
	EC_TASK="timeout linger 0" ec_recon "$1: reconstruction byte-exact" 1 \
		isal-cauchy 3 2 0 $((512 << 10))
	forwarded "$1: a forwarded copy"
	untracked "$1: the forwarded flow is tracked, ecproxy's segments are not"
	# The client's router NATed its connection to the VIP.
	tap_check "$1: the client was behind NAT" sh -c \
		"ip netns exec $P-a1-r1 conntrack -L 2>/dev/null | grep -q 'dst=$VIP .*dport=7001 .*dst=$(topo_net a1).2 '"
	ecq $S task del id 1 >/dev/null 2>&1
}

# --- nftables ------------------------------------------------------------
tap_check "nftables: S's stateful ruleset and masquerade load" \
	ip netns exec $S nft -f "$top/selftests/lib/router.nft"
hooks_listed=0
ip netns exec $S nft list hooks 2>/dev/null | grep -q 'chain inet fw input' && hooks_listed=1
if [ $hooks_listed = 1 ]; then
	tap_expect_fail "no task: no hook in S's namespace" hooked
else
	tap_skip "no task: no hook in S's namespace" "no nfnetlink_hook in this kernel"
fi
fw_case "nftables"
if [ $hooks_listed = 1 ]; then
	pp ecin $S task add id 9 vip $VIP port 7009 source "$(topo_addr b1)":1 coef 1
	tap_check "a task: the hook is there" hooked
	pp ecin $S task flush
	tap_expect_fail "the last task gone: so is the hook" hooked
else
	tap_skip "a task: the hook is there" "no nfnetlink_hook in this kernel"
	tap_skip "the last task gone: so is the hook" "no nfnetlink_hook in this kernel"
fi
out=$(ip netns exec $S nft list chain inet fw output)
if echo "$out" | grep -q 'counter packets 0 '; then
	tap_ok "nftables: no segment of S's was INVALID in output"
else
	tap_fail "nftables: no segment of S's was INVALID in output" "$out"
fi
pp ip netns exec $S nft flush ruleset
pp ip netns exec $S conntrack -F 2>/dev/null

# --- iptables-nft --------------------------------------------------------
tap_check "iptables-nft: S's stateful rules and masquerade load" sh -c "
	for chain in INPUT FORWARD OUTPUT; do
		ip netns exec $S iptables -A \$chain -m conntrack --ctstate INVALID -j DROP || exit 1
	done
	ip netns exec $S iptables -t nat -A POSTROUTING -o to-b+ -j MASQUERADE"
fw_case "iptables-nft"
pp ip netns exec $S iptables -F
pp ip netns exec $S iptables -t nat -F

# --- filtering what reaches a VIP ----------------------------------------
# The hook runs at -399, before raw and conntrack: a rule there is too
# late.  Filter in the netdev ingress hook, or in a prerouting chain below
# -400; a refused client gets nothing, and the task never sees it.
EC_TASK="timeout linger 0" ec_prep 2 isal-cauchy 3 2 0 65536 >&2
conns() { ec_stats 2 .stats.conns; }

# refused DESC: A gets no connection, and task 2 counted none.
refused() {
	local before
	before=$(conns)
	if EC_TIMEOUT=5 ec_fetch 2; then
		tap_fail "$1" "A was served"
	elif [ "$(conns)" != "$before" ]; then
		tap_fail "$1" "the task saw the connection"
	else
		tap_ok "$1"
	fi
}

pp ip netns exec $S nft -f - <<EOF
table netdev vipfilter {
	chain in {
		type filter hook ingress device "to-a1" priority filter;
		ip daddr $VIP tcp dport 7002 ip saddr $(topo_net a1).2 drop
	}
}
EOF
refused "netdev ingress rule: A refused"
pp ip netns exec $S nft delete table netdev vipfilter
pp ip netns exec $S nft -f - <<EOF
table ip vipfilter {
	chain pre {
		type filter hook prerouting priority -450;
		ip daddr $VIP tcp dport 7002 ip saddr != 10.0.3.0/24 drop
	}
}
EOF
refused "prerouting rule at -450: A refused"
pp ip netns exec $S nft delete table ip vipfilter
pp ip netns exec $S nft -f - <<EOF
table ip vipfilter {
	chain raw {
		type filter hook prerouting priority raw;
		ip daddr $VIP tcp dport 7002 drop
	}
}
EOF
ec_fetch 2
ec_verify "a rule in raw is too late: A is served all the same" 2
pp ip netns exec $S nft delete table ip vipfilter
ec_fetch 2
ec_verify "no rule: A is served" 2
ec_stop_servers

tap_done
