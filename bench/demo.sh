#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: one erasure-coded block loses a data fragment, and node A
# rebuilds it three ways under the same cap on its link: replication (a
# plain copy of a replica, the ceiling), native EC (A reads k fragments and
# decodes them), and ecproxy (A reads one stream from the proxy on the
# router S).  Run as root with ecproxy installed (in the VM: make demo).
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
say "encoding a random $size block with $profile RS($k,$m)"
ec_encode "$tmp" "$profile" "$k" "$m" "$bytes" || exit 1
sha=$(sha256sum < "$tmp/frag.$lost" | cut -d' ' -f1)
say "storing fragments on the nodes; node $((lost + 1)) (data fragment $lost, $EC_FRAGSIZE bytes) is lost"
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
echo "ecproxy demo: $profile RS($k,$m), $size block, fragment $lost lost ($EC_FRAGSIZE bytes), A's link $cap"
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
exit $fail
