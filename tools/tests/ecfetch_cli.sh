#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# CLI test for ecfetch on the loopback, with socat as the fragment servers
# and as a stand-in for the proxy: the fallback to native decoding (refused,
# wrong bytes), nofallback, -o rewinding, JSON summary, exit codes
# (0 fetched, 3 by the fallback, 1 failed, 2 usage).  The degraded read of a
# striped block (ecctl code encode ... cell): native with 1 and m lost data
# fragments, 4 KiB and 1 MiB cells, and read falling back to it.  TAP output.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../selftests/lib/tap.sh"
ECFETCH=${ECFETCH:-$here/../ecfetch/ecfetch}
ECCTL=${ECCTL:-$here/../ecctl/ecctl}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ecfetch-cli.XXXXXX") || exit 1
pids=
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$tmp"' EXIT

tap_plan 24
if ! command -v socat >/dev/null || ! command -v jq >/dev/null; then
	for i in $(seq 24); do
		tap_skip "ecfetch CLI" "no socat or jq"
	done
	exit 0
fi

# Free loopback ports, picked by the kernel all at once: python starts
# slowly on a busy machine.  port: the next one, in $p.
read -r -a free_ports < <(python3 -c 'import socket
ss = [socket.socket() for _ in range(24)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
nport=0
port() { p=${free_ports[nport]}; nport=$((nport + 1)); }

head -c 1000000 /dev/urandom > "$tmp/in"
"$ECCTL" code encode isal-cauchy k 4 m 2 in "$tmp/in" out "$tmp/d" >/dev/null
want=$(sha256sum < "$tmp/d/frag.1" | cut -d' ' -f1)
srcs=
for i in 0 2 3 4; do
	port
	socat -U TCP-LISTEN:$p,bind=127.0.0.1,reuseaddr,fork OPEN:"$tmp/d/frag.$i",rdonly 2>/dev/null &
	pids="$pids $!"
	srcs="$srcs source 127.0.0.1:$p:$i"
done
# A "proxy" that serves the wrong bytes, and a closed port.
port; wrong=$p
socat -U TCP-LISTEN:$wrong,bind=127.0.0.1,reuseaddr,fork OPEN:"$tmp/d/frag.0",rdonly 2>/dev/null &
pids="$pids $!"
port; closed=$p
for p in $srcs $wrong; do
	case $p in 127.*) p=${p#127.0.0.1:}; p=${p%%:*}
		for t in $(seq 50); do ss -ltnH | grep -q ":$p " && break; sleep 0.1; done ;;
	esac
done
code="code isal-cauchy k 4 m 2 lost 1"

# run ARGS...: ecfetch's stdout in $out, stderr in $err, status in $rc.
run() {
	capture "$ECFETCH" "$@"
}

run -j -o "$tmp/nat" native $code $srcs sha256 "$want" size 250000
if [ $rc = 0 ] && cmp -s "$tmp/nat" "$tmp/d/frag.1" &&
   [ "$(echo "$out" | jq -r '.path, .fallback, .sha256_ok, .bytes' | tr '\n' ' ')" = "native false true 250000 " ]; then
	tap_ok "native: exact bytes, JSON summary"
else
	tap_fail "native: exact bytes, JSON summary" "rc=$rc" "$out" "$err"
fi

# The output file starts with junk the fallback must not leave behind.
head -c 2000000 /dev/urandom > "$tmp/fb"
run -j -o "$tmp/fb" proxy 127.0.0.1:$closed $code $srcs sha256 "$want"
if [ $rc = 3 ] && cmp -s "$tmp/fb" "$tmp/d/frag.1" &&
   [ "$(echo "$out" | jq -r '.path, .fallback, .fallback_reason, .sha256_ok' | tr '\n' ' ')" = "native true connect-failed true " ] &&
   echo "$err" | grep -q 'falling back to native'; then
	tap_ok "proxy refused: fallback delivers the exact bytes, exit 3, reported"
else
	tap_fail "proxy refused: fallback delivers the exact bytes, exit 3, reported" "rc=$rc" "$out" "$err"
fi

run -j -o "$tmp/fb2" proxy 127.0.0.1:$wrong $code $srcs sha256 "$want"
if [ $rc = 3 ] && cmp -s "$tmp/fb2" "$tmp/d/frag.1" &&
   [ "$(echo "$out" | jq -r .fallback_reason)" = sha256-mismatch ] &&
   echo "$err" | grep -q 'wrong bytes'; then
	tap_ok "proxy with wrong bytes: fallback, reported as sha256-mismatch"
else
	tap_fail "proxy with wrong bytes: fallback, reported as sha256-mismatch" "rc=$rc" "$out" "$err"
fi

run -j proxy 127.0.0.1:$wrong $code $srcs size 250001
# Wrong expected size: the proxy is short, and so is the fallback.
if [ $rc = 1 ] && [ "$(echo "$out" | jq -r '.fallback, .fallback_reason, .error' | tr '\n' ' ')" = "true short short " ]; then
	tap_ok "size mismatch: proxy and fallback both short, exit 1"
else
	tap_fail "size mismatch: proxy and fallback both short, exit 1" "rc=$rc" "$out" "$err"
fi

run -j proxy 127.0.0.1:$closed $code $srcs nofallback
if [ $rc = 1 ] && [ "$(echo "$out" | jq -r '.ok, .error' | tr '\n' ' ')" = "false connect-failed " ]; then
	tap_ok "nofallback: the refused proxy fails, exit 1"
else
	tap_fail "nofallback: the refused proxy fails, exit 1" "rc=$rc" "$out" "$err"
fi

run -j proxy 127.0.0.1:$closed
if [ $rc = 1 ]; then
	tap_ok "proxy without CODE cannot fall back, exit 1"
else
	tap_fail "proxy without CODE cannot fall back, exit 1" "rc=$rc" "$out" "$err"
fi

p=${srcs#* source 127.0.0.1:}; p=${p%%:*}
run -j copy 127.0.0.1:$p sha256 "$want"
if [ $rc = 1 ] && [ "$(echo "$out" | jq -r .error)" = sha256-mismatch ]; then
	tap_ok "copy of another fragment: sha256 mismatch, exit 1"
else
	tap_fail "copy of another fragment: sha256 mismatch, exit 1" "rc=$rc" "$out" "$err"
fi

run native code isal-cauchy k 4 m 2 lost 1 source 127.0.0.1:1:0
if [ $rc = 2 ] && echo "$err" | grep -q 'need exactly k=4 sources'; then
	tap_ok "usage: too few sources, exit 2"
else
	tap_fail "usage: too few sources, exit 2" "rc=$rc" "$err"
fi

run copy 127.0.0.1:1 sha256 xyz
if [ $rc = 2 ] && echo "$err" | grep -q 'expected 64 hex digits'; then
	tap_ok "usage: bad sha256, exit 2"
else
	tap_fail "usage: bad sha256, exit 2" "rc=$rc" "$err"
fi

# --- degraded reads of striped blocks --------------------------------------
# serve FILE: a fragment server for FILE; its port in $p.
serve() {
	port
	socat -U TCP-LISTEN:$p,bind=127.0.0.1,reuseaddr,fork OPEN:"$1",rdonly 2>/dev/null &
	pids="$pids $!"
	wait_for 5 sh -c "ss -ltnH | grep -q ':$p '"
}

# RS(4,2): 4 KiB cells ending mid-cell, 1 MiB cells ending mid-stripe.
b4=$((4096 * 4 * 20 + 4096 + 777))
b1=$(((1 << 20) * 4 * 2 + (2 << 20)))
head -c $b4 /dev/urandom > "$tmp/b4"
head -c $b1 /dev/urandom > "$tmp/b1"
"$ECCTL" code encode isal-cauchy k 4 m 2 cell 4k in "$tmp/b4" out "$tmp/s4" >/dev/null
"$ECCTL" code encode isal-cauchy k 4 m 2 cell 1m in "$tmp/b1" out "$tmp/s1" >/dev/null
declare -A src4 src1
for i in 0 1 2 3 4 5; do
	serve "$tmp/s4/frag.$i"; src4[$i]="source 127.0.0.1:$p:$i"
	serve "$tmp/s1/frag.$i"; src1[$i]="source 127.0.0.1:$p:$i"
done
head -c 999 "$tmp/s4/frag.3" > "$tmp/short3"
serve "$tmp/short3"; short3="source 127.0.0.1:$p:3"
sha4=$(sha256sum < "$tmp/b4" | cut -d' ' -f1)
sha1=$(sha256sum < "$tmp/b1" | cut -d' ' -f1)
code4="code isal-cauchy k 4 m 2"

# degraded DESC WANT-FILE ARGS...: a native read that must deliver WANT-FILE.
degraded() {
	local desc=$1 want=$2
	shift 2
	run -j -o "$tmp/got" "$@"
	if [ $rc = 0 ] && cmp -s "$tmp/got" "$want" &&
	   [ "$(echo "$out" | jq -r '.path, .fallback, .sha256_ok, .bytes' | tr '\n' ' ')" = "native false true $(wc -c < "$want") " ]; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "rc=$rc" "$out" "$err"
	fi
}

# shellcheck disable=SC2086
degraded "native degraded read, 4k cells mid-cell: data fragment 1 lost" "$tmp/b4" \
	native $code4 lost 1 ${src4[0]} ${src4[2]} ${src4[3]} ${src4[4]} block $b4 cell 4k sha256 "$sha4"
# shellcheck disable=SC2086
degraded "native degraded read, 4k cells: m=2 data fragments lost, parity survivors" "$tmp/b4" \
	native $code4 lost 0,2 ${src4[5]} ${src4[1]} ${src4[4]} ${src4[3]} block $b4 cell 4k sha256 "$sha4"
# shellcheck disable=SC2086
degraded "native degraded read, 1m cells mid-stripe: data fragments 0 and 3 lost" "$tmp/b1" \
	native $code4 lost 3,0 ${src1[1]} ${src1[2]} ${src1[4]} ${src1[5]} block 10m cell 1m sha256 "$sha1"
# shellcheck disable=SC2086
degraded "native degraded read, 1m cells: data fragment 2 lost" "$tmp/b1" \
	native $code4 lost 2 ${src1[0]} ${src1[1]} ${src1[3]} ${src1[5]} block $b1 cell 1024k sha256 "$sha1"

head -c 3000000 /dev/urandom > "$tmp/got"
# shellcheck disable=SC2086
run -j -o "$tmp/got" read 127.0.0.1:$closed $code4 lost 0,2 ${src4[1]} ${src4[3]} ${src4[4]} ${src4[5]} \
	block $b4 cell 4k sha256 "$sha4"
if [ $rc = 3 ] && cmp -s "$tmp/got" "$tmp/b4" &&
   [ "$(echo "$out" | jq -r '.mode, .path, .fallback, .fallback_reason, .sha256_ok' | tr '\n' ' ')" = "read native true connect-failed true " ] &&
   echo "$err" | grep -q "read 127.0.0.1:$closed failed: .*falling back to native"; then
	tap_ok "read from a dead VIP: native fallback, the block's hash, exit 3"
else
	tap_fail "read from a dead VIP: native fallback, the block's hash, exit 3" "rc=$rc" "$out" "$err"
fi

# A "VIP" serving a fragment instead of the block: too short, fallback.
# shellcheck disable=SC2086
run -j read 127.0.0.1:$wrong $code4 lost 1 ${src1[0]} ${src1[2]} ${src1[3]} ${src1[4]} block $b1 cell 1m
if [ $rc = 3 ] && [ "$(echo "$out" | jq -r '.fallback_reason, .sha256' | tr '\n' ' ')" = "short $sha1 " ]; then
	tap_ok "read of the wrong size from the VIP: fallback, the block's hash"
else
	tap_fail "read of the wrong size from the VIP: fallback, the block's hash" "rc=$rc" "$out" "$err"
fi

# shellcheck disable=SC2086
run -j read 127.0.0.1:$closed $code4 lost 1 ${src4[0]} ${src4[2]} ${src4[3]} ${src4[4]} block $b4 cell 4k nofallback
if [ $rc = 1 ] && [ "$(echo "$out" | jq -r '.fallback, .error' | tr '\n' ' ')" = "false connect-failed " ]; then
	tap_ok "read nofallback from a dead VIP: exit 1"
else
	tap_fail "read nofallback from a dead VIP: exit 1" "rc=$rc" "$out" "$err"
fi

# shellcheck disable=SC2086
run -j native $code4 lost 1 ${src4[0]} ${src4[2]} $short3 ${src4[4]} block $b4 cell 4k
sp=${short3#source 127.0.0.1:}; sp=${sp%%:*}
if [ $rc = 1 ] && [ "$(echo "$out" | jq -r .error)" = short ] &&
   echo "$err" | grep -q "127.0.0.1:$sp (fragment 3) ended after 999 of its $(wc -c < "$tmp/s4/frag.3") bytes"; then
	tap_ok "a survivor that closes early: failure naming it, exit 1"
else
	tap_fail "a survivor that closes early: failure naming it, exit 1" "rc=$rc" "$out" "$err"
fi
# shellcheck disable=SC2086
run -j read 127.0.0.1:$closed $code4 lost 1 ${src4[0]} ${src4[2]} $short3 ${src4[4]} block $b4 cell 4k
if [ $rc = 1 ] && [ "$(echo "$out" | jq -r '.fallback, .error' | tr '\n' ' ')" = "true short " ]; then
	tap_ok "read: a fallback with a short survivor fails, exit 1"
else
	tap_fail "read: a fallback with a short survivor fails, exit 1" "rc=$rc" "$out" "$err"
fi

# usage ERR ARGS...: exit 2 with ERR on stderr.
usage() {
	local want=$1
	shift
	run "$@"
	if [ $rc = 2 ] && echo "$err" | grep -qF "$want"; then
		tap_ok "usage: $want"
	else
		tap_fail "usage: $want" "rc=$rc" "$err"
	fi
}
s4="${src4[0]} ${src4[2]} ${src4[3]} ${src4[4]}"
# shellcheck disable=SC2086
usage 'lists a parity fragment' read 127.0.0.1:1 $code4 lost 4 $s4 block $b4 cell 4k
# shellcheck disable=SC2086
usage 'a lost fragment is a source' native $code4 lost 1,2 $s4 block $b4 cell 4k
# shellcheck disable=SC2086
usage '"lost 1,3,5": too many fragments' native $code4 lost 1,3,5 $s4 block $b4 cell 4k
# shellcheck disable=SC2086
usage '"block BYTES" and "cell SIZE" go together' native $code4 lost 1 $s4 block $b4
# shellcheck disable=SC2086
usage 'read: needs "block BYTES cell SIZE"' read 127.0.0.1:1 $code4 lost 1 $s4
# shellcheck disable=SC2086
usage '"cell 0": must be in 1..268435456' native $code4 lost 1 $s4 block $b4 cell 0
tap_done
