# SPDX-License-Identifier: GPL-2.0
#
# Topology and helpers of the reconstruction tests (selftests/netns/recon*.sh).
# Source it after ../lib/tap.sh, then call rc_init TAG NB and rc_setup.
#
#                 +---------------------------+
#   +-------+     |            S              |     +--------+
#   |   A   |-----| s-a 10.0.1.1              |-----| B1 .2  | 10.0.11.0/24
#   | .1.2  |     | VIP 10.99.0.1 (on lo)     |-----| B2 .2  | 10.0.12.0/24
#   +-------+     | ecproxy tasks             | ... | Bn .2  | 10.0.(10+n).0/24
#                 +---------------------------+     +--------+
#
# Namespaces are ecp-TAG-s, ecp-TAG-a and ecp-TAG-b1..NB; S's ends of the
# links are s-a and s-b1..NB, the far ends a-s and b-s.  Task ID listens
# on VIP:7000+ID and its survivors listen on port 8000+ID of B1..Bk, so
# cases can run side by side.
#
# A case (rc_prep, rc_fetch, rc_verify; rc_recon does all three) keeps its
# files in $tmp/ID: in (the data), frag.* (ecctl code encode), out and err
# (what A got), req (A's request) and req.N (what Bn got).  Its knobs:
#   RC_SERVER  socat | prog      who serves the survivors (ecp-srv)
#   RC_CLIENT  socat | prog      who plays A (ecp-cli)
#   RC_REQ     N                 A sends an N-byte request first (0: none);
#                                socat's A half-closes after it, ecp-cli's not
#   RC_TASK    "ARGS"            more `ecctl task add` arguments
#   RC_TIMEOUT S                 A's time limit (default 60)
#   RC_GATE    PATH              ecp-cli's A waits for PATH to exist once
#                                connected (-W), before its request
#   RC_NOWAIT  1                 rc_prep does not wait for each server to
#                                listen (see rc_all_listening)
# and every rebuilt fragment must equal the lost one by sha256.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
ECCTL=${ECCTL:-$top/tools/ecctl/ecctl}
PROGS=${PROGS:-$top/selftests/netns/progs}
VIP=10.99.0.1
RC_SERVER=${RC_SERVER:-socat}
RC_CLIENT=${RC_CLIENT:-socat}
RC_REQ=${RC_REQ:-0}
RC_TASK=${RC_TASK:-}
RC_TIMEOUT=${RC_TIMEOUT:-60}
RC_GATE=${RC_GATE:-}
RC_NOWAIT=${RC_NOWAIT:-}

# rc_init TAG NB: names, a scratch directory and the cleanup trap.
rc_init() {
	S=ecp-$1-s
	A=ecp-$1-a
	B=ecp-$1-b
	NB=$2
	tmp=$(mktemp -d)
	trap rc_cleanup EXIT
	if [ ! -x "$PROGS/ecp-srv" ] || [ ! -x "$PROGS/ecp-cli" ]; then
		echo "# $PROGS/ecp-srv and ecp-cli are missing: run make all" >&2
		exit 1
	fi
}

# rc_kill_ns NS: end every process we started in NS (servers and their
# children, clients).
rc_kill_ns() {
	local p
	p=$(ip netns pids "$1" 2>/dev/null)
	[ -z "$p" ] || kill $p 2>/dev/null
}

rc_cleanup() {
	local i
	for i in $(seq 1 "$NB"); do
		rc_kill_ns $B$i
		ip netns del $B$i 2>/dev/null
	done
	rc_kill_ns $A
	rc_kill_ns $S
	ip netns del $A 2>/dev/null
	ip netns del $S 2>/dev/null
	rm -rf "$tmp"
}

# ecin ECCTL-ARGS...: ecctl in S, echoed to stderr.
ecin() {
	echo "[+] ip netns exec $S ecctl $*" >&2
	ip netns exec $S "$ECCTL" "$@"
}

# rc_link NS_A DEV_A NS_B DEV_B NET: a veth pair, NET.1 at the first end.
rc_link() {
	ip -n "$1" link add "$2" type veth peer name "$4" netns "$3" || return 1
	ip -n "$1" addr add "$5.1/24" dev "$2"
	ip -n "$1" link set "$2" up
	ip -n "$3" addr add "$5.2/24" dev "$4"
	ip -n "$3" link set "$4" up
	ip -n "$3" route add default via "$5.1"
}

rc_setup() {
	local i
	pp ip netns add $S || return 1
	pp ip netns add $A || return 1
	ip -n $S link set lo up
	ip -n $A link set lo up
	pp ip -n $S addr add $VIP/32 dev lo
	pp ip netns exec $S sysctl -qw net.ipv4.ip_forward=1
	pp rc_link $S s-a $A a-s 10.0.1 || return 1
	for i in $(seq 1 "$NB"); do
		pp ip netns add $B$i || return 1
		ip -n $B$i link set lo up
		rc_link $S s-b$i $B$i b-s 10.0.$((10 + i)) || return 1
	done
}

# rc_each_link FN ARGS...: FN NS DEV ARGS... for both ends of every link.
rc_each_link() {
	local i fn=$1
	shift
	$fn $S s-a "$@" && $fn $A a-s "$@" || return 1
	for i in $(seq 1 "$NB"); do
		$fn $S s-b$i "$@" && $fn $B$i b-s "$@" || return 1
	done
}

# rc_mtu N MTU: set both ends of S's link to Bn (N = a: to A).
rc_mtu() {
	if [ "$1" = a ]; then
		ip -n $S link set s-a mtu "$2" && ip -n $A link set a-s mtu "$2"
	else
		ip -n $S link set s-b$1 mtu "$2" && ip -n $B$1 link set b-s mtu "$2"
	fi
}

rc_listening() {
	ip netns exec "$1" ss -ltnH "sport = :$2" | grep -q .
}

# rc_serve N PORT FILE [REQLEN REQFILE]: Bn serves FILE on PORT, one
# child per connection, until rc_stop_servers; with REQLEN, each child
# first reads a request of that many bytes and keeps it in REQFILE.
rc_serve() {
	local ns=$B$1 port=$2 file=$3 reqlen=${4:-0} reqfile=${5:-}
	if [ "$RC_SERVER" = prog ]; then
		if [ "$reqlen" != 0 ]; then
			ip netns exec $ns "$PROGS/ecp-srv" -r "$reqlen" \
				-R "$reqfile" "$port" "$file" &
		else
			ip netns exec $ns "$PROGS/ecp-srv" "$port" "$file" &
		fi
	elif [ "$reqlen" != 0 ]; then
		# -t: A's FIN may come first; finish sending all the same.
		ip netns exec $ns socat -t 60 TCP-LISTEN:"$port",reuseaddr,fork \
			SYSTEM:"head -c $reqlen > $reqfile; exec cat $file" \
			2>/dev/null &
	else
		ip netns exec $ns socat -U TCP-LISTEN:"$port",reuseaddr,fork \
			OPEN:"$file",rdonly 2>/dev/null &
	fi
	[ -n "$RC_NOWAIT" ] || wait_for 10 rc_listening $ns "$port"
}

# rc_all_listening N: N servers listen, over all the Bs (after RC_NOWAIT).
rc_all_listening() {
	local i n=0
	for i in $(seq 1 "$NB"); do
		n=$((n + $(ip netns exec $B$i ss -ltnH | wc -l)))
	done
	[ $n -ge "$1" ]
}

# rc_stop_servers: end every source server and what it forked.
rc_stop_servers() {
	local i
	for i in $(seq 1 "$NB"); do
		rc_kill_ns $B$i
	done
}

# rc_prep ID PROFILE K M LOST SIZE: encode SIZE random bytes, serve the K
# lowest surviving fragments from B1..Bk and add task ID rebuilding
# fragment LOST (with RC_TASK's arguments).
rc_prep() {
	local id=$1 profile=$2 k=$3 m=$4 lost=$5 size=$6
	local dir=$tmp/$1 i n=0 srcs=()
	rm -rf "$dir"
	mkdir -p "$dir"
	echo "$lost" > "$dir/lost"
	echo "$k" > "$dir/k"
	head -c "$size" /dev/urandom > "$dir/in"
	pp "$ECCTL" code encode "$profile" k "$k" m "$m" in "$dir/in" \
		out "$dir" >&2 || return 1
	rm -f "$dir/req"
	if [ "$RC_REQ" != 0 ]; then
		head -c "$RC_REQ" /dev/urandom > "$dir/req"
	fi
	for i in $(seq 0 $((k + m - 1))); do
		[ "$i" != "$lost" ] || continue
		[ $n -lt "$k" ] || break
		n=$((n + 1))
		rc_serve $n $((8000 + id)) "$dir/frag.$i" "$RC_REQ" \
			"$dir/req.$n" || return 1
		srcs+=(source 10.0.$((10 + n)).2:$((8000 + id)):$i)
	done
	# shellcheck disable=SC2086 # RC_TASK is a list of words
	ecin task add id "$id" vip $VIP port $((7000 + id)) \
		code "$profile" k "$k" m "$m" lost "$lost" "${srcs[@]}" \
		$RC_TASK >&2
}

# rc_fetch ID: A reads task ID's stream into $tmp/ID/out (stderr in err).
rc_fetch() {
	local dir=$tmp/$1 port=$((7000 + $1))
	if [ "$RC_CLIENT" = prog ]; then
		local req=()
		[ -z "$RC_GATE" ] || req=(-W "$RC_GATE")
		[ ! -e "$dir/req" ] || req+=(-q "$dir/req")
		echo "[+] ip netns exec $A ecp-cli ${req[*]} -o out $VIP $port" >&2
		timeout "$RC_TIMEOUT" ip netns exec $A "$PROGS/ecp-cli" \
			"${req[@]}" -o "$dir/out" $VIP $port 2> "$dir/err"
	elif [ -e "$dir/req" ]; then
		echo "[+] ip netns exec $A socat -t 60 TCP:$VIP:$port - < req > out" >&2
		timeout "$RC_TIMEOUT" ip netns exec $A socat -t 60 \
			TCP:$VIP:$port - < "$dir/req" > "$dir/out" 2> "$dir/err"
	else
		echo "[+] ip netns exec $A socat -u TCP:$VIP:$port - > out" >&2
		timeout "$RC_TIMEOUT" ip netns exec $A socat -u TCP:$VIP:$port - \
			> "$dir/out" 2> "$dir/err"
	fi
}

# rc_same_req ID: every source got A's request, byte for byte.
rc_same_req() {
	local dir=$tmp/$1 n
	for n in $(seq 1 "$(cat "$dir/k")"); do
		cmp -s "$dir/req" "$dir/req.$n" || return 1
	done
}

# rc_verify DESC ID: TAP result of comparing what A got with the lost
# fragment (and the requests the sources got with A's).
rc_verify() {
	local desc=$1 id=$2 dir=$tmp/$2 lost want got why
	lost=$(cat "$dir/lost")
	want=$(sha256sum < "$dir/frag.$lost")
	got=$(sha256sum < "$dir/out")
	if [ "$want" != "$got" ]; then
		why="got $(stat -c %s "$dir/out") bytes, want $(stat -c %s "$dir/frag.$lost")"
		tap_fail "$desc" "$why; $(tr '\n' ' ' < "$dir/err")"
		ecin task show id "$id" -s >&2
	elif [ -e "$dir/req" ] && ! rc_same_req "$id"; then
		tap_fail "$desc" "a source did not get A's $(stat -c %s "$dir/req")-byte request"
	else
		tap_ok "$desc"
	fi
}

rc_conn_idle() {
	ecin task show id "$1" -s 2>/dev/null | grep -q 'state none'
}

# rc_reported ID PATTERN DESC: task ID's text statistics match PATTERN
# (grep), one test.
rc_reported() {
	local out
	out=$(ecin task show id "$1" -s)
	echo "$out" >&2
	if echo "$out" | grep -q -- "$2"; then
		tap_ok "$3"
	else
		tap_fail "$3" "$out"
	fi
}

# rc_bytes_out_gt ID N: task ID has sent A more than N bytes.
rc_bytes_out_gt() {
	local out
	out=$(rc_stats "$1" .stats.bytes_out 2>/dev/null)
	[ -n "$out" ] && [ "$out" -gt "$2" ]
}

# rc_gone PID SECS: process PID exits within SECS seconds.
rc_gone() {
	wait_for "$2" sh -c "! kill -0 $1"
}

# rc_recon DESC ID PROFILE K M LOST SIZE: one whole case, servers
# stopped and the task idle afterwards.
rc_recon() {
	local desc=$1 id=$2
	if ! rc_prep "$id" "${@:3}"; then
		tap_fail "$desc" "setting up the sources or the task failed"
		rc_stop_servers
		return
	fi
	rc_fetch "$id"
	rc_verify "$desc" "$id"
	rc_stop_servers
	wait_for 10 rc_conn_idle "$id"
}

# rc_stats ID JQ: a jq filter over task ID's JSON statistics (the task
# object of `ecctl -j task show id ID -s`).
rc_stats() {
	ip netns exec $S "$ECCTL" -j task show id "$1" -s | jq -r ".[0] | $2"
}
