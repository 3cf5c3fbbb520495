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
kunit_py=$(ls -d "${ECP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ecproxy}"/kernel-debug-*/linux-source-6.1/tools/testing/kunit/kunit.py 2>/dev/null | head -1)
if [ -s "$ktap" ] && [ -n "$kunit_py" ]; then
	python3 "$kunit_py" parse "$ktap" >&2 || true
fi

[ -s "$ktap" ] || : > "$ktap"
awk -v vmrc=$vmrc '
/^    # Subtest: / { suite = substr($0, 17); next }
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
	suites++
	name = $0
	sub(/^(not )?ok [0-9]+ /, "", name)
	sub(/ #.*/, "", name)
	if ($0 ~ /^not ok/ && !sfail[name]) {
		n++; fails++
		printf "not ok %d - %s: suite failed\n", n, name
	}
	next
}
/^1\.\.[0-9]+$/ && !plan { plan = substr($0, 4) + 0 }
END {
	if (plan == 0 || suites < plan) {
		n++
		printf "not ok %d - kunit: %d of %d suites reported (VM exit %d)\n", n, suites, plan, vmrc
		fails++
	} else if (vmrc != 0) {
		n++
		printf "not ok %d - kunit: VM run failed (exit %d)\n", n, vmrc
		fails++
	}
	printf "1..%d\n", n
	exit fails ? 1 : 0
}' "$ktap"
