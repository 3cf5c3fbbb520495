#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bash completion for ecctl completes objects, commands, profiles and keywords.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../selftests/lib/tap.sh"
# shellcheck source=/dev/null
. "$here/../completion/ecctl"

# complete "WORDS..." EXPECTED: the completions of the last word
complete_is() {
	local line=$1 want=$2 got
	read -r -a COMP_WORDS <<< "$line"
	[[ "$line" == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_ecctl
	got="${COMPREPLY[*]}"
	if [ "$got" = "$want" ]; then
		tap_ok "complete \"$line\""
	else
		tap_fail "complete \"$line\": got \"$got\", want \"$want\""
	fi
}

complete_is "ecctl " "code task stats monitor gf help"
complete_is "ecctl t" "task"
complete_is "ecctl -" "-json -pretty -statistics -netns -Version -help"
complete_is "ecctl task " "add start change del show flush help"
complete_is "ecctl task change id 1 " "id rate client buffer timeout"
complete_is "ecctl task start " "id"
complete_is "ecctl task add id 1 de" "dest"
complete_is "ecctl task add id 1 dest " ""
complete_is "ecctl m" "monitor"
complete_is "ecctl monitor " "help"
complete_is "ecctl stats reset " "id"
complete_is "ecctl -j task s" "start show"
complete_is "ecctl -j task sh" "show"
complete_is "ecctl code " "profiles matrix coef encode decode assemble help"
complete_is "ecctl code coef h" "hdfs-rs"
complete_is "ecctl code coef hdfs-rs k 6 m 3 l" "lost"
complete_is "ecctl code encode hdfs-rs k 6 m 3 c" "cell"
complete_is "ecctl code decode hdfs-rs k 6 m 3 lost 1 b" "block"
complete_is "ecctl code assemble hdfs-rs k 6 m 3 cell " ""
complete_is "ecctl task add id 1 vip 10.0.0.1 port 9 code c" "ceph-jerasure"
complete_is "ecctl task add id 1 vip 10.0.0.1 port 9 encode h" "hdfs-rs"
complete_is "ecctl task add id 1 en" "encode"
complete_is "ecctl task add id 1 ti" "timeout"
complete_is "ecctl task add id 1 timeout " "handshake idle linger"
complete_is "ecctl stats " "show reset help"
tap_done
