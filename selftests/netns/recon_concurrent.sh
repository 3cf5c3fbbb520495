#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 64 tasks (ECP_CONCURRENT) reconstructing at the same time, each
# byte-exact.  The sources (ecp-srv) answer only after A's request, and
# every A (ecp-cli) holds its request back until a gate file appears: all
# the connections are first seen established together in S (so they
# really overlap), then released at once.  lib/recon.sh with four sources, RS(3,2) and RS(4,2)
# alternating between the profiles.
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib/recon.sh"

rc_init rcn 4
pp modprobe ecproxy
rc_setup || exit 1

ntasks=${ECP_CONCURRENT:-64}
RC_SERVER=prog
RC_CLIENT=prog
RC_REQ=100
RC_GATE=$tmp/gate
RC_TIMEOUT=600
# Setting up 64 tasks and gathering their connections takes minutes under
# emulation; the connections wait at the gate meanwhile.
RC_TASK="timeout handshake 30000 idle 900000"
RC_NOWAIT=1
frag=$((64 << 10))
profiles=(isal-cauchy jerasure-rs)
for id in $(seq 1 $ntasks); do
	k=$((3 + id % 2))
	if ! rc_prep $id "${profiles[$((id / 2 % 2))]}" $k 2 $((id % (k + 2))) \
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
if ! wait_for 300 rc_all_listening $nsrv; then
	tap_fail "$nsrv source servers listening" "see the log"
	tap_done
	exit
fi

pids=()
for id in $(seq 1 $ntasks); do
	rc_fetch $id &
	pids+=($!)
done

established() {
	[ "$(ip netns exec $S "$ECCTL" -j task show -s |
	     jq '[.[] | select(.stats.conn_state == "established")] | length')" = "$1" ]
}
if wait_for 300 established $ntasks; then
	tap_ok "$ntasks connections established at once"
else
	tap_fail "$ntasks connections established at once" \
		"$(ip netns exec $S "$ECCTL" task show -s | grep -c 'state established')"
fi
touch "$RC_GATE"
for p in "${pids[@]}"; do
	wait "$p"
done

for id in $(seq 1 $ntasks); do
	rc_verify "task $id of $ntasks concurrent: RS($(cat "$tmp/$id/k"),2) lost $(cat "$tmp/$id/lost"), 64 KiB" $id
done
rc_stop_servers

done_all() {
	[ "$(ip netns exec $S "$ECCTL" -j task show -s |
	     jq '[.[] | select(.stats.conns_done == 1 and .stats.conns_failed == 0 and .stats.conn_state == "none")] | length')" = "$ntasks" ]
}
if wait_for 60 done_all; then
	tap_ok "every task: one connection, done, none failed"
else
	ecin task show -s >&2
	tap_fail "every task: one connection, done, none failed"
fi

tap_done
