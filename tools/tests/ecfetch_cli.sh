#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# CLI test for ecfetch on the loopback, with socat as the fragment servers
# and as a stand-in for the proxy: the fallback to native decoding (refused,
# wrong bytes), nofallback, -o rewinding, JSON summary, exit codes
# (0 fetched, 3 by the fallback, 1 failed, 2 usage).  TAP output.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../selftests/lib/tap.sh"
ECFETCH=${ECFETCH:-$here/../ecfetch/ecfetch}
ECCTL=${ECCTL:-$here/../ecctl/ecctl}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ecfetch-cli.XXXXXX") || exit 1
pids=
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$tmp"' EXIT

tap_plan 9
if ! command -v socat >/dev/null || ! command -v jq >/dev/null; then
	for i in $(seq 9); do
		tap_skip "ecfetch CLI" "no socat or jq"
	done
	exit 0
fi

# Free loopback ports: let the kernel pick, six in a row is not needed.
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

head -c 1000000 /dev/urandom > "$tmp/in"
"$ECCTL" code encode isal-cauchy k 4 m 2 in "$tmp/in" out "$tmp/d" >/dev/null
want=$(sha256sum < "$tmp/d/frag.1" | cut -d' ' -f1)
srcs=
for i in 0 2 3 4; do
	p=$(port)
	socat -U TCP-LISTEN:$p,bind=127.0.0.1,reuseaddr,fork OPEN:"$tmp/d/frag.$i",rdonly 2>/dev/null &
	pids="$pids $!"
	srcs="$srcs source 127.0.0.1:$p:$i"
done
# A "proxy" that serves the wrong bytes, and a closed port.
wrong=$(port)
socat -U TCP-LISTEN:$wrong,bind=127.0.0.1,reuseaddr,fork OPEN:"$tmp/d/frag.0",rdonly 2>/dev/null &
pids="$pids $!"
closed=$(port)
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
tap_done
