#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# S's counters on request, for the router CPU figures (bench_s_sample in
# bench.sh): for every line read, one line
#   "UPTIME NCPU IDLE_TICKS RX_B TX_B RX_A TX_A RXP_B TXP_B RXP_A TXP_A
#    IDLE_TICKS_1 ..."
# S's uptime (s), how many CPUs it has (those named, or all), their idle
# and iowait together (USER_HZ ticks), the bytes S's links to the storage
# nodes (to-b*) and to A1 (to-a1) received and sent, the same links'
# packets, then each CPU's idle and iowait.  Runs in S for the whole
# figure and reads with bash's builtins only, so that a sample costs S no
# process of its own.
#
#   s-sample.sh [CPU...]     CPU: a /proc/stat line (cpu2); none: all
set -u
cpus=("$@")
if [ ${#cpus[@]} = 0 ]; then
	while read -r name _; do
		case $name in cpu[0-9]*) cpus+=("$name") ;; esac
	done < /proc/stat
fi
shopt -s nullglob
devs=(/sys/class/net/to-b*)

while read -r _; do
	read -r up _ < /proc/uptime
	idle=0 each=
	while read -r name _ _ _ i w _; do
		case " ${cpus[*]} " in
		*" $name "*)
			idle=$((idle + i + w))
			each+=" $((i + w))"
			;;
		esac
	done < /proc/stat
	rxb=0 txb=0 rxpb=0 txpb=0
	for d in "${devs[@]}"; do
		read -r v < "$d/statistics/rx_bytes"
		rxb=$((rxb + v))
		read -r v < "$d/statistics/tx_bytes"
		txb=$((txb + v))
		read -r v < "$d/statistics/rx_packets"
		rxpb=$((rxpb + v))
		read -r v < "$d/statistics/tx_packets"
		txpb=$((txpb + v))
	done
	a=/sys/class/net/to-a1/statistics
	read -r rxa < "$a/rx_bytes"
	read -r txa < "$a/tx_bytes"
	read -r rxpa < "$a/rx_packets"
	read -r txpa < "$a/tx_packets"
	echo "$up ${#cpus[@]} $idle $rxb $txb $rxa $txa $rxpb $txpb $rxpa $txpa$each"
done
