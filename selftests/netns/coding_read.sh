#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Degraded reads ("read"): a client connecting to VIP:port receives the
# whole block in logical order, the cells of the lost data fragments
# rebuilt from k survivors on the way, the others passed through.  HDFS's
# striped layout: blocks that end in the middle of a cell and at a cell
# boundary in the middle of a stripe, cells of 4 KiB and 1 MiB, one and
# m lost data fragments (parity survivors then), RS(6,3) and RS(12,4).
# The bytes must equal the block `ecctl code encode` striped.  Then
# ecfetch: the same read through the VIP, and its native fallback when
# the VIP fails; and a survivor of the wrong length, which must end in a
# reset, never in a short block.  Topology (../lib/topo.sh): A reads,
# B1..B12 serve the survivors.
set -u
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/ec.sh"

EC_SERVER=prog
topo_init crd
pp modprobe ecproxy
topo_setup 1 12 || exit 1

# prep ID PROFILE K M LOST BLOCK CELL: the block striped into $tmp/ID,
# the survivors served, and read task ID on VIP:7000+ID.
prep() {
	local id=$1 dir=$tmp/$1
	rm -rf "$dir"
	ec_encode "$dir" "$2" "$3" "$4" "$6" "$7" || return 1
	ec_store "$dir" "$3" "$4" "$5" $((8000 + id)) || return 1
	ecin $S task add id "$id" vip $VIP port $((7000 + id)) \
		code "$2" k "$3" m "$4" lost "$5" "${EC_SOURCES[@]}" \
		read block "$6" cell "$7" ${EC_TASK:-} >&2
}

# read_case DESC ID PROFILE K M LOST BLOCK CELL
read_case() {
	local desc=$1 id=$2 dir=$tmp/$2
	if ! prep "$id" "${@:3}"; then
		tap_fail "$desc" "setting up the survivors or the task failed"
		ec_stop_servers
		return
	fi
	ec_fetch "$id"
	if cmp -s "$dir/in" "$dir/out"; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "got $(stat -c %s "$dir/out") bytes of $7" \
			"$(cat "$dir/err")"
		ecin $S task show id "$id" -s >&2
	fi
	ec_stop_servers
	wait_for 10 ec_conn_idle "$id"
}

stripe=$((6 * 4096))
# Ends mid-cell (in data fragment 2's cell), then at a cell boundary in
# the middle of a stripe (after data fragment 3).
mid_cell=$((7 * stripe + 2 * 4096 + 1234))
mid_stripe=$((7 * stripe + 4 * 4096))
read_case "RS(6,3) 4 KiB cells, lost data 2, block ends mid-cell ($mid_cell)" \
	1 isal-cauchy 6 3 2 $mid_cell 4096
read_case "RS(6,3) 4 KiB cells, lost data 4 (a short fragment), block ends mid-cell" \
	2 isal-cauchy 6 3 4 $mid_cell 4096
read_case "RS(6,3) 4 KiB cells, lost data 0,3,5 (m=3), block ends mid-stripe ($mid_stripe)" \
	3 isal-cauchy 6 3 0,3,5 $mid_stripe 4096
read_case "RS(6,3) 4 KiB cells, lost data 1, a block shorter than a stripe" \
	4 jerasure-rs 6 3 1 $((2 * 4096 + 17)) 4096
read_case "RS(12,4) 4 KiB cells, lost data 1,6,9,11 (m=4), block ends mid-cell" \
	5 jerasure-rs 12 4 1,6,9,11 $((3 * 12 * 4096 + 11 * 4096 + 99)) 4096
mib=$((1 << 20))
read_case "RS(6,3) 1 MiB cells, lost data 1, block ends mid-cell (1 stripe + 2.5 cells)" \
	6 isal-cauchy 6 3 1 $((6 * mib + 2 * mib + mib / 2)) $mib
read_case "RS(6,3) 1 MiB cells, lost data 0,2,5 (m=3), block ends mid-stripe" \
	7 isal-cauchy 6 3 0,2,5 $((6 * mib + 3 * mib)) $mib
tap_expect_jq "show: mode read, the layout, a row per data fragment, two cells of buffer" \
	'.[0].mode == "read" and .[0].block == '$((9 * mib))' and .[0].cell == '$mib'
	 and .[0].buffer == '$((2 * mib))'
	 and ([.[0].rows[].frag] == [0, 1, 2, 3, 4, 5])
	 and ([.[0].sources[].length] | length) == 6' \
	ecin $S -j task show id 7
in=0
for f in $(cat "$tmp/7/sources"); do
	in=$((in + $(stat -c %s "$tmp/7/frag.$f")))
done
tap_expect_jq "read: the client got the block, each survivor gave its fragment once ($in bytes)" \
	'.[0].stats.bytes_out == '$((9 * mib))' and .[0].stats.bytes_in == '$in'
	 and ([.[0].sources[] | .stats.bytes_in == .length] | all)
	 and .[0].stats.conns_done == 1' \
	ecin $S -j task show id 7 -s

# --- ecfetch read: through the VIP, then its fallback -----------------------
id=8
block=$((5 * stripe + 3 * 4096 + 77))
prep $id isal-cauchy 6 3 1,4 $block 4096 || tap_fail "ecfetch: setup"
want=$(sha256sum < "$tmp/$id/in" | cut -d' ' -f1)
code=(code isal-cauchy k 6 m 3 lost 1,4 "${EC_SOURCES[@]}" block $block cell 4096)
capture ecfetch_in $A -j -o "$tmp/$id/out" read $VIP:$((7000 + id)) "${code[@]}" sha256 "$want"
if [ "$rc" = 0 ] && cmp -s "$tmp/$id/in" "$tmp/$id/out"; then
	tap_ok "ecfetch read through the VIP: the block, exit 0"
else
	tap_fail "ecfetch read through the VIP" "rc=$rc $err"
fi
ecin $S task del id $id
capture ecfetch_in $A -j -o "$tmp/$id/out" read $VIP:$((7000 + id)) "${code[@]}" sha256 "$want"
if [ "$rc" = 3 ] && cmp -s "$tmp/$id/in" "$tmp/$id/out"; then
	tap_ok "ecfetch read, the VIP refuses: native fallback decodes the block, exit 3"
else
	tap_fail "ecfetch read fallback" "rc=$rc $err"
fi
ec_stop_servers

# --- a survivor of the wrong length ------------------------------------------
# Survivor 0 serves a fragment a byte short: the read must fail with a
# reset, and A must never see a clean end of a short block.
id=9
prep $id isal-cauchy 6 3 2 $mid_cell 4096
ec_stop_servers
f=$(head -1 "$tmp/$id/sources")
head -c $(($(stat -c %s "$tmp/$id/frag.$f") - 1)) "$tmp/$id/frag.$f" > "$tmp/$id/short"
for n in $(seq 1 6); do
	g=$(sed -n "${n}p" "$tmp/$id/sources")
	file=$tmp/$id/frag.$g
	[ "$n" != 1 ] || file=$tmp/$id/short
	ec_serve "$n" $((8000 + id)) "$file"
done
EC_CLIENT=prog ec_fetch $id
rc=$?
if [ "$rc" != 0 ] && [ "$(stat -c %s "$tmp/$id/out")" -lt $mid_cell ]; then
	tap_ok "a survivor a byte short: A's read fails (reset), no clean short block"
else
	tap_fail "a survivor a byte short: A's read fails" "rc=$rc, $(stat -c %s "$tmp/$id/out") bytes"
fi
tap_expect_jq "a survivor a byte short: length-mismatch, source 0 blamed" \
	'.[0].stats.last_error == "length-mismatch" and .[0].stats.last_error_source == 0' \
	ecin $S -j task show id $id -s
ec_stop_servers

# --- what the kernel refuses --------------------------------------------------
tap_expect_err "read without a layout" 2 \
	"Error: block and cell go together: give both or neither" \
	ecin $S task add id 60 vip $VIP port 7060 code isal-cauchy k 6 m 3 lost 1 \
	"${EC_SOURCES[@]}" read block 100000
tap_expect_err "read without block and cell: the kernel refuses" 1 \
	"Error: a read needs the layout: block and cell" \
	ecin $S task add id 60 vip $VIP port 7060 code isal-cauchy k 6 m 3 lost 2 \
	"${EC_SOURCES[@]}" read
tap_expect_err "read with a buffer of one cell: refused" 1 \
	"Error: a read needs a buffer of at least two cells, 2097152 bytes (at most 67108864)" \
	ecin $S task add id 60 vip $VIP port 7060 code isal-cauchy k 6 m 3 lost 2 \
	"${EC_SOURCES[@]}" read block 100m cell 1m buffer 1m
tap_expect_err "a read's buffer cannot shrink below two cells" 1 \
	"Error: task 7: a read needs a buffer of at least two cells, 2097152 bytes" \
	ecin $S task change id 7 buffer 1m
capture ecin $S task add id 60 vip $VIP port 7060 code isal-cauchy k 6 m 3 lost 7 \
	"${EC_SOURCES[@]}" read block 100000 cell 4k
if [ "$rc" = 2 ] && [ "$err" = 'Error: "lost 7": a read rebuilds data fragments (0..5), not 7' ]; then
	tap_ok "read of a lost parity fragment: refused"
else
	tap_fail "read of a lost parity fragment: refused" "rc=$rc $err"
fi

tap_check "flush" ecin $S task flush
tap_check "unload" modprobe -r ecproxy
tap_done
