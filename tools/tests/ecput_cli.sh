#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# CLI test for ecput on the loopback, with socat as the storage nodes (each
# stores one connection into a file): the native write of a striped block
# (RS(4,2) and RS(6,3), 4 KiB and 1 MiB cells, a block ending mid-cell)
# against ecctl code encode's fragments, copy, the proxied write falling
# back to native when refused, nofallback, the JSON summary, usage errors
# and exit codes (0 stored, 3 by the fallback, 1 failed, 2 usage).  The
# proxied write itself needs the module: selftests/netns/coding_write.sh.
# TAP output.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../selftests/lib/tap.sh"
ECPUT=${ECPUT:-$here/../ecput/ecput}
ECCTL=${ECCTL:-$here/../ecctl/ecctl}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ecput-cli.XXXXXX") || exit 1
pids=
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$tmp"' EXIT

tap_plan 13
if ! command -v socat >/dev/null || ! command -v jq >/dev/null; then
	for i in $(seq 13); do
		tap_skip "ecput CLI" "no socat or jq"
	done
	exit 0
fi

read -r -a free_ports < <(python3 -c 'import socket
ss = [socket.socket() for _ in range(40)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
nport=0
port() { p=${free_ports[nport]}; nport=$((nport + 1)); }

# nodes DIR N: N storage nodes on the loopback, node f storing what it
# receives into DIR/got.f (each connection from the start of the file);
# dests is the list of them in ecput's syntax.
nodes() {
	dests=()
	for f in $(seq 0 $(($2 - 1))); do
		port
		socat -u TCP-LISTEN:$p,bind=127.0.0.1,reuseaddr,fork \
			SYSTEM:"cat > $1/got.$f" 2>/dev/null &
		pids="$pids $!"
		dests+=(dest "127.0.0.1:$p:$f")
	done
	sleep 0.3
}

# stored DIR N: every node has its fragment, byte for byte.
stored() {
	for f in $(seq 0 $(($2 - 1))); do
		cmp -s "$1/frag.$f" "$1/got.$f" || return 1
	done
}

# case_native DESC PROFILE K M BYTES CELL
case_native() {
	local d=$tmp/$RANDOM
	mkdir -p "$d"
	head -c "$5" /dev/urandom > "$d/in"
	"$ECCTL" code encode "$2" k "$3" m "$4" cell "$6" in "$d/in" out "$d" >/dev/null
	nodes "$d" $(($3 + $4))
	if "$ECPUT" -q native encode "$2" k "$3" m "$4" cell "$6" "${dests[@]}" "$d/in" &&
		stored "$d" $(($3 + $4)); then
		tap_ok "$1"
	else
		tap_fail "$1" "a fragment differs from ecctl code encode's"
	fi
}
case_native "native: RS(4,2) isal-cauchy, 4 KiB cells, block ends mid-cell" \
	isal-cauchy 4 2 $((4 * 65536 + 1234)) 4096
case_native "native: RS(6,3) jerasure-rs, 1 MiB cells, a partial stripe" \
	jerasure-rs 6 3 $((6 * 1048576 + 2 * 1048576 + 5)) 1048576
case_native "native: a 1-byte block" vandermonde 4 2 1 4096

d=$tmp/copy
mkdir -p "$d"
head -c 300000 /dev/urandom > "$d/in"
port
socat -u TCP-LISTEN:$p,bind=127.0.0.1,reuseaddr SYSTEM:"cat > $d/got" 2>/dev/null &
pids="$pids $!"
sleep 0.3
tap_expect_jq "copy: the file as it is, JSON summary" '.path == "copy" and .ok' \
	"$ECPUT" -j -q copy 127.0.0.1:$p "$d/in"
tap_check "copy: stored byte for byte" cmp -s "$d/in" "$d/got"

# The proxy refuses (a closed port): the fallback writes natively.
d=$tmp/fb
mkdir -p "$d"
head -c 200000 /dev/urandom > "$d/in"
"$ECCTL" code encode isal-cauchy k 4 m 2 cell 4096 in "$d/in" out "$d" >/dev/null
nodes "$d" 6
port
closed=$p
"$ECPUT" -j -q proxy 127.0.0.1:$closed encode isal-cauchy k 4 m 2 cell 4096 "${dests[@]}" \
	"$d/in" > "$d/json"
rc=$?
tap_expect_jq "proxy refused: falls back to native, exit 3" \
	".path == \"native\" and .ok and .fallback and (.fallback_reason | test(\"refused\")) and $rc == 3" \
	cat "$d/json"
tap_check "the fallback stored every fragment" stored "$d" 6
tap_expect_err "nofallback: a refused proxy fails, exit 1" 1 \
	"ecput: proxy: connect: Connection refused" \
	"$ECPUT" -q proxy 127.0.0.1:$closed nofallback "$d/in"

# Usage errors.
tap_expect_err "usage: the fallback needs the code" 2 \
	'ecput: proxy: the fallback needs CODE (or say nofallback) (see ecput -h)' \
	"$ECPUT" proxy 127.0.0.1:1 "$d/in"
tap_expect_err "usage: a dest per fragment" 2 \
	'ecput: CODE needs a dest for every fragment 0..k+m-1 (see ecput -h)' \
	"$ECPUT" native encode isal-cauchy k 2 m 1 cell 4k dest 127.0.0.1:1:0 dest 127.0.0.1:1:1 "$d/in"
tap_expect_err "usage: a fragment's target twice" 2 \
	'ecput: "dest 127.0.0.1:2:0": that fragment has a target already (see ecput -h)' \
	"$ECPUT" native encode isal-cauchy k 2 m 1 cell 4k dest 127.0.0.1:1:0 dest 127.0.0.1:2:0 "$d/in"
tap_expect_err "usage: copy takes no code" 2 \
	'ecput: copy: takes no code or targets (see ecput -h)' \
	"$ECPUT" copy 127.0.0.1:1 encode isal-cauchy "$d/in"
tap_expect_err "usage: unknown mode" 2 'ecput: unknown mode "get" (see ecput -h)' \
	"$ECPUT" get 127.0.0.1:1 "$d/in"
tap_done
