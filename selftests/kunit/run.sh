#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run ecproxy's KUnit suites in the debug VM and print one TAP line per test
# case ("ok N - suite.case").  A suite that fails without a failing case, a
# missing suite (the plan says more) or a VM failure counts as a failure.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$top/build/results"
ktap=$top/build/results/kunit.ktap
rm -f "$ktap"

"$top/selftests/vm/run" --kernel debug --timeout "${ECP_KUNIT_TIMEOUT:-1500}" -- \
	"$top/selftests/kunit/guest.sh" "$ktap" >&2
vmrc=$?

# The human-readable view, from the kernel's own KTAP parser.
kunit_py=$(dirname "$("$top/scripts/debug-kernel.sh")")/linux-source-6.1/tools/testing/kunit/kunit.py
if [ -s "$ktap" ] && [ -f "$kunit_py" ]; then
	# Suites run at module load print no top-level header in 6.1; add one
	# so that the parser takes the indentation as nesting, not as prefix.
	nsuites=$(grep -cE '^(not )?ok [0-9]+ ' "$ktap")
	{ echo "KTAP version 1"; echo "1..$nsuites"; cat "$ktap"; } |
		python3 "$kunit_py" parse >&2 || true
fi

[ -s "$ktap" ] || : > "$ktap"
# Every suite in the sources must report; 6.1 prints no top-level plan for
# suites run at module load, so a crash shows only as missing suites.
expected=$(sed -n 's/^[[:space:]]*\.name = "\(ecproxy_[a-z0-9_]*\)".*/\1/p' "$top"/kmod/*_test.c | sort -u | tr '\n' ' ')
awk -v vmrc=$vmrc -v expected="$expected" '
/^    # Subtest: / { suite = substr($0, 16); next }
/^    (not )?ok [0-9]+ / {
	line = substr($0, 5)
	bad = (line ~ /^not ok/)
	sub(/^(not )?ok [0-9]+ /, "", line)
	n++
	if (bad) { fails++; sfail[suite] = 1 }
	printf "%s %d - %s.%s\n", bad ? "not ok" : "ok", n, suite, line
	next
}
/^(not )?ok [0-9]+ / {
	name = $0
	sub(/^(not )?ok [0-9]+ /, "", name)
	sub(/ #.*/, "", name)
	done[name] = 1
	if ($0 ~ /^not ok/ && !sfail[name]) {
		n++; fails++
		printf "not ok %d - %s: suite failed\n", n, name
	}
	next
}
END {
	ne = split(expected, want, " ")
	for (i = 1; i <= ne; i++) {
		if (!done[want[i]]) {
			n++; fails++
			printf "not ok %d - %s: suite did not report (VM exit %d)\n", n, want[i], vmrc
		}
	}
	if (ne == 0 || vmrc != 0) {
		n++; fails++
		printf "not ok %d - kunit: VM run failed (exit %d) or no suites\n", n, vmrc
	}
	printf "1..%d\n", n
	exit fails ? 1 : 0
}' "$ktap"
