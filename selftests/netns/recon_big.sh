#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A 64 MiB fragment, byte-exact, and the reconstruction rate next to a
# plain TCP transfer of the same 64 MiB through S: A (ecp-cli) fetching the
# rebuilt fragment from the VIP, then fetching one survivor straight from
# B1, routed (forwarded) by S, both written to a file in the same tmpfs.
# Only the ratio means anything: the absolute rates depend on the machine
# and, under emulation, on its load.  The rates go to TAP diagnostics
# ("# rate ...") and to build/results/recon-rate.txt.
#
# Not on a KASAN kernel (the debug VM): instrumented memory accesses make
# the rate meaningless and 64 MiB through them exceeds the time budget of
# its test run.  The smaller recon*.sh cases cover that kernel.
# ../lib/topo.sh topology, RS(3,2), sources and A as plain programs.
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

if grep -q ' kasan_report$' /proc/kallsyms; then
	tap_skip "64 MiB fragment and rate" \
		"KASAN kernel (kasan_report in /proc/kallsyms): too slow to measure"
	tap_done
	exit
fi

topo_init rcb
pp modprobe ecproxy
topo_setup 1 3 || exit 1

EC_SERVER=prog
EC_CLIENT=prog
EC_TIMEOUT=600
id=1
frag=$((64 << 20))
dir=$tmp/$id
results=$top/build/results
mkdir -p "$results"

ec_prep $id isal-cauchy 3 2 0 $((3 * frag)) || exit 1
# Room in the VM's tmpfs: the unused parity is not needed (ec_encode
# did not keep the input either).
rm -f "$dir/frag.4"
ec_fetch $id
ec_verify "isal-cauchy RS(3,2), fragment of 64 MiB" $id
ecin $S task show id $id -s >&2
rm -f "$dir/out"

# The same size through S's forwarding path, from B1 (fragment 1).
pp ec_serve 1 9001 "$dir/frag.1"
timeout "$EC_TIMEOUT" ip netns exec $A "$PROGS/ecp-cli" -o "$dir/out" \
	10.0.11.2 9001 2> "$dir/plain.err"
if cmp -s "$dir/out" "$dir/frag.1"; then
	tap_ok "plain TCP through S, 64 MiB"
else
	tap_fail "plain TCP through S, 64 MiB" "$(cat "$dir/plain.err")"
fi
ec_stop_servers

# rate FILE: "MB/s seconds" from ecp-cli's report.
rate() {
	awk '/^bytes [0-9]+ seconds/ { printf "%.1f %.3f", $2 / $4 / 1e6, $4 }' "$1"
}
read -r rr rs <<< "$(rate "$dir/err")"
read -r pr ps <<< "$(rate "$dir/plain.err")"
if [ -n "${rr:-}" ] && [ -n "${pr:-}" ]; then
	{
		echo "# rate $(uname -r), $(date -u +%FT%TZ), 64 MiB, A and sources ecp-cli/ecp-srv"
		echo "# rate reconstruction RS(3,2) through ecproxy: $rr MB/s ($rs s)"
		echo "# rate plain TCP through S (forwarded): $pr MB/s ($ps s)"
		echo "# rate ratio reconstruction / plain: $(awk -v a="$rr" -v b="$pr" 'BEGIN { printf "%.2f", a / b }')"
	} | tee "$results/recon-rate.txt"
fi

# --- Past 4 GiB (ECP_LONG_TEST=1: about 15 minutes under TCG) -------------
# Every sequence space wraps: the three sources', S's to A, and their
# 64-bit offsets (conn.h) go past 2^32, where a delayed duplicate of a
# segment 4 GiB back would map to the current offset but for PAWS (ts.h,
# and A and the sources keep Linux's default timestamps).  The stream is
# too large for the VM's memory, so each source serves the same generated
# one (progs/ecp-gen, through socat) and the task's coefficients 1, 2, 2
# add up to 1: the output is that stream, byte for byte, only if every
# source's bytes land at their offsets (the two 2s cancel only then).
long_case() {
	local len=$(((9 << 29) + 12345)) want got n
	ec_prog ecp-gen
	for n in 1 2 3; do
		ip netns exec ${B}$n socat -U TCP-LISTEN:9100,reuseaddr,fork \
			SYSTEM:"exec $PROGS/ecp-gen 7 $len" 2>/dev/null &
		wait_for 10 topo_listening ${B}$n 9100
	done
	ecin $S task add id 9 vip $VIP port 7009 source 10.0.11.2:9100 coef 1 \
		source 10.0.12.2:9100 coef 2 source 10.0.13.2:9100 coef 2 >&2
	want=$("$PROGS/ecp-gen" 7 $len | sha256sum)
	echo "[+] ip netns exec $A ecp-cli $VIP 7009 | sha256sum" >&"$tap_log"
	got=$(timeout 3600 ip netns exec $A "$PROGS/ecp-cli" $VIP 7009 \
		2> "$tmp/long.err" | sha256sum)
	cat "$tmp/long.err" >&2
	ecin $S task show id 9 -s >&2
	tap_check "past 4 GiB ($len bytes, every sequence space wrapped): byte-exact" \
		test "$got" = "$want"
	tap_check "past 4 GiB: bytes-out is the stream's, one connection done" \
		test "$(ec_stats 9 '.stats | "\(.bytes_out) \(.conns_done)"')" = "$len 1"
	ec_stop_servers
}
if [ "${ECP_LONG_TEST:-0}" = 1 ]; then
	long_case
else
	tap_skip "past 4 GiB" "a long test: ECP_LONG_TEST=1"
fi

tap_done
