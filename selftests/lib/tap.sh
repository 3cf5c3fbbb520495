# SPDX-License-Identifier: GPL-2.0
#
# TAP (kselftest style) for the shell selftests.  Source it, then:
#   tap_plan N               optional; without it tap_done prints the plan
#   pp CMD...                echo a command (to stderr) and run it
#   tap_ok DESC / tap_fail DESC [WHY] / tap_skip DESC WHY
#   tap_check DESC CMD...    ok when CMD succeeds
#   tap_expect_fail DESC CMD...  ok when CMD fails
#   wait_for SECS CMD...     poll CMD every 0.1 s until it succeeds
#   tap_done                 prints the plan if needed, exits 1 on failures
# Results go to stdout as "ok N - DESC"; everything else goes to stderr
# (commands echoed with "[+]"), so stdout stays valid TAP.

tap_n=0
tap_failed=0
tap_planned=

tap_plan() {
	tap_planned=$1
	echo "1..$1"
}

pp() {
	echo "[+] $*" >&2
	"$@"
}

tap_ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

tap_fail() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	[ -z "${2:-}" ] || echo "# $2"
}

tap_skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

tap_check() {
	local desc=$1
	shift
	if pp "$@" >&2; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "command failed: $*"
	fi
}

tap_expect_fail() {
	local desc=$1
	shift
	if pp "$@" >&2; then
		tap_fail "$desc" "command unexpectedly succeeded: $*"
	else
		tap_ok "$desc"
	fi
}

wait_for() {
	local secs=$1 i=0
	shift
	while ! "$@" >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt $((secs * 10)) ] || return 1
		sleep 0.1
	done
}

tap_done() {
	if [ -z "$tap_planned" ]; then
		echo "1..$tap_n"
	elif [ "$tap_planned" != "$tap_n" ]; then
		echo "not ok $((tap_n + 1)) - planned $tap_planned tests, ran $tap_n"
		tap_failed=$((tap_failed + 1))
	fi
	[ $tap_failed = 0 ]
}
