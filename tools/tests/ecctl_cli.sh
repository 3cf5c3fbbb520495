#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# CLI test for ecctl (object "code"): golden text output, JSON checked with
# jq, error messages and exit codes (0 ok, 1 runtime, 2 usage), prefix
# matching, and a file encode -> decode -> assemble round trip.  TAP output.
#
# Golden values are hand-checkable: isal-rs parity row 1 is 1,2,4,8, so
# rebuilding fragment 5 (k=4) from 3,2,1,0 uses 8,4,2,1; the vandermonde
# k=2 m=2 rows [3 2] [2 3] are derived in test_profile.c.

set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../selftests/lib/tap.sh"
ECCTL=${ECCTL:-$here/../ecctl/ecctl}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ecctl-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# run ARGS...: ecctl's stdout in $out, stderr in $err, status in $rc.
run() {
	capture "$ECCTL" "$@"
}

run -V
ver=$(sed -n 's/^#define ECP_VERSION "\(.*\)"/\1/p' "$here/../../kmod/ecproxy.h")
[ -n "$ver" ] && [ "$out" = "ecctl ecproxy-$ver" ] && [ $rc = 0 ] && tap_ok "-V prints the module's version ($ver)" ||
	tap_fail "-V prints the module's version: $out (want $ver)"
run -Version
[ "$out" = "ecctl ecproxy-$ver" ] && [ $rc = 0 ] && tap_ok "-Version too" || tap_fail "-Version: $out"

run help
case "$out" in *"OBJECT := { code | task | stats | monitor | gf | help }"*) tap_ok "help lists objects" ;; *) tap_fail "help lists objects" ;; esac

run code help
case "$out" in *"ecctl code assemble PROFILE"*"ecmeta"*) [ $rc = 0 ] && tap_ok "code help documents commands" || tap_fail "code help rc" ;; *) tap_fail "code help documents commands" ;; esac

golden1='profile isal-rs k 4 m 2 lost 5
survivors 3 2 1 0
coefficients 0x08 0x04 0x02 0x01'
tap_expect_out "coef golden text (isal-rs lost 5 from 3,2,1,0)" 0 "$golden1" \
	"$ECCTL" code coef isal-rs k 4 m 2 lost 5 avail 3,2,1,0
tap_expect_out "prefix matching: c co = code coef" 0 "$golden1" \
	"$ECCTL" c co isal-rs k 4 m 2 l 5 a 3,2,1,0

tap_expect_out "default survivors, XOR parity" 0 'profile isal-rs k 4 m 2 lost 1
survivors 0 2 3 4
coefficients 0x01 0x01 0x01 0x01' "$ECCTL" code coef isal-rs k 4 m 2 lost 1

tap_expect_out "matrix golden (vandermonde k 2 m 2)" 0 'profile vandermonde k 2 m 2
data    0: 0x01 0x00
data    1: 0x00 0x01
parity  2: 0x03 0x02
parity  3: 0x02 0x03' "$ECCTL" code matrix minio k 2 m 2

tap_expect_jq "-j coef: integer arrays survivors/coefficients" \
	'.survivors == [3,2,1,0] and .coefficients == [8,4,2,1] and .lost == 5 and .profile == "isal-rs"' \
	"$ECCTL" -j code coef isal-rs k 4 m 2 lost 5 avail 3,2,1,0
tap_expect_jq "-p pretty JSON is valid, alias resolved" \
	'.profile == "jerasure-rs" and (.survivors | length) == 4 and all(.coefficients[]; type == "number")' \
	"$ECCTL" -p code coef ceph-jerasure k 4 m 3 lost 2
tap_expect_jq "-j profiles lists all five" 'length == 5 and .[1].aliases == ["hdfs-rs"]' "$ECCTL" -j code profiles
tap_expect_jq "-j matrix: generator rows" '(.generator | length) == 5 and .generator[3] == [1,1,1] and .generator[4] == [1,2,4]' \
	"$ECCTL" -j code matrix isal-rs k 3 m 2

tap_expect_err "lost out of range" 2 'Error: "lost 9": fragment index must be < k+m (9)' \
	"$ECCTL" code coef isal-rs k 6 m 3 lost 9
tap_expect_err "k out of range" 2 'Error: "k 33": must be in 1..32' "$ECCTL" code coef isal-rs k 33 m 3 lost 1
tap_expect_err "too many erasures" 2 'Error: "avail 0,2,3": too many erasures: 3 fragments available, need k=4' \
	"$ECCTL" code coef isal-rs k 4 m 2 lost 1 avail 0,2,3
tap_expect_err "avail lists lost" 2 'Error: "avail 0,1,2,3": lists the lost fragment 1' \
	"$ECCTL" code coef isal-rs k 4 m 2 lost 1 avail 0,1,2,3
tap_expect_err "avail garbage" 2 'Error: "avail 0,x": expected comma-separated fragment indices' \
	"$ECCTL" code coef isal-rs k 4 m 2 lost 1 avail 0,x
tap_expect_err "unknown command lists valid ones" 2 \
	'Error: unknown code command "frob"; valid: profiles, matrix, coef, encode, decode, assemble, help' "$ECCTL" code frob
tap_expect_err "unknown object lists valid ones" 2 'Error: unknown object "tusk"; valid: code, task, stats, monitor, gf, help' "$ECCTL" tusk
tap_expect_err "unknown keyword lists valid ones" 2 \
	'Error: unknown keyword "lots"; valid: k, m, matrix, lost, avail' "$ECCTL" code coef isal-rs k 4 m 2 lots 1
tap_expect_err "unknown profile lists valid ones" 2 \
	'Error: unknown profile "rs"; valid: isal-rs, isal-cauchy, hdfs-rs, jerasure-rs, ceph-jerasure, vandermonde, minio, klauspost, backblaze, matrix' \
	"$ECCTL" code coef rs k 4 m 2 lost 1
tap_expect_err "missing required keyword" 2 'Error: missing "lost I"' "$ECCTL" code coef isal-rs k 4 m 2
tap_expect_err "missing value" 2 'Error: "m": missing value M' "$ECCTL" code coef isal-rs k 4 m
tap_expect_err "matrix only for profile matrix" 2 'Error: "matrix 1,1": only profile matrix takes a matrix' \
	"$ECCTL" code coef isal-rs k 2 m 1 lost 0 matrix 1,1

run code coef isal-rs k 6 m 5 lost 0 avail 1,2,4,6,7,10
sugg=$(printf '%s' "$err" | sed -n 's/.*try avail \([0-9,]*\)$/\1/p')
if [ $rc = 1 ] && [ -n "$sugg" ] &&
   [ "$err" = "Error: \"avail 1,2,4,6,7,10\": survivor set 1,2,4,6,7,10 is singular for isal-rs k=6 m=5; try avail $sugg" ] &&
   "$ECCTL" code coef isal-rs k 6 m 5 lost 0 avail "$sugg" >/dev/null; then
	tap_ok "singular isal-rs set: exit 1, suggestion ($sugg) works"
else
	tap_fail "singular isal-rs set: exit 1, suggestion works" "rc=$rc err=$err"
fi

# usage text follows the error on stderr; check the first line
run -x code
[ $rc = 2 ] && [ "$(printf '%s\n' "$err" | head -1)" = 'Error: unknown option "-x"' ] && tap_ok "unknown option: first stderr line" || tap_fail "unknown option: first stderr line"

# file round trip
head -c 10007 /dev/urandom >"$tmp/in"
run code encode isal-cauchy k 4 m 2 in "$tmp/in" out "$tmp/frags"
if [ $rc = 0 ] && [ "$out" = "encoded 10007 bytes into 6 fragments of 2502 bytes in $tmp/frags" ] &&
   [ "$(wc -c <"$tmp/frags/frag.5")" -eq 2502 ] && grep -qx 'length 10007' "$tmp/frags/ecmeta"; then
	tap_ok "encode: 6 fragments of ceil(10007/4) bytes, ecmeta"
else
	tap_fail "encode: 6 fragments" "rc=$rc out=$out err=$err"
fi

cp "$tmp/frags/frag.1" "$tmp/frag1.orig"
rm "$tmp/frags/frag.1" "$tmp/frags/frag.4"
run -j code decode hdfs-rs k 4 m 2 lost 1 dir "$tmp/frags" out "$tmp/frags/frag.1"
if [ $rc = 0 ] && cmp -s "$tmp/frag1.orig" "$tmp/frags/frag.1" &&
   printf '%s' "$out" | jq -e '.survivors == [0,2,3,5] and .fragsize == 2502' >/dev/null; then
	tap_ok "decode: rebuilt missing data fragment from present ones"
else
	tap_fail "decode: rebuilt missing data fragment" "rc=$rc out=$out err=$err"
fi

rm "$tmp/frags/frag.0"
run code assemble isal-cauchy k 4 m 2 dir "$tmp/frags" out "$tmp/out.bin"
if [ $rc = 0 ] && cmp -s "$tmp/in" "$tmp/out.bin"; then
	tap_ok "assemble with fragments 0 and 4 missing restores the input"
else
	tap_fail "assemble restores the input" "rc=$rc out=$out err=$err"
fi

tap_expect_err "decode with a different profile than ecmeta (usage error)" 2 \
	'Error: fragment set was encoded with isal-cauchy k 4 m 2, not isal-rs k 4 m 2' \
	"$ECCTL" code decode isal-rs k 4 m 2 lost 0 dir "$tmp/frags" out "$tmp/x"

# --- striped layout: encode, decode, assemble --------------------------------
# layout_len BLOCK CELL K FRAG: the exact length of a fragment, by the rule of
# "ecctl code help" (parity as long as data fragment 0).
layout_len() {
	local block=$1 cell=$2 k=$3 f=$4 stripe full rest t
	stripe=$((cell * k)); full=$((block / stripe)); rest=$((block - full * stripe))
	[ "$f" -lt "$k" ] || f=0
	t=$((rest - f * cell)); [ $t -gt 0 ] || t=0; [ $t -lt "$cell" ] || t=$cell
	echo $((full * cell + t))
}

run code help
case "$out" in *"[ cell SIZE [ block BYTES ] ]"*"[ block BYTES cell SIZE ] dir DIR"*"layout striped"*)
	tap_ok "code help documents block and cell" ;;
*) tap_fail "code help documents block and cell" ;; esac

# HDFS's RS-6-3: blocks ending mid-cell and mid-stripe, shorter than a cell,
# with 4 KiB and 1 MiB cells.  Each: exact fragment sizes and ecmeta, every
# fragment rebuilt alone, the block assembled without three fragments.
for spec in 4k:$((4096 * 18 + 4096 * 2 + 1000)):mid-cell 4k:$((4096 * 12 + 4096 * 4)):mid-stripe \
	    4k:1000:short 1m:$(((6 << 20) + (5 << 19))):mid-cell 1m:$((9 << 20)):mid-stripe; do
	cell=${spec%%:*}; rest=${spec#*:}; block=${rest%%:*}; what=${rest#*:}
	case $cell in 4k) c=4096 ;; 1m) c=1048576 ;; esac
	d="$tmp/s-$cell-$block"
	desc="striped RS(6,3) cell $cell block $block ($what)"
	head -c "$block" /dev/urandom > "$d.in"
	run code encode hdfs-rs k 6 m 3 cell "$cell" in "$d.in" out "$d"
	sizes=ok
	for i in 0 1 2 3 4 5 6 7 8; do
		[ "$(wc -c < "$d/frag.$i")" = "$(layout_len "$block" $c 6 "$i")" ] || sizes="frag.$i: $(wc -c < "$d/frag.$i") bytes"
	done
	if [ $rc = 0 ] && [ $sizes = ok ] && grep -qx 'layout striped' "$d/ecmeta" &&
	   grep -qx "cell $c" "$d/ecmeta" && grep -qx "length $block" "$d/ecmeta"; then
		tap_ok "$desc: encode, exact fragment sizes, ecmeta"
	else
		tap_fail "$desc: encode, exact fragment sizes, ecmeta" "rc=$rc $sizes" "$out" "$err"
	fi
	bad=
	for i in 0 1 2 3 4 5 6 7 8; do
		"$ECCTL" code decode hdfs-rs k 6 m 3 lost "$i" dir "$d" out "$d.r$i" >/dev/null 2>&1 &&
			cmp -s "$d.r$i" "$d/frag.$i" || bad="$bad $i"
	done
	[ -z "$bad" ] && tap_ok "$desc: decode rebuilds each fragment exactly" ||
		tap_fail "$desc: decode rebuilds each fragment exactly" "wrong:$bad"
	rm "$d/frag.0" "$d/frag.2" "$d/frag.7"
	run code assemble hdfs-rs k 6 m 3 dir "$d" out "$d.out"
	if [ $rc = 0 ] && [ "$(sha256sum < "$d.out")" = "$(sha256sum < "$d.in")" ]; then
		tap_ok "$desc: assemble without 0, 2 and 7 gives the block (sha256)"
	else
		tap_fail "$desc: assemble without 0, 2 and 7 gives the block (sha256)" "rc=$rc" "$err"
	fi
done

# Without ecmeta the layout is given, and checked against ecmeta when there is one.
d="$tmp/s-4k-$((4096 * 18 + 4096 * 2 + 1000))"
blk=$((4096 * 18 + 4096 * 2 + 1000))
run code decode hdfs-rs k 6 m 3 lost 2 dir "$d" out "$tmp/x" block "$blk" cell 2k
if [ $rc = 2 ] && [ "$err" = "Error: block $blk cell 2048: $d/ecmeta records block $blk cell 4096" ]; then
	tap_ok "decode: block/cell other than ecmeta's refused (usage error)"
else
	tap_fail "decode: block/cell other than ecmeta's refused (usage error)" "rc=$rc" "$err"
fi
mv "$d/ecmeta" "$d/ecmeta.off"
run -j code decode hdfs-rs k 6 m 3 lost 2 dir "$d" out "$tmp/x" block "$blk" cell 4k
if [ $rc = 0 ] && cmp -s "$tmp/x" "$d.r2" && printf '%s' "$out" | jq -e ".fragsize == $(layout_len $blk 4096 6 2)" >/dev/null; then
	tap_ok "decode without ecmeta, block and cell given: the exact fragment"
else
	tap_fail "decode without ecmeta, block and cell given: the exact fragment" "rc=$rc" "$out" "$err"
fi
run code assemble hdfs-rs k 6 m 3 dir "$d" out "$tmp/x" block "$blk" cell 4k
if [ $rc = 0 ] && cmp -s "$tmp/x" "$d.in"; then
	tap_ok "assemble without ecmeta, block and cell given: the block"
else
	tap_fail "assemble without ecmeta, block and cell given: the block" "rc=$rc" "$err"
fi
mv "$d/ecmeta.off" "$d/ecmeta"

head -c 999 "$d/frag.3" > "$tmp/short" && cp "$tmp/short" "$d/frag.3"
tap_expect_err "decode: a survivor of the wrong length names it and both lengths" 1 \
	"Error: $d/frag.3 has 999 bytes, expected $(layout_len $blk 4096 6 3)" \
	"$ECCTL" code decode hdfs-rs k 6 m 3 lost 0 avail 1,3,4,5,6,8 dir "$d" out "$tmp/x"
tap_expect_err "encode: block other than the file's size (usage error)" 2 \
	"Error: \"block 1000\": $d.in has $blk bytes" \
	"$ECCTL" code encode hdfs-rs k 6 m 3 cell 4k block 1000 in "$d.in" out "$tmp/nope"
[ ! -e "$tmp/nope" ] && tap_ok "encode: nothing written on a usage error" ||
	tap_fail "encode: nothing written on a usage error"
tap_expect_err "encode: cell 0 (usage error)" 2 'Error: "cell 0": must be in 1..4294967295' \
	"$ECCTL" code encode hdfs-rs k 6 m 3 cell 0 in "$d.in" out "$tmp/nope"
tap_expect_err "encode: bad cell size" 2 'Error: "cell 4q": not a size (suffixes k, m, g)' \
	"$ECCTL" code encode hdfs-rs k 6 m 3 cell 4q in "$d.in" out "$tmp/nope"
tap_expect_err "decode: block without cell" 2 'Error: "block 1000": needs "cell SIZE"' \
	"$ECCTL" code decode hdfs-rs k 6 m 3 lost 1 block 1000 dir "$d" out "$tmp/x"
tap_expect_err "assemble: length with block and cell" 2 \
	'Error: "length 5": not with block and cell (the block is the length)' \
	"$ECCTL" code assemble hdfs-rs k 6 m 3 length 5 block 1000 cell 4k dir "$d" out "$tmp/x"
lens=$(for i in 0 1 2 3 4 5 6 7 8; do layout_len $blk 4096 6 $i; done | paste -sd,)
tap_expect_jq "-j encode with cell: layout, cell and every fragment's length" \
	".layout == \"striped\" and .cell == 4096 and .length == $blk and .lengths == [$lens]" \
	"$ECCTL" -j code encode hdfs-rs k 6 m 3 cell 4k block "$blk" in "$d.in" out "$tmp/s-json"

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
	tap_ok "batch stops at the first failing line and names it"
else
	tap_fail "batch stops at the first failing line and names it" "rc=$rc out=$out err=$(cat "$tmp/err")"
fi
out=$("$ECCTL" -force -b - < "$tmp/batch" 2>"$tmp/err"); rc=$?
if [ $rc = 2 ] && [ "$(printf '%s\n' "$out" | grep -c '^survivors')" = 3 ] &&
   grep -qx 'Command failed -:5' "$tmp/err"; then
	tap_ok "batch -force from stdin runs every line"
else
	tap_fail "batch -force from stdin runs every line" "rc=$rc out=$out err=$(cat "$tmp/err")"
fi
printf 'code coef "isal-rs k 3\n' > "$tmp/batch2"
tap_expect_err "batch rejects an unbalanced quote" 2 \
	"Error: $tmp/batch2:1: unbalanced quote or too many words
Command failed $tmp/batch2:1" "$ECCTL" -batch "$tmp/batch2"

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
	"Usage: ecctl"*) [ $rc = 0 ] && [ -z "$err" ] && tap_ok "\"ecctl $cmd\": usage, exit 0" ||
		tap_fail "\"ecctl $cmd\": rc=$rc err=$err" ;;
	*) tap_fail "\"ecctl $cmd\": usage, exit 0" \
		"rc=$rc out=$(printf '%s' "$out" | head -1) err=$err" ;;
	esac
done
run task help
case "$out" in *"ecctl task change id ID [ rate { RATE | none } ] [ client { PREFIX | any } ]"*) tap_ok "task help documents change" ;; *) tap_fail "task help documents change" ;; esac
run monitor help
case "$out" in *"task ID failed [ client ADDR:PORT ] error REASON [ source I ADDR:PORT ]"*) tap_ok "monitor help documents the failed line" ;; *) tap_fail "monitor help documents the failed line" ;; esac
run stats help
case "$out" in *"ecctl stats reset [ id ID ]"*) tap_ok "stats help documents reset" ;; *) tap_fail "stats help documents reset" ;; esac

# Prefixes: objects, commands and keywords, iproute2 style.
"$ECCTL" code profiles > "$tmp/full"
tap_expect_out "\"c p\" is \"code profiles\"" 0 "$(cat "$tmp/full")" "$ECCTL" c p
tap_expect_out "\"t help\" is \"task help\"" 0 "$("$ECCTL" task help)" "$ECCTL" t help
# Commands resolve to the first one listed, as in ip(8): "s" is still show.
tap_expect_err "\"t s id x\" is \"task show id x\" (the first command starting with s)" 2 \
	'Error: "id x": not an integer' "$ECCTL" t s id x
tap_expect_err "\"t st\" is \"task start\"" 2 'Error: missing "id ID"' "$ECCTL" t st
tap_expect_err "ambiguous keyword lists the candidates" 2 \
	'Error: ambiguous keyword "c": could be client, code, coef, cell, check' \
	"$ECCTL" task add id 1 c 10.0.0.1
tap_expect_err "unknown task command lists valid ones" 2 \
	'Error: unknown task command "move"; valid: add, change, del, show, start, list, flush, help' "$ECCTL" task move
tap_expect_err "unknown stats command lists valid ones" 2 \
	'Error: unknown stats command "clear"; valid: show, reset, help' "$ECCTL" stats clear
tap_expect_err "unknown gf command lists valid ones" 2 \
	'Error: unknown gf command "list"; valid: show, help' "$ECCTL" gf list

# Usage errors (exit 2) of the kernel commands are caught before netlink,
# each naming the offending argument.
tap_expect_err "task change: unchangeable keyword" 2 \
	'Error: unknown keyword "vip"; valid: id, client, buffer, timeout, rate' "$ECCTL" task change id 1 vip 10.0.0.1
tap_expect_err "task change: id is required" 2 'Error: missing "id ID"' "$ECCTL" task change buffer 64k
tap_expect_err "task change: nothing to change" 2 \
	'Error: task change id 7: nothing to change; give rate, client, buffer or timeout' "$ECCTL" task change id 7
tap_expect_err "task change: bad size" 2 'Error: "buffer 12q": not a size (suffixes k, m, g)' "$ECCTL" task change id 7 buffer 12q
tap_expect_err "task change: bad client" 2 'Error: "client 10.0.0.300": not an IPv4 address' \
	"$ECCTL" task change id 7 client 10.0.0.300
tap_expect_err "task change: unknown timeout" 2 \
	'Error: "timeout fast": expected handshake, idle or linger and MS' "$ECCTL" task change id 7 timeout fast 10
tap_expect_err "task change: timeout without value" 2 'Error: "timeout idle": missing value MS' \
	"$ECCTL" task change id 7 timeout idle
tap_expect_err "task change: timeout given twice" 2 'Error: "timeout idle 2000": given twice' \
	"$ECCTL" task change id 7 timeout idle 1000 idle 2000
tap_expect_err "task add: bad id" 2 'Error: "id one": not an integer' "$ECCTL" task add id one vip 10.0.0.1 port 1
tap_expect_err "task add: bad source" 2 'Error: "source 10.0.0.1": expected ADDR:PORT[:FRAG]' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 source 10.0.0.1
tap_expect_err "task add: vip is required" 2 'Error: missing "vip ADDR"' "$ECCTL" task add id 1 port 1
tap_expect_err "task add: coef before any source" 2 'Error: "coef 3": must follow a source' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 coef 3
tap_expect_err "task add: k without code" 2 'Error: k, m, lost and matrix need "code PROFILE"' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 k 3 source 10.0.0.2:1 coef 1
# Coding tasks: several lost fragments, targets, reads, layouts, rates.
S6="source 10.0.1.1:1:0 source 10.0.1.2:1:2 source 10.0.1.3:1:3 source 10.0.1.4:1:4 source 10.0.1.5:1:5 source 10.0.1.6:1:7"
# shellcheck disable=SC2086 # S6 is a list of words
{
tap_expect_err "task add: several lost fragments need targets or a read" 2 \
	'Error: "lost 1,6": a client reads one fragment; several lost fragments need dest targets or read' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 1,6 $S6
tap_expect_err "task add: a target names its fragment" 2 \
	'Error: "dest 10.0.2.1:9000": name the fragment it stores, ADDR:PORT:FRAG' \
	"$ECCTL" task add id 1 vip 10.0.0.1 code isal-cauchy k 6 m 3 lost 1 $S6 dest 10.0.2.1:9000
tap_expect_err "task add: a target of a fragment that is not lost" 2 \
	'Error: "dest 10.0.2.2:9000:8": fragment 8 is not lost (lost 1,6)' \
	"$ECCTL" task add id 1 vip 10.0.0.1 code isal-cauchy k 6 m 3 lost 1,6 $S6 \
	dest 10.0.2.1:9000:1 dest 10.0.2.2:9000:8
tap_expect_err "task add: a target per lost fragment" 2 \
	'Error: "lost 1,6": 2 lost fragments but 1 dest targets' \
	"$ECCTL" task add id 1 vip 10.0.0.1 code isal-cauchy k 6 m 3 lost 1,6 $S6 dest 10.0.2.1:9000:1
tap_expect_err "task add: more lost than m" 2 \
	'Error: "lost 1,6,8,2": 4 fragments lost, m=3 can be rebuilt' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 1,6,8,2 $S6
tap_expect_err "task add: a source serving a lost fragment" 2 \
	'Error: "source 10.0.1.2:1:2": fragment 2 is lost' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 2 $S6
# A spare: one more survivor, not lost, not a source's, no layout.
tap_expect_err "task add: a lost fragment as the spare" 2 \
	'Error: "spare 10.0.1.7:1:1": fragment 1 is lost' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 1 $S6 spare 10.0.1.7:1:1
tap_expect_err "task add: a source's fragment as the spare" 2 \
	'Error: "spare 10.0.1.7:1:3": fragment 3 is source 10.0.1.3:1:3 already' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 1 $S6 spare 10.0.1.7:1:3
tap_expect_err "task add: a spare names its fragment" 2 \
	'Error: "spare 10.0.1.7:1": with code, give the fragment as ADDR:PORT:FRAG' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 1 $S6 spare 10.0.1.7:1
tap_expect_err "task add: a spare with a layout" 2 \
	'Error: "spare 10.0.1.7:1:6": only for a pull or dest task without block' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 1 $S6 spare 10.0.1.7:1:6 block 1m cell 4k
tap_expect_err "task add: a spare for a read" 2 \
	'Error: "spare 10.0.1.7:1:6": only for a pull or dest task without block' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 1 $S6 spare 10.0.1.7:1:6 read block 1m cell 4k
tap_expect_err "task add: a fragment as two spares" 2 \
	'Error: "spare 10.0.1.8:1:6": fragment 6 is spare 10.0.1.7:1:6 already' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 1 $S6 spare 10.0.1.7:1:6 spare 10.0.1.8:1:6
tap_expect_err "task add: at most four spares" 2 \
	'Error: "spare 10.0.1.9:1:9": at most 4 spares' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 1 $S6 spare 10.0.1.7:1:6 \
	spare 10.0.1.8:1:8 spare 10.0.1.9:1:8 spare 10.0.1.9:1:8 spare 10.0.1.9:1:9
tap_expect_err "task add: check coefficients are bytes" 2 \
	'Error: "check 3,256": expected comma-separated coefficients 0..255' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 source 10.0.1.1:1 coef 1 check 3,256
tap_expect_err "task add: check coefficients are ecctl's with code" 2 \
	'Error: "source 10.0.1.1:1:0": check cannot be combined with code' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 1 \
	source 10.0.1.1:1:0 check 3 source 10.0.1.2:1:2 source 10.0.1.3:1:3 \
	source 10.0.1.4:1:4 source 10.0.1.5:1:5 source 10.0.1.6:1:7 spare 10.0.1.7:1:6
tap_expect_err "task add: check before any source" 2 'Error: "check 3": must follow a source' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 check 3
tap_expect_err "task add: a read rebuilds data fragments only" 2 \
	'Error: "lost 6": a read rebuilds data fragments (0..5), not 6' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 6 $S6 read block 1m cell 4k
tap_expect_err "task add: read and dest exclude each other" 2 \
	'Error: "read" serves a client; it cannot be combined with dest' \
	"$ECCTL" task add id 1 vip 10.0.0.1 code isal-cauchy k 6 m 3 lost 1 $S6 read dest 10.0.2.1:9000:1
tap_expect_err "task add: block without cell" 2 'Error: block and cell go together: give both or neither' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 1 $S6 block 1m
tap_expect_err "task add: a layout needs code" 2 \
	'Error: dest, read and block need "code PROFILE k K m M lost I"' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 source 10.0.1.1:1 coef 1 block 1m cell 4k
tap_expect_err "task add: a pull task needs a port" 2 \
	'Error: missing "port PORT" (only dest tasks go without)' \
	"$ECCTL" task add id 1 vip 10.0.0.1 code isal-cauchy k 6 m 3 lost 1 $S6
tap_expect_err "task add: rate in an unknown unit" 2 \
	'Error: "rate 5furlongs": unknown unit "furlongs" (bit, kbit, mbit, gbit, bps, kbps, mbps, gbps, ...)' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 1 $S6 rate 5furlongs
tap_expect_err "task add: a rate below a byte per second" 2 \
	'Error: "rate 7bit": below 1 byte/s (8bit); 0 or none lifts the cap' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy k 6 m 3 lost 1 $S6 rate 7bit
tap_expect_err "task change: rate not a rate" 2 'Error: "rate fast": not a rate' \
	"$ECCTL" task change id 1 rate fast
# The write path: encode.
D5="dest 10.0.2.1:9:0 dest 10.0.2.2:9:1 dest 10.0.2.3:9:2 dest 10.0.2.4:9:3 dest 10.0.2.5:9:4"
tap_expect_err "task add: encode needs a cell and no block" 2 \
	'Error: encode needs "cell SIZE" and takes no block: the writer'"'"'s stream is the block' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 encode isal-cauchy k 3 m 2 $D5
tap_expect_err "task add: encode takes no sources" 2 \
	'Error: encode takes no source: the writer sends the data' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 encode isal-cauchy k 3 m 2 cell 4k \
	source 10.0.1.1:1:0 $D5
tap_expect_err "task add: encode takes no lost" 2 \
	'Error: encode takes no lost: the writer sends the data' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 encode isal-cauchy k 3 m 2 cell 4k lost 1 $D5
tap_expect_err "task add: encode needs a port" 2 \
	'Error: missing "port PORT": the writer connects to it' \
	"$ECCTL" task add id 1 vip 10.0.0.1 encode isal-cauchy k 3 m 2 cell 4k $D5
tap_expect_err "task add: encode needs a target per fragment" 2 \
	'Error: encode with k=3 m=2 needs 5 dest targets, got 4' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 encode isal-cauchy k 3 m 2 cell 4k \
	dest 10.0.2.1:9:0 dest 10.0.2.2:9:1 dest 10.0.2.3:9:2 dest 10.0.2.4:9:3
tap_expect_err "task add: encode, one target per fragment" 2 \
	'Error: "dest 10.0.2.5:9:3": fragment 3 already goes to 10.0.2.4:9:3' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 encode isal-cauchy k 3 m 2 cell 4k \
	dest 10.0.2.1:9:0 dest 10.0.2.2:9:1 dest 10.0.2.3:9:2 dest 10.0.2.4:9:3 dest 10.0.2.5:9:3
tap_expect_err "task add: code and encode exclude each other" 2 \
	'Error: "encode isal-cauchy": a task has one code' \
	"$ECCTL" task add id 1 vip 10.0.0.1 port 1 code isal-cauchy encode isal-cauchy k 3 m 2 cell 4k $D5
}
tap_expect_err "task start: id is required" 2 'Error: missing "id ID"' "$ECCTL" task start
tap_expect_err "task del: id is required" 2 'Error: missing "id ID"' "$ECCTL" task del
tap_expect_err "task flush takes no arguments" 2 'Error: "now": flush takes no arguments' "$ECCTL" task flush now
tap_expect_err "stats reset: bad id" 2 'Error: "id -1": must be in 0..4294967295' "$ECCTL" stats reset id -1
tap_expect_err "stats show takes no arguments" 2 'Error: "id": stats show takes no arguments' "$ECCTL" stats show id 1
tap_expect_err "monitor takes no arguments" 2 \
	'Error: "task": monitor takes no arguments; see "ecctl monitor help"' "$ECCTL" monitor task 1
tap_expect_err "gf show takes no arguments" 2 'Error: "x": gf show takes no arguments' "$ECCTL" gf show x
tap_expect_err "-n needs a name" 2 'Error: "-n" needs a namespace name' "$ECCTL" -n
tap_expect_err "-batch needs a file" 2 'Error: "-batch" needs a file name (or -)' "$ECCTL" -batch

# Runtime errors exit 1.  Without the module (not loaded, not installed:
# no autoload), every kernel command says so.
if [ ! -d /sys/module/ecproxy ] && ! modinfo ecproxy >/dev/null 2>&1; then
	for cmd in "task show" "stats" "gf" "monitor" "task del id 1" "stats reset"; do
		# shellcheck disable=SC2086
		run $cmd
		if [ $rc = 1 ] && [ "$err" = 'Error: the ecproxy module is not loaded (no generic netlink family "ecproxy")' ]; then
			tap_ok "\"ecctl $cmd\" without the module: exit 1, says so"
		else
			tap_fail "\"ecctl $cmd\" without the module: exit 1, says so" \
				"rc=$rc err=$err"
		fi
	done
else
	for cmd in "task show" "stats" "gf" "monitor" "task del id 1" "stats reset"; do
		tap_ok "\"ecctl $cmd\" without the module # SKIP the module is installed here"
	done
fi

# -j and -p on every pure-userspace show command, checked by python's parser
# as well as jq.
for cmd in "code profiles" "code matrix isal-rs k 3 m 2" "code coef hdfs-rs k 6 m 3 lost 2"; do
	for opt in -j -p; do
		# shellcheck disable=SC2086
		run $opt $cmd
		if [ $rc = 0 ] && printf '%s' "$out" | python3 -m json.tool >/dev/null 2>&1; then
			tap_ok "ecctl $opt $cmd: valid JSON"
		else
			tap_fail "ecctl $opt $cmd: valid JSON"
		fi
	done
done
run -p code coef hdfs-rs k 6 m 3 lost 2
[ "$(printf '%s\n' "$out" | wc -l)" -gt 5 ] && tap_ok "-p indents" || tap_fail "-p indents"

# code coef, complete: the HDFS RS-6-3 and Ceph jerasure examples of ecctl(8).
tap_expect_out "code coef hdfs-rs k 6 m 3 lost 2 (golden, the ecctl(8) example)" 0 \
'profile isal-cauchy k 6 m 3 lost 2
survivors 0 1 3 4 5 6
coefficients 0xf5 0xd2 0xa6 0x02 0xf7 0x04' "$ECCTL" code coef hdfs-rs k 6 m 3 lost 2
tap_expect_jq "-j code coef hdfs-rs: the same, as JSON" \
	'.profile == "isal-cauchy" and .k == 6 and .m == 3 and .lost == 2 and .survivors == [0,1,3,4,5,6] and .coefficients == [245,210,166,2,247,4]' \
	"$ECCTL" -j code coef hdfs-rs k 6 m 3 lost 2
tap_expect_out "code coef ceph-jerasure parity from the data (the ecctl(8) example)" 0 \
"$(printf 'profile jerasure-rs k 4 m 2 lost 5\nsurvivors 0 1 2 3\ncoefficients %s' \
	"$("$ECCTL" code matrix ceph-jerasure k 4 m 2 | sed -n 's/^parity  5: //p')")" \
	"$ECCTL" code coef ceph-jerasure k 4 m 2 lost 5 avail 0,1,2,3
echo "# ecctl_cli: $((tap_n - tap_failed)) passed, $tap_failed failed"
tap_done
