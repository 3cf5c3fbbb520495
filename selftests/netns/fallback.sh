#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The client's fallback to host decoding (ecfetch): through the proxy when
# it works; when the proxied connection is refused (task deleted, a source
# port closed) or reset mid-transfer (task deleted), ecfetch fetches the k
# fragments itself, decodes them, delivers the exact bytes and says so.
# Topology: bench/lib/topo.sh (S with the VIP, A, k+m storage nodes).
set -u
. "$(dirname "$0")/../lib/tap.sh"
TOPO_P=ecp-fb
. "$(dirname "$0")/../../bench/lib/topo.sh"

tmp=$(mktemp -d)
trap 'topo_cleanup; rm -rf "$tmp"' EXIT
k=4 m=2 lost=1 profile=isal-cauchy

ecin() {
	echo "[+] ip netns exec $TOPO_S ecctl $*" >&2
	ip netns exec "$TOPO_S" "$ECCTL" "$@"
}

pp modprobe ecproxy
pp topo_setup 1 $((k + m))
pp topo_encode "$tmp/d" $profile $k $m $((4 << 20))
sha=$(sha256sum < "$tmp/d/frag.$lost" | cut -d' ' -f1)
pp topo_store "$tmp/d" $k $m $lost
code=(code $profile k $k m $m lost $lost)

# fetch ID OUT [ARGS]: ecfetch through VIP:7000+ID with fallback, the JSON
# summary in $tmp/json, the exit status in $rc.
fetch() {
	local id=$1 out=$2
	shift 2
	echo "[+] ecfetch -o $out proxy $TOPO_VIP:$((7000 + id)) ${code[*]} ${TOPO_SOURCES[*]} sha256 $sha $*" >&2
	ip netns exec $TOPO_P-a1 "$ECFETCH" -j -o "$out" proxy $TOPO_VIP:$((7000 + id)) \
		"${code[@]}" "${TOPO_SOURCES[@]}" sha256 "$sha" "$@" > "$tmp/json"
	rc=$?
	echo $rc > "$tmp/rc"
	cat "$tmp/json" >&2
}

# check DESC WANT_RC "PATH FALLBACK REASON" OUT
check() {
	local got
	got=$(jq -r '[.path, .fallback, (.fallback_reason // "-"), .sha256_ok] | join(" ")' "$tmp/json")
	if [ "$rc" = "$2" ] && [ "$got" = "$3 true" ] && cmp -s "$4" "$tmp/d/frag.$lost"; then
		tap_ok "$1"
	else
		tap_fail "$1" "exit $rc (want $2), got \"$got\" (want \"$3 true\"), $(stat -c %s "$4" 2>/dev/null) bytes"
	fi
}

pp topo_task 1 $profile $k $m $lost
fetch 1 "$tmp/o1"
check "proxied fetch: exact, no fallback" 0 "proxy false -" "$tmp/o1"

pp topo_task_del 1
fetch 1 "$tmp/o2"
check "task deleted: connection refused, fallback exact and reported" 3 \
	"native true connect-failed" "$tmp/o2"

# The proxy's view of one source is wrong (a closed port): A is reset
# during the handshake; the client's own view is right.
srcs=("${TOPO_SOURCES[@]}")
# TOPO_SOURCES is "source ADDR source ADDR ...": [3] is source 1's address.
TOPO_SOURCES[3]=${TOPO_SOURCES[3]/:8000:/:8002:}
pp topo_task 2 $profile $k $m $lost
TOPO_SOURCES=("${srcs[@]}")
fetch 2 "$tmp/o3"
check "source port closed: A reset, fallback exact and reported" 3 \
	"native true connect-failed" "$tmp/o3"
out=$(ecin task show id 2 -s)
echo "$out" >&2
if echo "$out" | grep -q 'last-error source-refused (source 1)'; then
	tap_ok "source port closed: the proxy reports the refused source"
else
	tap_fail "source port closed: the proxy reports the refused source" "$out"
fi
pp topo_task_del 2

# Reset mid-transfer: source 0 (B1) is a straggler (40 s for its
# fragment), so EBSN holds every source to its pace and the transfer cannot
# end on its own before the task is deleted once some bytes have gone out.
# The output file already holds them; the fallback rewinds.  The straggler
# is released as soon as the task is gone, so that the fallback, which
# fetches from B1 too, is quick.
pp topo_cap_b 1 200kbit
pp topo_task 3 $profile $k $m $lost
fetch 3 "$tmp/o4" &
fpid=$!
if wait_for 60 topo_bytes_out_gt 3 50000; then
	pp topo_task_del 3
	pp topo_uncap_b 1
	wait $fpid
	rc=$(cat "$tmp/rc")
	check "task deleted mid-transfer: reset, fallback exact and reported" 3 \
		"native true reset" "$tmp/o4"
else
	kill $fpid
	wait $fpid
	tap_fail "task deleted mid-transfer: reset, fallback exact and reported" \
		"the proxy never sent 50000 bytes"
fi
topo_uncap_b 1

# Without the fallback, the failure is the client's answer.
pp topo_task 4 $profile $k $m $lost
pp topo_task_del 4
fetch 4 "$tmp/o5" nofallback
if [ "$rc" = 1 ] && [ "$(jq -r .error "$tmp/json")" = connect-failed ]; then
	tap_ok "nofallback: the refused proxy is an error"
else
	tap_fail "nofallback: the refused proxy is an error" "exit $rc"
fi

tap_done
