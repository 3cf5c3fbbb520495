#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The topology with S in a VM of its own (selftests/vm/pair, as the router
# CPU benchmark uses it): ecctl reaches S through its agent, with its
# exit status and its error messages; a reconstruction and a plain copy
# cross the two VMs' links byte for byte, also with loss on S's link to
# A; S's sampler (bench/lib/s-sample.sh) sees the bytes and packets.
# Run by make check (stage pair):
#   selftests/vm/pair --links "a1 b1 b2 b3 b4 b5" -- selftests/vm/pair_test.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/ec.sh"

[ -n "${ECP_S_VM:-}" ] || { echo "pair_test: run it through selftests/vm/pair" >&2; exit 2; }
topo_init pt
topo_s_run "modprobe ecproxy" || exit 1
topo_setup 1 5 || exit 1

tap_expect_jq "ecctl in S through its agent: task list as JSON" \
	'type == "array"' ecq "$S" -j task show
# ecctl's own status and extack message, not the agent's (125, "topo:").
capture ecq "$S" task del id 4242
if [ "$rc" != 0 ] && [ "$rc" != 125 ] && [ -z "$out" ] &&
	echo "$err" | grep -q '^Error: task 4242 does not exist'; then
	tap_ok "ecctl in S: a refused request's status and message come back ($err)"
else
	tap_fail "ecctl in S: a refused request's status and message come back" "rc $rc, out '$out', err '$err'"
fi

ec_recon "S in its own VM: isal-cauchy RS(3,2) lost 0, fragment of 1 MiB" \
	1 isal-cauchy 3 2 0 $((3 << 20))

# Loss between the VMs, on S's link to A: S re-sends from its buffer.
# netem draws once per packet it is given, and S gives it GSO packets of
# many segments, a few dozen for the fragment: at 10% a transfer may
# still lose none, so it is repeated (at most three times) until netem
# has dropped some.
for try in 1 2 3; do
	topo_s_run "tc qdisc del dev to-a1 root 2>/dev/null; tc qdisc add dev to-a1 root netem loss 10%" ||
		{ tap_fail "netem on S's link to A" "tc in S failed"; break; }
	ec_recon "S in its own VM: RS(3,2) lost 2, 10% loss towards A (transfer $try)" \
		2 isal-cauchy 3 2 2 $((3 << 20))
	dropped=$(topo_qdisc_drops to-a1)
	[ "${dropped:-0}" = 0 ] || break
done
topo_s_run "tc qdisc del dev to-a1 root"
if [ "${dropped:-0}" = 0 ]; then
	tap_fail "loss towards A: netem dropped some of S's packets" "none in $try transfers"
else
	ec_reported 2 'resent [1-9]' "loss towards A: S re-sent from its buffer ($dropped dropped)"
fi

# A plain copy forwarded by S, and S's counters as the benchmark reads
# them.
head -c $((2 << 20)) /dev/urandom > "$tmp/copy"
ec_serve 1 9000 "$tmp/copy"
. "$here/../../bench/lib/bench.sh"
bench_s_sample_start
a=$(bench_s_sample)
tap_expect_jq "S forwards a plain copy byte for byte" '.sha256_ok == true' \
	ecfetch_in "$A" -j -q copy "$(topo_addr b1):9000" size $((2 << 20)) \
	sha256 "$(sha256sum < "$tmp/copy" | cut -d' ' -f1)" timeout 60000
b=$(bench_s_sample)
bench_s_sample_stop
ec_stop_servers
read -r w0 i0 rx0 tx0 _ _ rp0 tp0 _ <<<"$a"
read -r w1 i1 rx1 tx1 _ _ rp1 tp1 _ <<<"$b"
# Packets: the copy's frames, at most an MTU's worth of bytes each.
if [ $((rx1 - rx0)) -ge $((2 << 20)) ] && [ $((tx1 - tx0)) -ge $((2 << 20)) ] &&
	[ $((rp1 - rp0)) -ge $(((2 << 20) / 1514)) ] &&
	[ $((tp1 - tp0)) -ge $(((2 << 20) / 1514)) ] &&
	awk -v a="$w0 $i0" -v b="$w1 $i1" 'BEGIN { split(a, x); split(b, y)
		exit !(y[1] > x[1] && y[2] >= x[2] && y[1] - x[1] >= y[2] - x[2]) }'; then
	tap_ok "S's sampler: the copy's bytes and packets in and out, CPU time that adds up"
else
	tap_fail "S's sampler: the copy's bytes and packets in and out, CPU time that adds up" "$a / $b"
fi

tap_done
