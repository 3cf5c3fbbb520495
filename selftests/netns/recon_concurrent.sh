#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 64 tasks (ECP_CONCURRENT) reconstructing at the same time, each
# byte-exact.  The sources (ecp-srv) answer only after A's request, and
# every A (ecp-cli) holds its request back until a gate file appears: all
# the connections are first seen established together in S (so they
# really overlap), then released at once.  ../lib/topo.sh with four
# sources, RS(3,2) and RS(4,2) alternating between the profiles.
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

topo_init rcn
pp modprobe ecproxy
topo_setup 1 4 || exit 1

ntasks=${ECP_CONCURRENT:-64}
EC_SERVER=prog
EC_CLIENT=prog
EC_REQ=100
EC_GATE=$tmp/gate
EC_TIMEOUT=600
# Setting up 64 tasks and gathering their connections takes minutes under
# emulation; the connections wait at the gate meanwhile.
EC_TASK="timeout handshake 30000 idle 900000"
EC_NOWAIT=1
frag=$((64 << 10))
profiles=(isal-cauchy jerasure-rs)
for id in $(seq 1 $ntasks); do
	k=$((3 + id % 2))
	if ! ec_prep $id "${profiles[$((id / 2 % 2))]}" $k 2 $((id % (k + 2))) \
		$((k * frag)); then
		tap_fail "task $id: set up" "see the log"
		tap_done
		exit
	fi
done

nsrv=0
for id in $(seq 1 $ntasks); do
	nsrv=$((nsrv + $(cat "$tmp/$id/k")))
done
if ! wait_for 300 ec_all_listening $nsrv; then
	tap_fail "$nsrv source servers listening" "see the log"
	tap_done
	exit
fi

pids=()
for id in $(seq 1 $ntasks); do
	ec_fetch $id &
	pids+=($!)
done

established() {
	[ "$(ecq $S -j task show -s |
	     jq '[.[] | select(.stats.conn_state == "established")] | length')" = "$1" ]
}
if wait_for 300 established $ntasks; then
	tap_ok "$ntasks connections established at once"
else
	tap_fail "$ntasks connections established at once" \
		"$(ecq $S task show -s | grep -c 'state established')"
fi
touch "$EC_GATE"
for p in "${pids[@]}"; do
	wait "$p"
done

for id in $(seq 1 $ntasks); do
	ec_verify "task $id of $ntasks concurrent: RS($(cat "$tmp/$id/k"),2) lost $(cat "$tmp/$id/lost"), 64 KiB" $id
done
ec_stop_servers

done_all() {
	[ "$(ecq $S -j task show -s |
	     jq '[.[] | select(.stats.conns_done == 1 and .stats.conns_failed == 0 and .stats.conn_state == "none")] | length')" = "$ntasks" ]
}
if wait_for 60 done_all; then
	tap_ok "every task: one connection, done, none failed"
else
	ecin $S task show -s >&2
	tap_fail "every task: one connection, done, none failed"
fi

tap_done
