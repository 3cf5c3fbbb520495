#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: node A writes an erasure-coded block through ecproxy (the
# write path: A sends the block once, the router S stripes it to the k+m
# storage nodes and makes the parity); then a node is lost, and A rebuilds
# its data fragment three ways under the same cap on its link: replication
# (a plain copy of a replica, the ceiling), native EC (A reads k fragments
# and decodes them), and ecproxy (A reads one stream from the proxy on S).
# Run as root with ecproxy installed (in the VM: make demo).
#
# Knobs (environment):
#   DEMO_SIZE     block size in bytes, k/m/g suffixes (default 64m)
#   DEMO_CAP      tc rate of A's link (default 8mbit: low enough that a
#                 2-core TCG VM is link-bound, which replication shows)
#   DEMO_PROFILE  coding profile (default isal-cauchy, HDFS's RS)
#   DEMO_K, DEMO_M, DEMO_LOST   the code and the lost fragment (6, 3, 2)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/bench.sh"

size=${DEMO_SIZE:-64m}
cap=${DEMO_CAP:-8mbit}
profile=${DEMO_PROFILE:-isal-cauchy}
k=${DEMO_K:-6}
m=${DEMO_M:-3}
lost=${DEMO_LOST:-2}
bytes=$(numfmt --from=iec "${size^^}") || { echo "demo: bad DEMO_SIZE $size" >&2; exit 2; }
topo_init demo

say() { bench_log "demo: $*"; }

modprobe ecproxy || exit 1
say "machine:"
bench_env | sed 's/^/    /' >&2
say "topology: router S (ecproxy), node A, $((k + m)) storage nodes; A's link capped at $cap"
topo_setup 1 $((k + m)) || exit 1
topo_cap 1 "$cap" || exit 1
# The block is striped as HDFS does, in cells of 1 MiB (less for a small
# block), and ecctl code encode's fragments are the reference for what the
# nodes store.  Whole stripes: every fragment as long as the others, which
# the rebuilding ways below read without a layout.
cell=$((1 << 20))
while [ "$bytes" -lt $((k * cell)) ] && [ $cell -gt 4096 ]; do
	cell=$((cell / 2))
done
[ "$bytes" -lt $((k * cell)) ] || bytes=$((bytes / (k * cell) * k * cell))
say "a random block of $bytes bytes ($size in whole stripes), $profile RS($k,$m) in cells of $cell bytes"
ec_encode "$tmp" "$profile" "$k" "$m" "$bytes" "$cell" || exit 1
sha=$(sha256sum < "$tmp/frag.$lost" | cut -d' ' -f1)

# --- the write: A sends the block once, S makes the parity -----------------
dests=()
for f in $(seq 0 $((k + m - 1))); do
	ip netns exec "$B$((f + 1))" "$PROGS/ecp-tgt" 9000 "$tmp/stored.$f" &
	wait_for 10 topo_listening "$B$((f + 1))" 9000 || exit 1
	dests+=(dest "$(topo_addr "b$((f + 1))"):9000:$f")
done
ecin "$S" task add id 2 vip $VIP port 7002 encode "$profile" k "$k" m "$m" \
	cell "$cell" "${dests[@]}" >&2 || exit 1
say "write: A sends the block to the write task on $VIP:7002 ..."
j=$(ip netns exec "$A" "$ECPUT" -j -q proxy $VIP:7002 nofallback timeout 30000 "$tmp/in")
wok="FAILED: $j"
if [ "$(jq -r .ok <<< "$j")" = true ]; then
	wok="every fragment differs"
	for f in $(seq 0 $((k + m - 1))); do
		wait_for 10 cmp -s "$tmp/frag.$f" "$tmp/stored.$f" || { wok="fragment $f differs"; break; }
		wok=ok
	done
fi
wrate=$(awk -v b="$bytes" -v s="$(jq -r .seconds <<< "$j")" 'BEGIN { printf "%.2f", (s > 0 ? b * 8 / s / 1e6 : 0) }')
if [ "$wok" = ok ]; then
	say "write: $wrate Mbit/s of block, A's CPU $(printf '%.2f' "$(jq -r .cpu_seconds <<< "$j")") s; the $((k + m)) nodes hold exactly ecctl code encode's fragments"
else
	say "write FAILED: $wok"
	ecq "$S" task show id 2 -s >&2
fi
ecq "$S" task show id 2 -s >&2
ecq "$S" task del id 2
ec_stop_servers
# What the nodes stored is what they serve from now on.
for f in $(seq 0 $((k + m - 1))); do
	mv "$tmp/stored.$f" "$tmp/frag.$f" 2>/dev/null
done

say "node $((lost + 1)) (data fragment $lost, $EC_FRAGSIZE bytes) is lost"
ec_store "$tmp" "$k" "$m" "$lost" 8000 || exit 1
ec_task 1 "$profile" "$k" "$m" "$lost" >&2 || exit 1
# A writes the fragment to a file, as a rebuilding node would.
BENCH_OUTDIR=$tmp

declare -A rate time cpu user ok
fail=0
for way in replication native ecproxy; do
	say "$way: rebuilding fragment $lost in A ..."
	j=$(bench_way $way 1 1 "$profile" "$k" "$m" "$lost" "$sha")
	read -r okay r t c u <<< "$(jq -r '"\(.sha256_ok) \(.mbit_s) \(.wall_s) \(.cpu_s) \(.cpu_user_s)"' <<< "$j")"
	if [ "$okay" != true ]; then
		say "$way FAILED: $j"
		ecq "$S" task show -s >&2
		fail=1
		rate[$way]=0 time[$way]=0 cpu[$way]=0 user[$way]=0 ok[$way]="FAILED"
		continue
	fi
	rate[$way]=$r time[$way]=$t cpu[$way]=$c user[$way]=$u ok[$way]="sha256 OK"
	say "$way: $(printf '%.2f' "$r") Mbit/s, $(printf '%.2f' "$t") s, A's CPU $(printf '%.2f' "$c") s (user $(printf '%.2f' "$u") s)"
done
ecq "$S" task show id 1 -s >&2

capbits=$(numfmt --from=si "$(echo "${cap%bit}" | tr 'a-z' 'A-Z')")
echo
echo "ecproxy demo: $profile RS($k,$m), a $bytes-byte block in cells of $cell, fragment $lost lost ($EC_FRAGSIZE bytes), A's link $cap"
echo
echo "write through ecproxy: $wrate Mbit/s of block, A sends it once, S makes the parity: $wok"
echo
printf '%-12s %11s %8s %10s %10s %10s %8s  %s\n' way "Mbit/s" "time s" "A CPU s" "(user s)" "vs native" "vs repl" check
for way in replication native ecproxy; do
	awk -v w="$way" -v r="${rate[$way]}" -v t="${time[$way]}" -v c="${cpu[$way]}" \
	    -v u="${user[$way]}" -v tn="${time[native]}" -v rr="${rate[replication]}" \
	    -v ok="${ok[$way]}" 'BEGIN {
		printf "%-12s %11.2f %8.1f %10.2f %10.2f %9.2fx %7.0f%%  %s\n", w, r, t, c, u,
			(t > 0 ? tn / t : 0), (rr > 0 ? 100 * r / rr : 0), ok }'
done
echo
echo "vs native: speed-up over native EC (time); vs repl: rate relative to replication."
echo "A's CPU is user + system time of the fetching process; in one kernel the"
echo "system time also carries some of S's and the sources' softirq work."
# The comparison means something only when the link, not the emulated CPU,
# is the limit: replication must get close to the cap.
if awk -v r="${rate[replication]}" -v c="$capbits" 'BEGIN { exit !(r * 1e6 < 0.8 * c) }'; then
	echo "WARNING: replication reached only $(printf '%.0f' "${rate[replication]}") Mbit/s of the $cap cap:"
	echo "         this machine is CPU-bound, not link-bound; lower DEMO_CAP."
fi
if awk -v e="${rate[ecproxy]}" -v r="${rate[replication]}" 'BEGIN { exit !(e < 0.8 * r) }'; then
	echo "NOTE: ecproxy reached $(awk -v e="${rate[ecproxy]}" -v r="${rate[replication]}" \
		'BEGIN { printf "%.0f", 100 * e / r }')% of replication; the task statistics above"
	echo "      (resent, window-clamps, peak-buffer) show where the time went."
fi
[ "$wok" = ok ] || fail=1
exit $fail
