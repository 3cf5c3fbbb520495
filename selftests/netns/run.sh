#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run every netns selftest (selftests/netns/*.sh but this file), or those
# named, as root in the current kernel with ecproxy installed; usually
# inside the VM:  selftests/vm/run --kernel debug -- selftests/netns/run.sh
# Each test speaks TAP; this flattens them into one TAP stream whose
# descriptions carry the test's name.  A test that dies without reporting
# a failure counts as one.
set -u
here=$(cd "$(dirname "$0")" && pwd)
per_test_timeout=${ECP_TEST_TIMEOUT:-900}

if [ $# -gt 0 ]; then
	tests=("$@")
else
	tests=()
	for t in "$here"/*.sh; do
		[ "$(basename "$t")" = run.sh ] || tests+=("$t")
	done
fi

n=0
fail=0
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	echo "# ---- $name ----"
	start=$SECONDS
	out=$(mktemp)
	timeout -k 10 "$per_test_timeout" bash "$t" > "$out"
	rc=$?
	reported_fail=0
	while IFS= read -r line; do
		case "$line" in
		"ok "*)
			n=$((n + 1))
			echo "ok $n - $name: ${line#ok * - }"
			;;
		"not ok "*)
			n=$((n + 1))
			fail=$((fail + 1))
			reported_fail=1
			echo "not ok $n - $name: ${line#not ok * - }"
			;;
		1..*) ;;
		*) echo "$line" ;;
		esac
	done < "$out"
	rm -f "$out"
	# What each file costs, for balancing scripts/check.sh's lanes.
	echo "# $name took $((SECONDS - start))s"
	if [ $rc != 0 ] && [ $reported_fail = 0 ]; then
		n=$((n + 1))
		fail=$((fail + 1))
		echo "not ok $n - $name: exited with status $rc"
	fi
done
echo "1..$n"
[ $fail = 0 ]
