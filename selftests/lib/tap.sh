# SPDX-License-Identifier: GPL-2.0
#
# TAP (kselftest style) for every shell test: selftests/, tools/tests/ and
# scripts/style.sh.  Source it (bash), then:
#   tap_plan N               optional; without it tap_done prints the plan
#   tap_ok DESC / tap_fail DESC [WHY...] / tap_skip DESC WHY
#   tap_check DESC CMD...    ok when CMD succeeds
#   tap_expect_fail DESC CMD...  ok when CMD fails
#   tap_expect_out DESC RC STDOUT CMD...  ok when CMD exits RC and prints
#                            exactly STDOUT
#   tap_expect_err DESC RC STDERR CMD...  ok when CMD exits RC, prints
#                            exactly STDERR there and nothing on stdout
#   tap_expect_jq DESC FILTER CMD...  ok when CMD exits 0 and `jq -e
#                            FILTER` holds on its stdout
#   tap_done                 prints the plan if needed, exits 1 on failures
# and the helpers around them:
#   pp CMD...                log the command ("[+] CMD") and run it
#   capture CMD...           run CMD; its stdout in $out, stderr in $err,
#                            status in $rc
#   wait_for SECS CMD...     poll CMD every 0.1 s until it succeeds (CMD's
#                            output is dropped, not its log: poll quiet
#                            commands, not pp or ecin)
#   wait_gone PID SECS       process PID exits within SECS seconds
# Results go to stdout as "ok N - DESC"; everything else goes to stderr,
# so stdout stays valid TAP.  The command log goes to fd $tap_log, the
# stderr the script had when it sourced this file: capturing a command's
# stderr does not capture its "[+]" line.  TAP_QUIET=1 sends the log
# nowhere (the benchmarks, whose stderr is their report).

[ -z "${tap_log:-}" ] || return 0

tap_n=0
tap_failed=0
tap_planned=
tap_since=$SECONDS
if [ "${TAP_QUIET:-}" = 1 ]; then
	exec {tap_log}>/dev/null
else
	exec {tap_log}>&2
fi

tap_plan() {
	tap_planned=$1
	echo "1..$1"
}

pp() {
	echo "[+] $*" >&"$tap_log"
	"$@"
}

# A result that took 20 s or more since the one before it says so in a
# "# " line before it: what scripts/check.sh's lanes are balanced by.
tap_took() {
	[ $((SECONDS - tap_since)) -lt 20 ] ||
		echo "# took $((SECONDS - tap_since))s:"
	tap_since=$SECONDS
}

tap_ok() {
	tap_took
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

# tap_fail DESC [WHY...]: every line of every WHY becomes a "# " diagnostic.
tap_fail() {
	local why
	tap_took
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	shift
	for why in "$@"; do
		[ -z "$why" ] || printf '%s\n' "$why" | sed 's/^/# /'
	done
}

tap_skip() {
	tap_took
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

capture() {
	local f
	f=$(mktemp)
	out=$("$@" 2> "$f")
	rc=$?
	err=$(cat "$f")
	rm -f "$f"
}

# tap_expect_out DESC RC STDOUT CMD...
tap_expect_out() {
	local desc=$1 want_rc=$2 want=$3 out err rc
	shift 3
	capture "$@"
	if [ "$rc" = "$want_rc" ] && [ "$out" = "$want" ]; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "$*: rc=$rc (want $want_rc)" "stdout:" \
			"$(printf '%s' "$out" | sed -n l)" "stderr: $err" \
			"wanted stdout: $want"
	fi
}

# tap_expect_err DESC RC STDERR CMD...
tap_expect_err() {
	local desc=$1 want_rc=$2 want=$3 out err rc
	shift 3
	capture "$@"
	if [ "$rc" = "$want_rc" ] && [ "$err" = "$want" ] && [ -z "$out" ]; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "$*: rc=$rc (want $want_rc)" "stdout: $out" \
			"stderr: $err" "wanted stderr: $want"
	fi
}

# tap_expect_jq DESC FILTER CMD...
tap_expect_jq() {
	local desc=$1 filter=$2 out err rc
	shift 2
	capture "$@"
	if [ "$rc" = 0 ] && printf '%s' "$out" | jq -e "$filter" >/dev/null 2>&1; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "$*: rc=$rc" "jq '$filter' on: $out" "stderr: $err"
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

wait_gone() {
	wait_for "$2" sh -c "! kill -0 $1"
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
