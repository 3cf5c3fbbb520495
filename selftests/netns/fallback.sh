#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The client's fallback to host decoding (ecfetch): through the proxy when
# it works; when the proxied connection is refused (task deleted, a source
# port closed) or reset mid-transfer (task deleted), ecfetch fetches the k
# fragments itself, decodes them, delivers the exact bytes and says so.
# Topology: ../lib/topo.sh (S with the VIP, A, the k storage nodes).
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

topo_init fb
k=4 m=2 lost=1 profile=isal-cauchy
# A's time limit: well past the 40 s of the straggler below.
EC_CLIENT=ecfetch EC_TIMEOUT=300

pp modprobe ecproxy
topo_setup 1 $k || exit 1
pp ec_encode "$tmp/d" $profile $k $m $((4 << 20))
sha=$(sha256sum < "$tmp/d/frag.$lost" | cut -d' ' -f1)
pp ec_store "$tmp/d" $k $m $lost 8000
code=(code $profile k $k m $m lost $lost)

# fallback_fetch ID [ARGS]: ecfetch through VIP:7000+ID with fallback, into
# $tmp/ID; the exit status in $rc and returned (for a fetch in the
# background).
fallback_fetch() {
	ec_fetch "$1" "${code[@]}" "${EC_SOURCES[@]}" sha256 "$sha" "${@:2}"
	rc=$?
	return $rc
}

# check DESC WANT_RC "PATH FALLBACK REASON" ID
check() {
	local got dir=$tmp/$4
	got=$(jq -r '[.path, .fallback, (.fallback_reason // "-"), .sha256_ok] | join(" ")' "$dir/json")
	if [ "$rc" = "$2" ] && [ "$got" = "$3 true" ] && cmp -s "$dir/out" "$tmp/d/frag.$lost"; then
		tap_ok "$1"
	else
		tap_fail "$1" "exit $rc (want $2), got \"$got\" (want \"$3 true\"), $(stat -c %s "$dir/out" 2>/dev/null) bytes" \
			"$(cat "$dir/err")"
	fi
}

pp ec_task 1 $profile $k $m $lost
fallback_fetch 1
check "proxied fetch: exact, no fallback" 0 "proxy false -" 1

pp ecin $S task del id 1
fallback_fetch 1
check "task deleted: connection refused, fallback exact and reported" 3 \
	"native true connect-failed" 1

# The proxy's view of one source is wrong (a closed port): A is reset
# during the handshake; the client's own view is right.
srcs=("${EC_SOURCES[@]}")
# EC_SOURCES is "source ADDR source ADDR ...": [3] is source 1's address.
EC_SOURCES[3]=${EC_SOURCES[3]/:8000:/:8002:}
pp ec_task 2 $profile $k $m $lost
EC_SOURCES=("${srcs[@]}")
fallback_fetch 2
check "source port closed: A reset, fallback exact and reported" 3 \
	"native true connect-failed" 2
ec_reported 2 'last-error source-refused (source 1)' \
	"source port closed: the proxy reports the refused source"
pp ecin $S task del id 2

# Reset mid-transfer: source 0 (B1) is a straggler (40 s for its
# fragment), so EBSN holds every source to its pace and the transfer cannot
# end on its own before the task is deleted once some bytes have gone out.
# The output file already holds them; the fallback rewinds.  The straggler
# is released as soon as the task is gone, so that the fallback, which
# fetches from B1 too, is quick.
pp topo_cap_b 1 200kbit
pp ec_task 3 $profile $k $m $lost
fallback_fetch 3 &
fpid=$!
if wait_for 60 ec_bytes_out_gt 3 50000; then
	pp ecin $S task del id 3
	pp topo_uncap_b 1
	wait $fpid
	rc=$?
	check "task deleted mid-transfer: reset, fallback exact and reported" 3 \
		"native true reset" 3
else
	kill $fpid
	wait $fpid
	tap_fail "task deleted mid-transfer: reset, fallback exact and reported" \
		"the proxy never sent 50000 bytes"
fi
topo_uncap_b 1

# Without the fallback, the failure is the client's answer.
pp ec_task 4 $profile $k $m $lost
pp ecin $S task del id 4
fallback_fetch 4 nofallback
if [ "$rc" = 1 ] && [ "$(jq -r .error "$tmp/4/json")" = connect-failed ]; then
	tap_ok "nofallback: the refused proxy is an error"
else
	tap_fail "nofallback: the refused proxy is an error" "exit $rc"
fi

tap_done
