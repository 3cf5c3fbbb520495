#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# CLI test for ecctl (object "code"): golden text output, JSON checked with
# jq, error messages and exit codes (0 ok, 1 runtime, 2 usage), prefix
# matching, and a file encode -> decode -> assemble round trip.  TAP output.
#
# Golden values are hand-checkable: isal-rs parity row 1 is 1,2,4,8, so
# rebuilding fragment 5 (k=4) from 3,2,1,0 uses 8,4,2,1; the vandermonde
# k=2 m=2 rows [3 2] [2 3] are derived in test_profile.c.

here=$(cd "$(dirname "$0")" && pwd)
ECCTL=${ECCTL:-$here/../ecctl/ecctl}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ecctl-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
failed=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

# run ARGS...: sets $out, $err, $rc
run() {
	"$ECCTL" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

# expect DESC RC EXPECTED_STDOUT ARGS...
expect_out() {
	desc=$1 want_rc=$2 want=$3
	shift 3
	run "$@"
	if [ "$rc" = "$want_rc" ] && [ "$out" = "$want" ]; then
		ok "$desc"
	else
		notok "$desc"
		echo "#   ecctl $*: rc=$rc (want $want_rc)"
		printf '%s\n' "$out" "$err" | sed 's/^/#   /'
	fi
}

# expect_err DESC RC EXPECTED_STDERR ARGS...
expect_err() {
	desc=$1 want_rc=$2 want=$3
	shift 3
	run "$@"
	if [ "$rc" = "$want_rc" ] && [ "$err" = "$want" ] && [ -z "$out" ]; then
		ok "$desc"
	else
		notok "$desc"
		echo "#   ecctl $*: rc=$rc (want $want_rc)"
		printf '%s\n' "$out" "$err" | sed 's/^/#   /'
		echo "#   wanted stderr: $want"
	fi
}

# expect_jq DESC JQ_EXPR ARGS...: exit 0, valid JSON, jq -e EXPR true
expect_jq() {
	desc=$1 expr=$2
	shift 2
	run "$@"
	if [ "$rc" = 0 ] && printf '%s' "$out" | jq -e "$expr" >/dev/null 2>&1; then
		ok "$desc"
	else
		notok "$desc"
		echo "#   ecctl $*: rc=$rc"
		printf '%s\n' "$out" "$err" | sed 's/^/#   /'
	fi
}

run -V
ver=$(sed -n 's/^#define ECP_VERSION "\(.*\)"/\1/p' "$here/../../kmod/ecproxy.h")
[ -n "$ver" ] && [ "$out" = "ecctl ecproxy-$ver" ] && [ $rc = 0 ] && ok "-V prints the module's version ($ver)" ||
	notok "-V prints the module's version: $out (want $ver)"
run -Version
[ "$out" = "ecctl ecproxy-$ver" ] && [ $rc = 0 ] && ok "-Version too" || notok "-Version: $out"

run help
case "$out" in *"OBJECT := { code | task | stats | monitor | gf | help }"*) ok "help lists objects" ;; *) notok "help lists objects" ;; esac

run code help
case "$out" in *"ecctl code assemble PROFILE"*"ecmeta"*) [ $rc = 0 ] && ok "code help documents commands" || notok "code help rc" ;; *) notok "code help documents commands" ;; esac

golden1='profile isal-rs k 4 m 2 lost 5
survivors 3 2 1 0
coefficients 0x08 0x04 0x02 0x01'
expect_out "coef golden text (isal-rs lost 5 from 3,2,1,0)" 0 "$golden1" \
	code coef isal-rs k 4 m 2 lost 5 avail 3,2,1,0
expect_out "prefix matching: c co = code coef" 0 "$golden1" \
	c co isal-rs k 4 m 2 l 5 a 3,2,1,0

expect_out "default survivors, XOR parity" 0 'profile isal-rs k 4 m 2 lost 1
survivors 0 2 3 4
coefficients 0x01 0x01 0x01 0x01' code coef isal-rs k 4 m 2 lost 1

expect_out "matrix golden (vandermonde k 2 m 2)" 0 'profile vandermonde k 2 m 2
data    0: 0x01 0x00
data    1: 0x00 0x01
parity  2: 0x03 0x02
parity  3: 0x02 0x03' code matrix minio k 2 m 2

expect_jq "-j coef: integer arrays survivors/coefficients" \
	'.survivors == [3,2,1,0] and .coefficients == [8,4,2,1] and .lost == 5 and .profile == "isal-rs"' \
	-j code coef isal-rs k 4 m 2 lost 5 avail 3,2,1,0
expect_jq "-p pretty JSON is valid, alias resolved" \
	'.profile == "jerasure-rs" and (.survivors | length) == 4 and all(.coefficients[]; type == "number")' \
	-p code coef ceph-jerasure k 4 m 3 lost 2
expect_jq "-j profiles lists all five" 'length == 5 and .[1].aliases == ["hdfs-rs"]' -j code profiles
expect_jq "-j matrix: generator rows" '(.generator | length) == 5 and .generator[3] == [1,1,1] and .generator[4] == [1,2,4]' \
	-j code matrix isal-rs k 3 m 2

expect_err "lost out of range" 2 'Error: "lost 9": fragment index must be < k+m (9)' \
	code coef isal-rs k 6 m 3 lost 9
expect_err "k out of range" 2 'Error: "k 33": must be in 1..32' code coef isal-rs k 33 m 3 lost 1
expect_err "too many erasures" 2 'Error: "avail 0,2,3": too many erasures: 3 fragments available, need k=4' \
	code coef isal-rs k 4 m 2 lost 1 avail 0,2,3
expect_err "avail lists lost" 2 'Error: "avail 0,1,2,3": lists the lost fragment 1' \
	code coef isal-rs k 4 m 2 lost 1 avail 0,1,2,3
expect_err "avail garbage" 2 'Error: "avail 0,x": expected comma-separated fragment indices' \
	code coef isal-rs k 4 m 2 lost 1 avail 0,x
expect_err "unknown command lists valid ones" 2 \
	'Error: unknown code command "frob"; valid: profiles, matrix, coef, encode, decode, assemble, help' code frob
expect_err "unknown object lists valid ones" 2 'Error: unknown object "tusk"; valid: code, task, stats, monitor, gf, help' tusk
expect_err "unknown keyword lists valid ones" 2 \
	'Error: unknown keyword "lots"; valid: k, m, matrix, lost, avail' code coef isal-rs k 4 m 2 lots 1
expect_err "unknown profile lists valid ones" 2 \
	'Error: unknown profile "rs"; valid: isal-rs, isal-cauchy, hdfs-rs, jerasure-rs, ceph-jerasure, vandermonde, minio, klauspost, backblaze, matrix' \
	code coef rs k 4 m 2 lost 1
expect_err "missing required keyword" 2 'Error: missing "lost I"' code coef isal-rs k 4 m 2
expect_err "missing value" 2 'Error: "m": missing value M' code coef isal-rs k 4 m
expect_err "matrix only for profile matrix" 2 'Error: "matrix 1,1": only profile matrix takes a matrix' \
	code coef isal-rs k 2 m 1 lost 0 matrix 1,1

run code coef isal-rs k 6 m 5 lost 0 avail 1,2,4,6,7,10
sugg=$(printf '%s' "$err" | sed -n 's/.*try avail \([0-9,]*\)$/\1/p')
if [ $rc = 1 ] && [ -n "$sugg" ] &&
   [ "$err" = "Error: \"avail 1,2,4,6,7,10\": survivor set 1,2,4,6,7,10 is singular for isal-rs k=6 m=5; try avail $sugg" ] &&
   "$ECCTL" code coef isal-rs k 6 m 5 lost 0 avail "$sugg" >/dev/null; then
	ok "singular isal-rs set: exit 1, suggestion ($sugg) works"
else
	notok "singular isal-rs set: exit 1, suggestion works"
	echo "#   rc=$rc err=$err"
fi

# usage text follows the error on stderr; check the first line
run -x code
[ $rc = 2 ] && [ "$(printf '%s\n' "$err" | head -1)" = 'Error: unknown option "-x"' ] && ok "unknown option: first stderr line" || notok "unknown option: first stderr line"

# file round trip
head -c 10007 /dev/urandom >"$tmp/in"
run code encode isal-cauchy k 4 m 2 in "$tmp/in" out "$tmp/frags"
if [ $rc = 0 ] && [ "$out" = "encoded 10007 bytes into 6 fragments of 2502 bytes in $tmp/frags" ] &&
   [ "$(wc -c <"$tmp/frags/frag.5")" -eq 2502 ] && grep -qx 'length 10007' "$tmp/frags/ecmeta"; then
	ok "encode: 6 fragments of ceil(10007/4) bytes, ecmeta"
else
	notok "encode: 6 fragments"
	echo "#   rc=$rc out=$out err=$err"
fi

cp "$tmp/frags/frag.1" "$tmp/frag1.orig"
rm "$tmp/frags/frag.1" "$tmp/frags/frag.4"
run -j code decode hdfs-rs k 4 m 2 lost 1 dir "$tmp/frags" out "$tmp/frags/frag.1"
if [ $rc = 0 ] && cmp -s "$tmp/frag1.orig" "$tmp/frags/frag.1" &&
   printf '%s' "$out" | jq -e '.survivors == [0,2,3,5] and .fragsize == 2502' >/dev/null; then
	ok "decode: rebuilt missing data fragment from present ones"
else
	notok "decode: rebuilt missing data fragment"
	echo "#   rc=$rc out=$out err=$err"
fi

rm "$tmp/frags/frag.0"
run code assemble isal-cauchy k 4 m 2 dir "$tmp/frags" out "$tmp/out.bin"
if [ $rc = 0 ] && cmp -s "$tmp/in" "$tmp/out.bin"; then
	ok "assemble with fragments 0 and 4 missing restores the input"
else
	notok "assemble restores the input"
	echo "#   rc=$rc out=$out err=$err"
fi

expect_err "decode with a different profile than ecmeta (usage error)" 2 \
	'Error: fragment set was encoded with isal-cauchy k 4 m 2, not isal-rs k 4 m 2' \
	code decode isal-rs k 4 m 2 lost 0 dir "$tmp/frags" out "$tmp/x"

# --- batch mode -------------------------------------------------------------
cat > "$tmp/batch" <<'EOB'
# two good lines, a blank one, a quoted word, then a bad line and a good one
code coef hdfs-rs k 6 m 3 lost 2

code coef "isal-rs" k 3 m 2 lost 1
code coef isal-rs k 3 m 2 lost 9
code coef jerasure-rs k 4 m 2 lost 5
EOB
out=$("$ECCTL" -batch "$tmp/batch" 2>"$tmp/err"); rc=$?
if [ $rc = 2 ] && [ "$(printf '%s\n' "$out" | grep -c '^survivors')" = 2 ] &&
   grep -qx 'Command failed .*/batch:5' "$tmp/err"; then
	ok "batch stops at the first failing line and names it"
else
	notok "batch stops at the first failing line and names it"
	echo "#   rc=$rc out=$out err=$(cat "$tmp/err")"
fi
out=$("$ECCTL" -force -b - < "$tmp/batch" 2>"$tmp/err"); rc=$?
if [ $rc = 2 ] && [ "$(printf '%s\n' "$out" | grep -c '^survivors')" = 3 ] &&
   grep -qx 'Command failed -:5' "$tmp/err"; then
	ok "batch -force from stdin runs every line"
else
	notok "batch -force from stdin runs every line"
	echo "#   rc=$rc out=$out err=$(cat "$tmp/err")"
fi
printf 'code coef "isal-rs k 3\n' > "$tmp/batch2"
expect_err "batch rejects an unbalanced quote" 2 \
	"Error: $tmp/batch2:1: unbalanced quote or too many words
Command failed $tmp/batch2:1" -batch "$tmp/batch2"

# --- help at every level, exit codes, prefixes ------------------------------
# Every object and command answers "help" with its usage on stdout, exit 0,
# without needing the kernel module.
for cmd in "help" "-h" "code help" "code profiles help" "code matrix help" \
	   "code coef help" "code encode help" "code decode help" "code assemble help" \
	   "task help" "task add help" "task change help" "task del help" \
	   "task show help" "task flush help" "stats help" "stats show help" \
	   "stats reset help" "gf help" "gf show help" "monitor help" \
	   "t h" "t ch help" "s r help" "m help" "g s help"; do
	# shellcheck disable=SC2086
	run $cmd
	case "$out" in
	"Usage: ecctl"*) [ $rc = 0 ] && [ -z "$err" ] && ok "\"ecctl $cmd\": usage, exit 0" ||
		notok "\"ecctl $cmd\": rc=$rc err=$err" ;;
	*) notok "\"ecctl $cmd\": usage, exit 0"; echo "#   rc=$rc out=$(printf '%s' "$out" | head -1) err=$err" ;;
	esac
done
run task help
case "$out" in *"ecctl task change id ID [ client { PREFIX | any } ] [ buffer SIZE ]"*) ok "task help documents change" ;; *) notok "task help documents change" ;; esac
run monitor help
case "$out" in *"task ID failed client ADDR:PORT error REASON [ source I ADDR:PORT ]"*) ok "monitor help documents the failed line" ;; *) notok "monitor help documents the failed line" ;; esac
run stats help
case "$out" in *"ecctl stats reset [ id ID ]"*) ok "stats help documents reset" ;; *) notok "stats help documents reset" ;; esac

# Prefixes: objects, commands and keywords, iproute2 style.
"$ECCTL" code profiles > "$tmp/full"
expect_out "\"c p\" is \"code profiles\"" 0 "$(cat "$tmp/full")" c p
expect_out "\"t help\" is \"task help\"" 0 "$("$ECCTL" task help)" t help
expect_err "ambiguous keyword lists the candidates" 2 \
	'Error: ambiguous keyword "c": could be client, code, coef' \
	task add id 1 c 10.0.0.1
expect_err "unknown task command lists valid ones" 2 \
	'Error: unknown task command "move"; valid: add, change, del, show, list, flush, help' task move
expect_err "unknown stats command lists valid ones" 2 \
	'Error: unknown stats command "clear"; valid: show, reset, help' stats clear
expect_err "unknown gf command lists valid ones" 2 \
	'Error: unknown gf command "list"; valid: show, help' gf list

# Usage errors (exit 2) of the kernel commands are caught before netlink,
# each naming the offending argument.
expect_err "task change: unchangeable keyword" 2 \
	'Error: unknown keyword "vip"; valid: id, client, buffer, timeout' task change id 1 vip 10.0.0.1
expect_err "task change: id is required" 2 'Error: missing "id ID"' task change buffer 64k
expect_err "task change: nothing to change" 2 \
	'Error: task change id 7: nothing to change; give client, buffer or timeout' task change id 7
expect_err "task change: bad size" 2 'Error: "buffer 12q": not a size below 4g' task change id 7 buffer 12q
expect_err "task change: bad client" 2 'Error: "client 10.0.0.300": not an IPv4 address' \
	task change id 7 client 10.0.0.300
expect_err "task change: unknown timeout" 2 \
	'Error: "timeout fast": expected handshake, idle or linger and MS' task change id 7 timeout fast 10
expect_err "task change: timeout without value" 2 'Error: "timeout idle": missing value MS' \
	task change id 7 timeout idle
expect_err "task change: timeout given twice" 2 'Error: "timeout idle 2000": given twice' \
	task change id 7 timeout idle 1000 idle 2000
expect_err "task add: bad id" 2 'Error: "id one": not an integer' task add id one vip 10.0.0.1 port 1
expect_err "task add: bad source" 2 'Error: "source 10.0.0.1": expected ADDR:PORT[:FRAG]' \
	task add id 1 vip 10.0.0.1 port 1 source 10.0.0.1
expect_err "task add: vip is required" 2 'Error: missing "vip ADDR"' task add id 1 port 1
expect_err "task add: coef before any source" 2 'Error: "coef 3": must follow a source' \
	task add id 1 vip 10.0.0.1 port 1 coef 3
expect_err "task add: k without code" 2 'Error: k, m, lost and matrix need "code PROFILE"' \
	task add id 1 vip 10.0.0.1 port 1 k 3 source 10.0.0.2:1 coef 1
expect_err "task del: id is required" 2 'Error: missing "id ID"' task del
expect_err "task flush takes no arguments" 2 'Error: "now": flush takes no arguments' task flush now
expect_err "stats reset: bad id" 2 'Error: "id -1": must be in 0..4294967295' stats reset id -1
expect_err "stats show takes no arguments" 2 'Error: "id": stats show takes no arguments' stats show id 1
expect_err "monitor takes no arguments" 2 \
	'Error: "task": monitor takes no arguments; see "ecctl monitor help"' monitor task 1
expect_err "gf show takes no arguments" 2 'Error: "x": gf show takes no arguments' gf show x
expect_err "-n needs a name" 2 'Error: "-n" needs a namespace name' -n
expect_err "-batch needs a file" 2 'Error: "-batch" needs a file name (or -)' -batch

# Runtime errors exit 1.  Without the module (not loaded, not installed:
# no autoload), every kernel command says so.
if [ ! -d /sys/module/ecproxy ] && ! modinfo ecproxy >/dev/null 2>&1; then
	for cmd in "task show" "stats" "gf" "monitor" "task del id 1" "stats reset"; do
		# shellcheck disable=SC2086
		run $cmd
		if [ $rc = 1 ] && [ "$err" = 'Error: the ecproxy module is not loaded (no generic netlink family "ecproxy")' ]; then
			ok "\"ecctl $cmd\" without the module: exit 1, says so"
		else
			notok "\"ecctl $cmd\" without the module: exit 1, says so"
			echo "#   rc=$rc err=$err"
		fi
	done
else
	for cmd in "task show" "stats" "gf" "monitor" "task del id 1" "stats reset"; do
		ok "\"ecctl $cmd\" without the module # SKIP the module is installed here"
	done
fi

# -j and -p on every pure-userspace show command, checked by python's parser
# as well as jq.
for cmd in "code profiles" "code matrix isal-rs k 3 m 2" "code coef hdfs-rs k 6 m 3 lost 2"; do
	for opt in -j -p; do
		# shellcheck disable=SC2086
		run $opt $cmd
		if [ $rc = 0 ] && printf '%s' "$out" | python3 -m json.tool >/dev/null 2>&1; then
			ok "ecctl $opt $cmd: valid JSON"
		else
			notok "ecctl $opt $cmd: valid JSON"
		fi
	done
done
run -p code coef hdfs-rs k 6 m 3 lost 2
[ "$(printf '%s\n' "$out" | wc -l)" -gt 5 ] && ok "-p indents" || notok "-p indents"

# code coef, complete: the HDFS RS-6-3 and Ceph jerasure examples of ecctl(8).
expect_out "code coef hdfs-rs k 6 m 3 lost 2 (golden, the ecctl(8) example)" 0 \
'profile isal-cauchy k 6 m 3 lost 2
survivors 0 1 3 4 5 6
coefficients 0xf5 0xd2 0xa6 0x02 0xf7 0x04' code coef hdfs-rs k 6 m 3 lost 2
expect_jq "-j code coef hdfs-rs: the same, as JSON" \
	'.profile == "isal-cauchy" and .k == 6 and .m == 3 and .lost == 2 and .survivors == [0,1,3,4,5,6] and .coefficients == [245,210,166,2,247,4]' \
	-j code coef hdfs-rs k 6 m 3 lost 2
expect_out "code coef ceph-jerasure parity from the data (the ecctl(8) example)" 0 \
"$(printf 'profile jerasure-rs k 4 m 2 lost 5\nsurvivors 0 1 2 3\ncoefficients %s' \
	"$("$ECCTL" code matrix ceph-jerasure k 4 m 2 | sed -n 's/^parity  5: //p')")" \
	code coef ceph-jerasure k 4 m 2 lost 5 avail 0,1,2,3
echo "1..$n"
echo "# ecctl_cli: $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
