# SPDX-License-Identifier: GPL-2.0
#
# Erasure-coded data and ecproxy tasks on the topology of topo.sh (which
# this sources), for the netns selftests and the benchmarks: encode a
# block, serve its fragments from the Bs, add the task that rebuilds the
# lost one, let A read it and compare.  Task ID listens on VIP:7000+ID; the
# cases of ec_prep serve their survivors on port 8000+ID, so that cases
# can run side by side.
#
# A case keeps its files in $tmp/ID: frag.* and ecmeta (ecctl code
# encode), lost (the lost fragment's index), k, nodes (the Bs serving
# the sources), req (A's request) and req.N (what Bn got), out and err (what
# A got), json (ecfetch's summary).  The knobs:
#   EC_SERVER  socat | prog      who serves the survivors (progs/ecp-srv)
#   EC_SRV_ARGS "ARGS"           more ecp-srv options (-K: keepalives)
#   EC_CLIENT  socat | prog | ecfetch   who plays A (progs/ecp-cli,
#                                `ecfetch -j proxy`)
#   EC_REQ     N                 A sends an N-byte request first (0: none);
#                                socat's A half-closes after it, ecp-cli's not
#   EC_TASK    "ARGS"            more `ecctl task add` arguments (ec_prep)
#   EC_TIMEOUT S                 A's time limit (default 60)
#   EC_GATE    PATH              ecp-cli's A waits for PATH to exist once
#                                connected (-W), before its request
#   EC_NOWAIT  1                 ec_serve does not wait for each server to
#                                listen (see ec_all_listening)
#   EC_LAYOUT  packed | spread   where ec_store puts the fragments
#   EC_SPARE   N                 ec_store also serves the next N survivors
#                                (on B(K+1).. when packed) as EC_SPARE_ARGS,
#                                "spare ADDR:PORT:FRAG ...", which ec_prep's
#                                task takes
# and every rebuilt fragment must equal the lost one by sha256.
#
# Functions: ec_encode, ec_serve, ec_stop_servers, ec_all_listening,
# ec_store, ec_targets, ec_run, ec_stored, ec_served_once, ec_task,
# ec_prep, ec_fetch, ec_verify, ec_recon, ec_stats, ec_reported,
# ec_conn_idle, ec_bytes_out_gt, ec_endless, ec_client_reset.

. "$(dirname "${BASH_SOURCE[0]}")/topo.sh"

EC_SERVER=${EC_SERVER:-socat}
EC_SRV_ARGS=${EC_SRV_ARGS:-}
EC_CLIENT=${EC_CLIENT:-socat}
EC_REQ=${EC_REQ:-0}
EC_TASK=${EC_TASK:-}
EC_TIMEOUT=${EC_TIMEOUT:-60}
EC_GATE=${EC_GATE:-}
EC_NOWAIT=${EC_NOWAIT:-}
EC_LAYOUT=${EC_LAYOUT:-packed}
EC_SPARE=${EC_SPARE:-}

# ec_prog NAME: progs/NAME exists, or the test ends here.
ec_prog() {
	[ -x "$PROGS/$1" ] && return
	echo "# $PROGS/$1 is missing: run make all" >&2
	exit 1
}

# ec_encode DIR PROFILE K M SIZE [CELL]: SIZE random bytes encoded into
# DIR, striped in cells of CELL bytes if given (the input is kept as
# DIR/in only with a CELL, as a read returns it: room in the VM's tmpfs);
# sets EC_FRAGSIZE, the length of fragment 0.
ec_encode() {
	local layout=()
	mkdir -p "$1"
	[ -z "${6:-}" ] || layout=(cell "$6")
	head -c "$5" /dev/urandom > "$1/in"
	pp "$ECCTL" code encode "$2" k "$3" m "$4" "${layout[@]}" \
		in "$1/in" out "$1" >&"$tap_log" || return 1
	[ -n "${6:-}" ] || rm -f "$1/in"
	EC_FRAGSIZE=$(stat -c %s "$1/frag.0")
}

# ec_serve N PORT FILE [REQLEN REQFILE]: Bn serves FILE on PORT, one
# child per connection, until ec_stop_servers; with REQLEN (> 0), each
# child first reads a request of that many bytes and keeps it in REQFILE.
ec_serve() {
	local ns=$B$1 port=$2 file=$3 reqlen=${4:-0} reqfile=${5:-}
	if [ "$EC_SERVER" = prog ]; then
		ec_prog ecp-srv
		local log=()
		[ -z "${EC_SRVLOG:-}" ] || log=(-L "$EC_SRVLOG.$1.$port")
		# shellcheck disable=SC2206 # options, word-split on purpose
		log+=($EC_SRV_ARGS)
		if [ "$reqlen" != 0 ]; then
			ip netns exec "$ns" "$PROGS/ecp-srv" -r "$reqlen" \
				-R "$reqfile" "${log[@]}" "$port" "$file" &
		else
			ip netns exec "$ns" "$PROGS/ecp-srv" "${log[@]}" \
				"$port" "$file" &
		fi
	elif [ "$reqlen" != 0 ]; then
		# -t: A's FIN may come first; finish sending all the same.
		ip netns exec "$ns" socat -t 60 \
			TCP-LISTEN:"$port",reuseaddr,fork,backlog=128 \
			SYSTEM:"head -c $reqlen > $reqfile; exec cat $file" \
			2>/dev/null &
	else
		ip netns exec "$ns" socat -U \
			TCP-LISTEN:"$port",reuseaddr,fork,backlog=128 \
			OPEN:"$file",rdonly 2>/dev/null &
	fi
	[ -n "$EC_NOWAIT" ] || wait_for 10 topo_listening "$ns" "$port"
}

# ec_stop_servers: end every server on the Bs and the Ts, and what they
# forked.
ec_stop_servers() {
	local x
	for x in "${topo_nodes[@]}"; do
		case $x in b* | t*) topo_kill_ns "$P-$x" ;; esac
	done
}

# ec_all_listening N: N servers listen, over all the Bs (after EC_NOWAIT).
ec_all_listening() {
	local x n=0
	for x in "${topo_nodes[@]}"; do
		[ "${x#b}" = "$x" ] ||
			n=$((n + $(ip netns exec "$P-$x" ss -ltnH | wc -l)))
	done
	[ $n -ge "$1" ]
}

# ec_store DIR K M LOST PORT: serve the survivors among DIR's fragments on
# PORT (LOST: one index or a comma-separated list of them); EC_SOURCES is
# the K lowest, in ecctl's and ecfetch's syntax.  EC_SRVLOG=PREFIX (with
# EC_SERVER=prog): node n's server on PORT logs its connections to
# PREFIX.n.PORT (progs/ecp-srv -L).
# EC_LAYOUT packed (the tests): the n-th of those K on Bn, nothing else.
# spread (the benchmarks: node B(i+1) holds fragment i): every fragment
# but LOST on its node, and LOST's replica on the next node, port PORT+1
# (EC_REPLICA, ADDR:PORT).  With EC_REQ, every source first reads A's
# request of EC_REQ bytes into DIR/req.N.  EC_SPARE_ARGS is the EC_SPARE
# survivors after those K as a task's spares, "spare ADDR:PORT:FRAG ..."
# (in nodes too); empty without.
ec_store() {
	local dir=$1 k=$2 m=$3 lost=$4 port=$5 i node n=0 rep want=$2
	EC_SPARE_ARGS=()
	want=$((k + ${EC_SPARE:-0}))
	EC_SOURCES=()
	echo "$lost" > "$dir/lost"
	echo "$k" > "$dir/k"
	: > "$dir/nodes"
	: > "$dir/sources"
	for i in $(seq 0 $((k + m - 1))); do
		case ",$lost," in *",$i,"*) continue ;; esac
		if [ "$EC_LAYOUT" = spread ]; then
			node=$((i + 1))
		elif [ $n -lt "$want" ]; then
			node=$((n + 1))
		else
			break
		fi
		ec_serve $node "$port" "$dir/frag.$i" "$EC_REQ" \
			"$dir/req.$node" || return 1
		if [ $n -lt "$k" ]; then
			n=$((n + 1))
			EC_SOURCES+=(source "$(topo_addr "b$node"):$port:$i")
			echo $node >> "$dir/nodes"
			echo $i >> "$dir/sources"
		elif [ $n -lt "$want" ]; then
			n=$((n + 1))
			EC_SPARE_ARGS+=(spare "$(topo_addr "b$node"):$port:$i")
			echo $node >> "$dir/nodes"
		fi
	done
	if [ "$EC_LAYOUT" = spread ]; then
		rep=$(((lost + 1) % (k + m) + 1))
		ec_serve $rep $((port + 1)) "$dir/frag.$lost" || return 1
		EC_REPLICA=$(topo_addr "b$rep"):$((port + 1))
	fi
}

# ec_targets DIR LOST PORT: for the n-th fragment of the list LOST, target
# node Tn stores what it receives on PORT into DIR/got.F and logs how
# each connection ended to DIR/tgt.F (progs/ecp-tgt); EC_DESTS is the
# list of them in ecctl's syntax.  EC_TGT_ARGS="F ARGS..." gives fragment
# F's target more ecp-tgt options (-x BYTES: it dies there); EC_TGT_NONE=F
# leaves fragment F's port closed (a target that refuses).
ec_targets() {
	local dir=$1 port=$3 f n=0 args
	EC_DESTS=()
	ec_prog ecp-tgt
	for f in ${2//,/ }; do
		n=$((n + 1))
		EC_DESTS+=(dest "$(topo_addr "t$n"):$port:$f")
		rm -f "$dir/got.$f" "$dir/tgt.$f"
		[ "${EC_TGT_NONE:-}" != "$f" ] || continue
		args=()
		# shellcheck disable=SC2206 # options, word-split on purpose
		[ "${EC_TGT_ARGS:-}" = "" ] || [ "${EC_TGT_ARGS%% *}" != "$f" ] ||
			args=(${EC_TGT_ARGS#* })
		ip netns exec "$T$n" "$PROGS/ecp-tgt" "${args[@]}" \
			-L "$dir/tgt.$f" "$port" "$dir/got.$f" &
		wait_for 10 topo_listening "$T$n" "$port" || return 1
	done
}

# ec_run ID SECS: start task ID (with targets) and wait up to SECS seconds
# for its run to end; true if it ended without an error.
ec_run() {
	ecin "$S" task start id "$1" >&2 || return 1
	wait_for "$2" ec_conn_idle "$1" || return 1
	[ "$(ec_stats "$1" .stats.last_error)" = none ]
}

# ec_stored DIR LOST: every target got its fragment byte for byte, closed
# by a FIN (and nothing else: one connection).
ec_stored() {
	local f
	for f in ${2//,/ }; do
		cmp -s "$1/frag.$f" "$1/got.$f" || return 1
		[ "$(cat "$1/tgt.$f")" = "fin $(stat -c %s "$1/frag.$f")" ] || return 1
	done
}

# ec_served_once PREFIX DIR: every source that served (a PREFIX.n.PORT
# log) did so once, the whole of its fragment.
ec_served_once() {
	local log n f k=0
	for log in "$1".*; do
		n=${log#"$1".}
		n=${n%%.*}
		f=$(sed -n "${n}p" "$2/sources")
		[ "$(cat "$log")" = "served $(stat -c %s "$2/frag.$f")" ] || return 1
		k=$((k + 1))
	done
	[ $k = "$(cat "$2/k")" ]
}

# ec_task ID PROFILE K M LOST [ECCTL-ARGS...]: task ID on VIP:7000+ID
# rebuilding LOST from EC_SOURCES; ECCTL-ARGS (buffer, timeout ...) are
# added to the task add command.
ec_task() {
	ecin "$S" task add id "$1" vip $VIP port $((7000 + $1)) \
		code "$2" k "$3" m "$4" lost "$5" "${EC_SOURCES[@]}" "${@:6}"
}

# ec_prep ID PROFILE K M LOST SIZE: encode SIZE random bytes into $tmp/ID,
# serve the K lowest surviving fragments from B1..Bk on port 8000+ID and
# add task ID rebuilding fragment LOST (with EC_TASK's arguments).
ec_prep() {
	local id=$1 dir=$tmp/$1
	rm -rf "$dir"
	ec_encode "$dir" "$2" "$3" "$4" "$6" || return 1
	[ "$EC_REQ" = 0 ] || head -c "$EC_REQ" /dev/urandom > "$dir/req"
	ec_store "$dir" "$3" "$4" "$5" $((8000 + id)) || return 1
	# shellcheck disable=SC2086 # EC_TASK is a list of words
	ec_task "$id" "$2" "$3" "$4" "$5" "${EC_SPARE_ARGS[@]}" $EC_TASK >&2
}

# ec_fetch ID [ECFETCH-ARGS...]: A reads task ID's stream into $tmp/ID/out
# (stderr in err) with EC_CLIENT, sending $tmp/ID/req first if there is
# one; ecfetch gets ECFETCH-ARGS (code, sources, sha256 ...) after `proxy
# VIP:PORT` and leaves its JSON summary in json.  Sets el (ms); returns
# the client's status.
ec_fetch() {
	local id=$1 dir=$tmp/$1 port=$((7000 + $1)) start ret req=()
	shift
	mkdir -p "$dir"
	rm -f "$dir/out" "$dir/json"
	start=$(date +%s%N)
	case $EC_CLIENT in
	prog)
		ec_prog ecp-cli
		[ -z "$EC_GATE" ] || req=(-W "$EC_GATE")
		[ ! -e "$dir/req" ] || req+=(-q "$dir/req")
		echo "[+] ip netns exec $A ecp-cli ${req[*]} -o out $VIP $port" >&"$tap_log"
		timeout "$EC_TIMEOUT" ip netns exec "$A" "$PROGS/ecp-cli" \
			"${req[@]}" -o "$dir/out" $VIP $port 2> "$dir/err"
		;;
	ecfetch)
		echo "[+] ip netns exec $A ecfetch -j -o out proxy $VIP:$port $*" >&"$tap_log"
		timeout "$EC_TIMEOUT" ip netns exec "$A" "$ECFETCH" -j \
			-o "$dir/out" proxy $VIP:$port "$@" > "$dir/json" 2> "$dir/err"
		;;
	*)
		if [ -e "$dir/req" ]; then
			echo "[+] ip netns exec $A socat -t 60 TCP:$VIP:$port - < req > out" >&"$tap_log"
			timeout "$EC_TIMEOUT" ip netns exec "$A" socat -t 60 \
				TCP:$VIP:$port - < "$dir/req" > "$dir/out" 2> "$dir/err"
		else
			echo "[+] ip netns exec $A socat -u TCP:$VIP:$port - > out" >&"$tap_log"
			timeout "$EC_TIMEOUT" ip netns exec "$A" socat -u \
				TCP:$VIP:$port - > "$dir/out" 2> "$dir/err"
		fi
		;;
	esac
	ret=$?
	el=$((($(date +%s%N) - start) / 1000000))
	[ ! -s "$dir/json" ] || cat "$dir/json" >&"$tap_log"
	return $ret
}

# ec_same_req ID: every source got A's request, byte for byte.
ec_same_req() {
	local dir=$tmp/$1 n
	for n in $(cat "$dir/nodes"); do
		cmp -s "$dir/req" "$dir/req.$n" || return 1
	done
}

# ec_verify DESC ID: TAP result of comparing what A got with the lost
# fragment (and the requests the sources got with A's).
ec_verify() {
	local desc=$1 id=$2 dir=$tmp/$2 lost want got why
	lost=$(cat "$dir/lost")
	want=$(sha256sum < "$dir/frag.$lost")
	got=$(sha256sum < "$dir/out")
	if [ "$want" != "$got" ]; then
		why="got $(stat -c %s "$dir/out") bytes, want $(stat -c %s "$dir/frag.$lost")"
		tap_fail "$desc" "$why; $(tr '\n' ' ' < "$dir/err")"
		ecin "$S" task show id "$id" -s >&2
	elif [ -e "$dir/req" ] && ! ec_same_req "$id"; then
		tap_fail "$desc" "a source did not get A's $(stat -c %s "$dir/req")-byte request"
	else
		tap_ok "$desc"
	fi
}

# ec_recon DESC ID PROFILE K M LOST SIZE: one whole case, servers
# stopped and the task idle afterwards.
ec_recon() {
	local desc=$1 id=$2
	if ! ec_prep "$id" "${@:3}"; then
		tap_fail "$desc" "setting up the sources or the task failed"
		ec_stop_servers
		return
	fi
	ec_fetch "$id"
	ec_verify "$desc" "$id"
	ec_stop_servers
	wait_for 10 ec_conn_idle "$id"
}

# ec_stats ID JQ: a jq filter over task ID's JSON statistics (the task
# object of `ecctl -j task show id ID -s`).
ec_stats() {
	ecq "$S" -j task show id "$1" -s | jq -r ".[0] | $2"
}

# ec_reported ID PATTERN DESC: task ID's text statistics match PATTERN
# (grep), one test.
ec_reported() {
	local out
	out=$(ecin "$S" task show id "$1" -s)
	echo "$out" >&2
	if echo "$out" | grep -q -- "$2"; then
		tap_ok "$3"
	else
		tap_fail "$3" "$out"
	fi
}

ec_conn_idle() {
	ecq "$S" task show id "$1" -s 2>/dev/null | grep -q 'state none'
}

# ec_bytes_out_gt ID N: task ID has sent its client more than N bytes.
ec_bytes_out_gt() {
	local out
	out=$(ec_stats "$1" .stats.bytes_out 2>/dev/null)
	[ -n "$out" ] && [ "$out" -gt "$2" ]
}

# ec_endless ID PORT [ECCTL-ARGS...]: B1..B3 stream zeros forever on PORT,
# the sources (coefficients 1, 2, 3) of task ID (with ECCTL-ARGS), and A
# reads it into /dev/null in the background: its pid in apid, its stderr
# in $tmp/endless.err.  Returns the status of the task's addition (A
# starts all the same, so that apid is always there to kill).
ec_endless() {
	local id=$1 port=$2 i srcs=() ret
	shift 2
	for i in 1 2 3; do
		ec_serve $i "$port" /dev/zero
		srcs+=(source "$(topo_addr "b$i"):$port" coef $i)
	done
	ecin "$S" task add id "$id" vip $VIP port $((7000 + id)) \
		"${srcs[@]}" "$@" >&2
	ret=$?
	ip netns exec "$A" socat -u TCP:$VIP:$((7000 + id)) /dev/null \
		2> "$tmp/endless.err" &
	apid=$!
	return $ret
}

# ec_client_reset DESC SECS CMD...: CMD succeeds, then the client A (apid,
# of ec_endless) is gone within SECS seconds: one test.  A is ended and
# reaped either way.
ec_client_reset() {
	local desc=$1 secs=$2
	shift 2
	if "$@" && wait_gone "$apid" "$secs"; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "$(cat "$tmp/endless.err")"
		kill "$apid" 2>/dev/null
	fi
	wait "$apid" 2>/dev/null
}

# ec_monitor: `ecctl monitor` on S into $tmp/mon.txt for the rest of the
# test, stopped with the topology; mon_has REGEX then asks whether a line
# it printed matches REGEX, and mon_text prints those lines: all of them,
# or since the last ec_mon_mark, for a test that repeats its events.
# mon_has REGEX FILE asks the same of another monitor's output FILE.
ec_mon_from=1
ec_monitor() {
	ip netns exec "$S" "$ECCTL" monitor > "$tmp/mon.txt" 2> "$tmp/mon.err" &
	ec_mon_pid=$!
	ec_mon_cleanup() {
		kill "$ec_mon_pid" 2>/dev/null
		topo_cleanup
	}
	trap ec_mon_cleanup EXIT
}

mon_text() {
	tail -n +"$ec_mon_from" "$tmp/mon.txt"
}

mon_has() {
	if [ $# -gt 1 ]; then
		grep -Eq "$1" "$2"
	else
		mon_text | grep -Eq "$1"
	fi
}

ec_mon_mark() {
	ec_mon_from=$(($(wc -l < "$tmp/mon.txt") + 1))
}

# ec_monitor_stop: end ec_monitor's `ecctl monitor` (before an unload).
ec_monitor_stop() {
	kill "$ec_mon_pid" 2>/dev/null
	wait "$ec_mon_pid" 2>/dev/null
	return 0
}
