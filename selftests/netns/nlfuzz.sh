#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Netlink abuse: thousands of random, malformed, huge and deeply nested
# requests for every command of the ecproxy family (nlfuzz.py fuzz), then
# add/del/get/dump/flush/stats racing from several processes (nlfuzz.py
# race).  Every request must get a well-formed answer with an expected
# error, the kernel must not complain (the VM harness fails the run on
# any WARN, KASAN, lockdep report or kmemleak leak), and the module must
# still work afterwards.  Seeds are printed, so a failure can be replayed:
#   ECP_NLFUZZ_SEED=N selftests/vm/run -- selftests/netns/run.sh selftests/netns/nlfuzz.sh
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/topo.sh"

here=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
param=/sys/module/ecproxy/parameters/netns_mem_max
seed=${ECP_NLFUZZ_SEED:-$RANDOM}
# The debug kernel (KASAN, kmemleak) is several times slower.
if [ -e /sys/kernel/debug/kmemleak ] || grep -q kmemleak /proc/cmdline; then
	iters=${ECP_NLFUZZ_ITERS:-2500}
	race_secs=${ECP_NLFUZZ_RACE_SECS:-15}
else
	iters=${ECP_NLFUZZ_ITERS:-5000}
	race_secs=${ECP_NLFUZZ_RACE_SECS:-10}
fi
nrace=4
mem_max=

# The fuzz runs in S alone (../lib/topo.sh with no other node).
topo_init nf
cleanup() {
	[ -z "$mem_max" ] || echo "$mem_max" > $param
	topo_cleanup
}
trap cleanup EXIT

pp modprobe ecproxy
topo_setup 0 0 || exit 1
# Small cap: requests that pass validation allocate little, and the cap
# itself (-ENOSPC) is part of what gets exercised.
mem_max=$(cat $param)
echo $((8 << 20)) > $param

echo "# seed $seed, $iters requests, $nrace racers for $race_secs s"
start=$(date +%s)
if ip netns exec $S $PY "$here/nlfuzz.py" fuzz "$seed" "$iters" \
	> "$tmp/fuzz" 2>&1; then
	tap_ok "fuzz: $iters random requests, expected errors only ($(($(date +%s) - start)) s)"
else
	tap_fail "fuzz: $iters random requests, expected errors only" \
		"$(head -c 2000 "$tmp/fuzz")"
fi
sed 's/^/# /' "$tmp/fuzz"

start=$(date +%s)
rpids=()
for i in $(seq 1 $nrace); do
	ip netns exec $S $PY "$here/nlfuzz.py" race $((seed + i)) "$race_secs" \
		> "$tmp/race.$i" 2>&1 &
	rpids+=($!)
done
fails=0
for i in $(seq 1 $nrace); do
	wait "${rpids[$((i - 1))]}" || fails=$((fails + 1))
	sed 's/^/# /' "$tmp/race.$i"
done
if [ $fails = 0 ]; then
	tap_ok "race: $nrace processes adding, deleting, dumping, flushing ($(($(date +%s) - start)) s)"
else
	tap_fail "race: $nrace processes adding, deleting, dumping, flushing" \
		"$fails of them saw unexpected answers"
fi

echo "$mem_max" > $param
mem_max=
# Still working: a task round-trip, and nothing left behind.
tap_check "after the fuzz: flush" ecin $S task flush
tap_check "after the fuzz: task add" ecin $S task add id 9 vip 10.99.0.1 \
	port 7009 source 10.0.11.2:8000 coef 1 source 10.0.12.2:8000 coef 2
out=$(ecin $S task show id 9)
echo "$out" >&2
if echo "$out" | grep -q '10.0.12.2:8000'; then
	tap_ok "after the fuzz: task show"
else
	tap_fail "after the fuzz: task show" "$out"
fi
tap_check "after the fuzz: task del" ecin $S task del id 9
out=$(ecin $S stats)
echo "$out" >&2
if echo "$out" | grep -q '^tasks 0 memory 0 '; then
	tap_ok "after the fuzz: no task, no memory left"
else
	tap_fail "after the fuzz: no task, no memory left" "$out"
fi
pp ip netns del $S
tap_check "after the fuzz: module unloads" modprobe -r ecproxy
tap_check "after the fuzz: module loads again" modprobe ecproxy

tap_done
