#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Both ends of the command link between the two VMs of selftests/vm/pair.
#
#   s-agent.sh serve          in S's VM: name and address S's links, then
#                             run each request that arrives on ctl until
#                             one says "stop"
#   s-agent.sh client CMD...  in the hosts' VM: bring ctl up, wait for S,
#                             run CMD, stop S; CMD's exit status
#   s-agent.sh exec           one request (socat runs it): the shell
#                             command on stdin, in S's root namespace
#
# ECP_LINKS names the links in order ("ctl a1 b1 ..."); link j's NIC has
# the MAC topo_link_mac gives it in S and in the hosts' VM.  In
# S a node X's link is named to-X and addressed as in topo.sh (topo_net X,
# S at .1).  A request's answer is one line "ECP RC OUTLEN ERRLEN", then
# its stdout and its stderr (topo_s_run in topo.sh is the other end).
set -u
here=${0%/*}
# The hosts' end of ctl; S's, and the port, are topo.sh's (TOPO_S_CTL,
# TOPO_S_PORT), which serve and client source through wait_links (exec
# does without: it is each request's cost).
h_addr=10.255.255.2

# wait_links SIDE: virtio_net loaded and every link's NIC present.
wait_links() {
	. "$here/../lib/topo.sh"
	local j n=0 names
	read -ra names <<<"$ECP_LINKS"
	modprobe virtio_net || return 1
	for j in "${!names[@]}"; do
		until topo_link_dev "$1" "$j" >/dev/null; do
			n=$((n + 1))
			[ $n -lt 300 ] || { echo "s-agent: no NIC for link ${names[$j]}" >&2; return 1; }
			sleep 0.1
		done
	done
}

serve() {
	local j dev names
	read -ra names <<<"$ECP_LINKS"
	wait_links 00 || return 1
	hostname ecp-s
	ip addr add "$VIP/32" dev lo
	sysctl -qw net.ipv4.ip_forward=1
	for j in "${!names[@]}"; do
		dev=$(topo_link_dev 00 "$j")
		if [ "${names[$j]}" = ctl ]; then
			ip link set "$dev" name ctl
			ip addr add "$TOPO_S_CTL/24" dev ctl
			ip link set ctl up
			continue
		fi
		ip link set "$dev" name "to-${names[$j]}"
		ip addr add "$(topo_net "${names[$j]}").1/24" dev "to-${names[$j]}"
		ip link set "to-${names[$j]}" up
	done
	echo "s-agent: S up, links: ${names[*]}"
	# Requests may overlap (a poll beside a transfer): a child each.
	socat -t 86400 TCP-LISTEN:$TOPO_S_PORT,bind=$TOPO_S_CTL,reuseaddr,fork \
		EXEC:"$here/s-agent.sh exec" &
	echo $! > /run/ecp-s-agent.pid
	wait
	# Only a "stop" ends it well; a listener that failed fails S's run.
	if [ ! -e /run/ecp-s-stop ]; then
		echo "s-agent: the listener on ctl ended without a stop" >&2
		return 1
	fi
	echo "s-agent: stopped"
}

# Kept short: a benchmark's samples of S pay for every process here.
request() {
	local req rc o=/run/ecp-req.$$.out e=/run/ecp-req.$$.err
	req=$(cat)
	if [ "$req" = stop ]; then
		: > /run/ecp-s-stop
		echo "ECP 0 0 0"
		kill "$(cat /run/ecp-s-agent.pid)"
		return 0
	fi
	cd "${ECP_TOP:-/}" 2>/dev/null || cd /
	bash -c "$req" > "$o" 2> "$e" < /dev/null
	rc=$?
	echo "ECP $rc $(stat -c %s "$o") $(stat -c %s "$e")"
	cat "$o" "$e"
	rm -f "$o" "$e"
}

client() {
	local dev rc n=0
	wait_links 01 || return 1
	dev=$(topo_link_dev 01 0)
	ip link set "$dev" name ctl
	ip addr add "$h_addr/24" dev ctl
	ip link set ctl up
	until echo true | socat -t 60 - "TCP:$TOPO_S_CTL:$TOPO_S_PORT" >/dev/null 2>&1; do
		n=$((n + 1))
		[ $n -lt 600 ] || { echo "s-agent: S does not answer" >&2; return 1; }
		sleep 0.2
	done
	"$@"
	rc=$?
	echo stop | socat -t 60 - "TCP:$TOPO_S_CTL:$TOPO_S_PORT" >/dev/null
	return $rc
}

case "${1:-}" in
serve) serve; exit ;;
exec) request ;;
client) shift; client "$@" ;;
*) echo "usage: s-agent.sh serve | client CMD... | exec" >&2; exit 2 ;;
esac
