#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Plots (gnuplot, PNG) and the markdown summary for the CSVs that
# bench/run.sh wrote in OUTDIR.  Figures whose CSV is missing are skipped.
#
#   bench/report.sh OUTDIR SIZE CAP
set -u
out=$1 size=$2 cap=$3
md=$out/summary.md
term="set terminal pngcairo size 640,400 font ',10'; set key top left; set grid"

plot() {	# plot NAME GNUPLOT-COMMANDS
	gnuplot -e "$term; set output '$out/$1.png'; set datafile separator ','; $2" ||
		echo "report: plot $1 failed" >&2
}

{
	echo "# ecproxy benchmarks ($size)"
	echo
	sed 's/^/- /' "$out/env.txt" 2>/dev/null
	echo "- A's link cap (tc tbf on S): $cap"
	echo
	echo "Ratios are the result: under emulation (TCG) absolute rates mean little."
	echo
} > "$md"

# code_summary CSV: one line per code of a codes-figure CSV: the rates of
# the three ways and the ratios.
code_summary() {
	awk -F, 'NR > 1 { r[$1, $2] = $6; c[$1, $2] = $5; b[$1, $2] = $3; if (!($1 in seen)) { seen[$1] = 1; o[n++] = $1 } }
		END {
			print "code,replication_mbit_s,native_mbit_s,ecproxy_mbit_s,speedup_vs_native,ratio_to_replication,native_cpu_s_per_gib,ecproxy_cpu_s_per_gib"
			for (i = 0; i < n; i++) {
				k = o[i]
				printf "%s,%.3f,%.3f,%.3f,%.2f,%.2f,%.2f,%.2f\n", k, r[k, "replication"],
					r[k, "native"], r[k, "ecproxy"],
					r[k, "native"] ? r[k, "ecproxy"] / r[k, "native"] : 0,
					r[k, "replication"] ? r[k, "ecproxy"] / r[k, "replication"] : 0,
					b[k, "native"] ? c[k, "native"] * 2^30 / b[k, "native"] : 0,
					b[k, "ecproxy"] ? c[k, "ecproxy"] * 2^30 / b[k, "ecproxy"] : 0
			}
		}' "$1"
}

if [ -s "$out/codes.csv" ]; then
	code_summary "$out/codes.csv" > "$out/codes-summary.csv"
	plot codes "set title 'Reconstruction rate vs code (A link $cap)'; set ylabel 'Mbit/s';
		set style data histogram; set style histogram clustered gap 1; set style fill solid 0.8;
		set yrange [0:*]; set key outside right;
		plot '$out/codes-summary.csv' skip 1 using 2:xtic(1) title 'replication',
		     '' skip 1 using 3 title 'native EC', '' skip 1 using 4 title 'ecproxy'"
	plot cpu "set title 'CPU seconds on A per reconstructed GiB'; set ylabel 'CPU s / GiB';
		set style data histogram; set style histogram clustered gap 1; set style fill solid 0.8;
		set yrange [0:*]; set key outside right;
		plot '$out/codes-summary.csv' skip 1 using 7:xtic(1) title 'native EC', '' skip 1 using 8 title 'ecproxy'"
	{
		echo "## Reconstruction rate vs code ([codes.png](codes.png), [codes.csv](codes.csv))"
		echo
		echo "| code | replication Mbit/s | native Mbit/s | ecproxy Mbit/s | ecproxy / native | ecproxy / replication |"
		echo "|---|---:|---:|---:|---:|---:|"
		awk -F, 'NR > 1 { printf "| %s | %.2f | %.2f | %.2f | **%.2fx** | **%.0f%%** |\n", $1, $2, $3, $4, $5, 100 * $6 }' "$out/codes-summary.csv"
		echo
		# Only a link-bound run compares the ways fairly.
		capm=$(numfmt --from=si "$(echo "${cap%bit}" | tr 'a-z' 'A-Z')")
		awk -F, -v c="$capm" 'NR > 1 { s += $2; n++ } END { if (n) { p = 100 * s / n / (c / 1e6)
			printf "Replication reached %.0f%% of the cap on average: %s.\n", p,
				(p >= 80 ? "the runs were link-bound" : "the machine was CPU-bound, not link-bound, so the rates mostly compare CPU costs") } }' "$out/codes-summary.csv"
		echo
		echo "## CPU on A per reconstructed GiB ([cpu.png](cpu.png))"
		echo
		echo "| code | native CPU s/GiB | ecproxy CPU s/GiB | native / ecproxy |"
		echo "|---|---:|---:|---:|"
		awk -F, 'NR > 1 { printf "| %s | %.1f | %.1f | **%.1fx** |\n", $1, $7, $8, $8 ? $7 / $8 : 0 }' "$out/codes-summary.csv"
		echo
	} >> "$md"
fi

if [ -s "$out/router.csv" ] && [ -s "$out/codes-summary.csv" ]; then
	code_summary "$out/router.csv" > "$out/router-summary.csv.tmp"
	# Per code: each way plain and with the ruleset, and their ratio.
	join -t, <(tail -n +2 "$out/codes-summary.csv" | cut -d, -f1-4 | sort) \
		<(tail -n +2 "$out/router-summary.csv.tmp" | cut -d, -f1-4 | sort) |
		awk -F, 'BEGIN { print "code,replication_plain,replication_stateful,native_plain,native_stateful,ecproxy_plain,ecproxy_stateful,ecproxy_stateful_over_plain" }
			{ printf "%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", $1, $2, $5, $3, $6, $4, $7, $4 ? $7 / $4 : 0 }' \
		> "$out/router-summary.csv"
	rm -f "$out/router-summary.csv.tmp"
	plot router "set title 'Rate with a stateful ruleset on S (A link $cap)'; set ylabel 'Mbit/s';
		set style data histogram; set style histogram clustered gap 1; set style fill solid 0.8;
		set yrange [0:*]; set key outside right;
		plot '$out/router-summary.csv' skip 1 using 2:xtic(1) title 'replication, plain',
		     '' skip 1 using 3 title 'replication, ruleset',
		     '' skip 1 using 6 title 'ecproxy, plain', '' skip 1 using 7 title 'ecproxy, ruleset'"
	{
		echo "## On a router with a stateful ruleset ([router.png](router.png), [router.csv](router.csv))"
		echo
		echo "S carries \`selftests/lib/router.nft\`: conntrack on everything, INVALID"
		echo "dropped in input, forward and output, masquerade towards the storage nodes."
		echo
		echo "| code | replication plain / ruleset Mbit/s | native plain / ruleset | ecproxy plain / ruleset | ecproxy ruleset / plain |"
		echo "|---|---:|---:|---:|---:|"
		awk -F, 'NR > 1 { printf "| %s | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | **%.2f** |\n", $1, $2, $3, $4, $5, $6, $7, $8 }' \
			"$out/router-summary.csv"
		echo
		cat "$out/router.txt" 2>/dev/null
		echo
	} >> "$md"
fi

if [ -s "$out/buffer.csv" ]; then
	plot buffer "set title 'ecproxy rate vs decode buffer (RTT fixed by netem)'; set xlabel 'buffer (KiB)';
		set ylabel 'Mbit/s'; set logscale x 2; set yrange [0:*];
		plot '$out/buffer.csv' using (\$1/1024):3 every ::1 with linespoints title 'ecproxy',
		     '' using (\$1/1024):4 every ::1 with lines dashtype 2 title 'buffer / RTT',
		     '' using (\$1/1024):5 every ::1 with lines dashtype 3 title 'cap',
		     '' using (\$1/1024):7 every ::1 with lines dashtype 4 title 'replication'"
	{
		echo "## Rate vs decode buffer at RTT $(awk -F, 'NR == 2 { print $2 }' "$out/buffer.csv") ms ([buffer.png](buffer.png), [buffer.csv](buffer.csv))"
		echo
		awk -F, 'NR == 2 && NF >= 9 { printf "Replication on the same path: %.2f Mbit/s; its sender measured an RTT of %s ms (ss -ti), S measured %s ms to A at the largest buffer below.\n\n", $7, $9, "@" }' "$out/buffer.csv" |
			sed "s/@/$(awk -F, 'END { print $8 }' "$out/buffer.csv")/"
		echo "| buffer | ecproxy Mbit/s | buffer/RTT Mbit/s | cap Mbit/s | rate / min(buffer/RTT, cap) | ecproxy / replication | S's RTT to A, ms |"
		echo "|---:|---:|---:|---:|---:|---:|---:|"
		awk -F, 'NR > 1 { lim = $4 < $5 ? $4 : $5; printf "| %d KiB | %.2f | %.2f | %.2f | %.2f | %s | %s |\n", $1 / 1024, $3, $4, $5, $3 / lim,
			$7 ? sprintf("%.2f", $3 / $7) : "-", $8 != "" ? $8 : "-" }' "$out/buffer.csv"
		echo
	} >> "$md"
fi

if [ -s "$out/loss.csv" ]; then
	# Per link, loss and way, the median run by rate, as the figures below
	# take theirs; one line per link and loss.
	tail -n +2 "$out/loss.csv" | sort -t, -k1,1 -k2,2 -k4,4 -k8,8n |
		awk -F, '{ k = $1 "," $2; m = ++n[k, $4]; r[k, $4, m] = $8
			b[k, $4] += $5; t[k, $4] += $6
			if ($9 != "") { rto[k, $4] += $9; nr[k, $4]++ }
			if (!(k in seen)) { seen[k] = 1; o[c++] = k } }
		function med(k, w) { return n[k, w] ? r[k, w, int((n[k, w] + 1) / 2)] : 0 }
		function rtos(k, w) { return nr[k, w] ? sprintf("%.1f", rto[k, w] / nr[k, w]) : "-" }
		# Per node read: replication reads one, native and ecproxy 6, the
		# spares 7 and 8.
		function per(k, w, nodes) { return nr[k, w] ? sprintf("%.2f", rto[k, w] / nr[k, w] / nodes) : "-" }
		# Every run of a way together: its bytes over its time.  Under
		# burst loss single runs spread widely (a stall of seconds in
		# some), which a median of few runs hides.
		function all(k, w) { return t[k, w] ? b[k, w] * 8 / t[k, w] / 1e6 : 0 }
		END {
			print "link,loss,replication_mbit_s,native_mbit_s,ecproxy_mbit_s,ratio_to_replication,replication_source_rtos,ecproxy_source_rtos,spare1_mbit_s,spare1_ratio_to_replication,spare1_source_rtos,spare2_mbit_s,spare2_ratio_to_replication,spare2_source_rtos,replication_rtos_per_node,ecproxy_rtos_per_node,spare1_rtos_per_node,spare2_rtos_per_node,native_source_rtos,native_rtos_per_node,replication_min_mbit_s,replication_max_mbit_s,ecproxy_min_mbit_s,ecproxy_max_mbit_s,replication_all_mbit_s,ecproxy_all_mbit_s,all_ratio_to_replication"
			for (i = 0; i < c; i++) {
				x = med(o[i], "replication"); e = med(o[i], "ecproxy")
				s1 = med(o[i], "spare1"); s2 = med(o[i], "spare2")
				printf "%s,%.3f,%.3f,%.3f,%.2f,%s,%s,%.3f,%.2f,%s,%.3f,%.2f,%s,%s,%s,%s,%s,%s,%s", o[i], x, med(o[i], "native"), e, x ? e / x : 0,
					rtos(o[i], "replication"), rtos(o[i], "ecproxy"),
					s1, x ? s1 / x : 0, rtos(o[i], "spare1"), s2, x ? s2 / x : 0, rtos(o[i], "spare2"),
					per(o[i], "replication", 1), per(o[i], "ecproxy", 6),
					per(o[i], "spare1", 7), per(o[i], "spare2", 8),
					rtos(o[i], "native"), per(o[i], "native", 6)
				xa = all(o[i], "replication"); ea = all(o[i], "ecproxy")
				printf ",%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.2f\n",
					r[o[i], "replication", 1], r[o[i], "replication", n[o[i], "replication"]],
					r[o[i], "ecproxy", 1], r[o[i], "ecproxy", n[o[i], "ecproxy"]],
					xa, ea, xa ? ea / xa : 0
			}
		}' > "$out/loss-summary.csv"
	plot loss "set title 'Goodput under loss, RS(6,3) (A link $cap)'; set ylabel 'Mbit/s';
		set style data histogram; set style histogram clustered gap 1; set style fill solid 0.8;
		set yrange [0:*]; set key outside right; set xtics rotate by -30;
		plot '$out/loss-summary.csv' skip 1 using 3:xtic(stringcolumn(1).' '.stringcolumn(2)) title 'replication',
		     '' skip 1 using 4 title 'native EC', '' skip 1 using 5 title 'ecproxy',
		     '' skip 1 using 9 title 'ecproxy + 1 spare', '' skip 1 using 12 title 'ecproxy + 2 spares'"
	{
		echo "## Goodput under loss, RS(6,3) ([loss.png](loss.png), [loss.csv](loss.csv))"
		echo
		echo "Medians of $(awk -F, 'NR > 1 && $3 > m { m = $3 } END { print m }' "$out/loss.csv") runs. Loss on A's link is on the data S (or the router) sends A; on the sources' links, on the data every storage node sends, one segment per packet (as a wire loses frames; netem would otherwise drop a node's GSO packets whole). Burst: netem gemodel 2% 50%.${BENCH_LOSS_BG:+ Each lossy link also carried $BENCH_LOSS_BG pings a second (BENCH_LOSS_BG), so that the burst state of netem moved with time.} Sources' RTOs: the retransmission timeouts of the storage nodes' own TCP (TcpExtTCPTimeouts, all nodes summed) per transfer, the mean of the runs; replication reads one node, native EC and ecproxy k (6), so the same loss per link meets their transfers k times as often; per node read, the same RTOs divided by the nodes each way reads (1, 6, 6, 7, 8), says whether a node's TCP fares worse towards S than towards A. ecproxy + 1 spare and + 2 spares read one and two more nodes (k + 1, k + 2) and complete the rows wherever all sources but as many as there are spares have sent (ecctl task add ... spare), on the sources' links only. Runs, min-max: the slowest and fastest single runs of replication and ecproxy; all runs: every run's bytes over every run's time, each way, and their ratio, ecproxy's to replication's."
		echo
		echo "| link | loss | replication Mbit/s | native Mbit/s | ecproxy Mbit/s | ecproxy / replication | + 1 spare / replication | + 2 spares / replication | runs, min-max Mbit/s: replication; ecproxy | all runs: ecproxy / replication | sources' RTOs per transfer: replication / native / ecproxy / + 1 spare / + 2 spares | per node read |"
		echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
		awk -F, 'function r(x) { return x > 0 ? sprintf("**%.2f**", x) : "-" }
			NR > 1 { printf "| %s | %s | %.2f | %.2f | %.2f | **%.2f** | %s | %s | %.2f-%.2f; %.2f-%.2f | %.2f | %s / %s / %s / %s / %s | %s / %s / %s / %s / %s |\n", $1, $2, $3, $4, $5, $6, r($10), r($13), $21, $22, $23, $24, $27, $7, $19, $8, $11, $14, $15, $20, $16, $17, $18 }' "$out/loss-summary.csv"
		echo
	} >> "$md"
fi

if [ -s "$out/concurrency.csv" ]; then
	awk -F, 'NR > 1 && $2 == 1 { print $1 "," $3 }' "$out/concurrency.csv" > "$out/.c1"
	awk -F, 'NR > 1 && ($2 > 1 || $1 == 1) { print $1 "," $3 "," $2 }' "$out/concurrency.csv" > "$out/.cn"
	plot concurrency "set title 'Concurrent RS(3,2) reconstructions through ecproxy'; set xlabel 'tasks';
		set ylabel 'aggregate Mbit/s'; set logscale x 2; set yrange [0:*]; set key bottom right;
		plot '$out/.c1' using 1:2 with linespoints title 'one A',
		     '$out/.cn' using 1:2 with linespoints title 'one A per task (up to 8 As)'"
	rm -f "$out/.c1" "$out/.cn"
	{
		echo "## Concurrent tasks ([concurrency.png](concurrency.png), [concurrency.csv](concurrency.csv))"
		echo
		echo "| tasks | clients | aggregate Mbit/s | exact | of the clients' caps |"
		echo "|---:|---:|---:|---:|---:|"
		awk -F, 'NR > 1 { printf "| %d | %d | %.2f | %d/%d | %.0f%% |\n", $1, $2, $3, $4, $1, 100 * $3 / ($5 * $2) }' "$out/concurrency.csv"
		echo
		# With many As the caps add up past what S itself can do: say
		# so, from the same run's uncapped figure.
		if [ -s "$out/uncapped.csv" ]; then
			awk -F, '$1 == "ecproxy" { printf "Uncapped, one task through the proxy ran at %.2f Mbit/s in this run: aggregates near that are bound by the machine, not by the clients'"'"' caps.\n\n", $4 }' \
				"$out/uncapped.csv"
		fi
	} >> "$md"
fi

if [ -s "$out/latency.csv" ]; then
	awk -F, 'NR > 1 { t[$1, $2] = $4; if (!($1 in s)) { s[$1] = 1; o[n++] = $1 } }
		END { print "block_bytes,replication_s,native_s,ecproxy_s"
		      for (i = 0; i < n; i++) printf "%s,%.3f,%.3f,%.3f\n", o[i], t[o[i], "replication"], t[o[i], "native"], t[o[i], "ecproxy"] }' \
		"$out/latency.csv" > "$out/latency-summary.csv"
	plot latency "set title 'Degraded read: time to rebuild one fragment, RS(6,3)'; set xlabel 'block (KiB)';
		set ylabel 'seconds'; set logscale xy;
		plot '$out/latency-summary.csv' using (\$1/1024):2 every ::1 with linespoints title 'replication',
		     '' using (\$1/1024):3 every ::1 with linespoints title 'native EC',
		     '' using (\$1/1024):4 every ::1 with linespoints title 'ecproxy'"
	{
		echo "## Degraded-read latency ([latency.png](latency.png), [latency.csv](latency.csv))"
		echo
		echo "| block | replication s | native s | ecproxy s | native / ecproxy | ecproxy / replication |"
		echo "|---:|---:|---:|---:|---:|---:|"
		awk -F, 'NR > 1 { printf "| %d KiB | %.3f | %.3f | %.3f | **%.2fx** | %.2fx |\n", $1 / 1024, $2, $3, $4, $4 ? $3 / $4 : 0, $2 ? $4 / $2 : 0 }' "$out/latency-summary.csv"
		echo
	} >> "$md"
fi

if [ -s "$out/uncapped.csv" ]; then
	plot uncapped "set title 'Uncapped: ecproxy vs plain forwarding through S'; set ylabel 'Mbit/s';
		set style data histogram; set style fill solid 0.8; set yrange [0:*];
		plot '$out/uncapped.csv' using 4:xtic(1) every ::1 title 'rate to A'"
	{
		echo "## Uncapped: ecproxy vs plain forwarding ([uncapped.png](uncapped.png), [uncapped.csv](uncapped.csv))"
		echo
		echo "Softirq time is the whole machine's (S, A and the sources share one"
		echo "kernel); the difference between the rows is S's reconstruction work."
		echo
		echo "| path | Mbit/s | softirq s | softirq ns/byte to A |"
		echo "|---|---:|---:|---:|"
		awk -F, 'NR > 1 { printf "| %s | %.2f | %.2f | %.2f |\n", $1, $4, $5, $6 }' "$out/uncapped.csv"
		awk -F, 'NR > 1 { r[$1] = $4 } END { if (r["forwarding"]) printf "\necproxy runs at **%.0f%%** of the plain forwarding rate.\n", 100 * r["ecproxy"] / r["forwarding"] }' "$out/uncapped.csv"
		echo
	} >> "$md"
fi

if [ -s "$out/routercpu.csv" ]; then
	# Per code and way, the run with the median CPU per input byte.
	awk -F, 'NR > 1 && $13 == "ok" { k = $1 SUBSEP $2; n[k]++; v[k, n[k]] = $11; line[k, n[k]] = $0
			if (!($1 in seen)) { seen[$1] = 1; o[nc++] = $1 } }
		function med(k,   i, j, t, idx, m) {
			m = n[k]; for (i = 1; i <= m; i++) idx[i] = i
			for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
				if (v[k, idx[j]] < v[k, idx[i]]) { t = idx[i]; idx[i] = idx[j]; idx[j] = t }
			return line[k, idx[int((m + 1) / 2)]] }
		END {
			print "code,forwarding_mbit_s,forwarding_s_busy,forwarding_ns_per_byte,ecproxy_output_mbit_s,ecproxy_input_mbit_s,ecproxy_s_busy,ecproxy_ns_per_input_byte,ecproxy_ns_per_output_byte,input_ratio,output_ratio,forwarding_sent_packets_per_mb,ecproxy_sent_packets_per_mb"
			for (i = 0; i < nc; i++) {
				c = o[i]
				if (!n[c, "replication"] || !n[c, "ecproxy"]) continue
				split(med(c SUBSEP "replication"), f, ","); split(med(c SUBSEP "ecproxy"), e, ",")
				# Packets S sent (to A1 and to the nodes) per MB in.
				printf "%s,%.3f,%.2f,%.2f,%.3f,%.3f,%.2f,%.2f,%.2f,%.2f,%.2f,%.0f,%.0f\n", c, f[7], f[10], f[11],
					e[7], e[8], e[10], e[11], e[12], f[11] ? e[11] / f[11] : 0, f[11] ? e[12] / f[11] : 0,
					f[4] ? (f[15] + f[17]) * 1e6 / f[4] : 0, e[4] ? (e[15] + e[17]) * 1e6 / e[4] : 0
			}
		}' "$out/routercpu.csv" > "$out/routercpu-summary.csv"
	plot routercpu "set title \"S's CPU per byte (S in a VM of its own)\"; set ylabel 'ns of S CPU per byte';
		set style data histogram; set style histogram cluster gap 1; set style fill solid 0.8; set yrange [0:*];
		plot '$out/routercpu-summary.csv' using 4:xtic(1) every ::1 title 'forwarding, per byte',
		'' using 8 every ::1 title 'ecproxy, per input byte', '' using 9 every ::1 title 'ecproxy, per output byte'"
	{
		echo "## Router CPU: what S costs per byte ([routercpu.png](routercpu.png), [routercpu.csv](routercpu.csv))"
		echo
		echo "S's busy CPU time (not idle) per byte its links carried"
		echo "(headers included), uncapped; the run with the median cost per input"
		echo "byte of each way; S busy: its share of S's CPU over the transfer."
		echo "Forwarding is one plain copy (replication) through S; ecproxy's input"
		echo "is the k sources' bytes, its output what went to A. Packets S sent:"
		echo "to A1 and to the storage nodes (segments after GSO, ACKs, window"
		echo "updates), per MB that came in; under emulation each costs a doorbell or"
		echo "a share of one."
		if [ -s "$out/routercpu-env.txt" ]; then
			echo
			sed 's/^/    /' "$out/routercpu-env.txt"
		fi
		echo
		echo "| code | forwarding Mbit/s | S busy | forwarding ns/byte | ecproxy out / in Mbit/s | S busy | ecproxy ns/input byte | ecproxy ns/output byte | per input byte / forwarded | per output byte / forwarded | packets S sent per MB in: forwarding / ecproxy |"
		echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
		awk -F, 'NR > 1 { printf "| %s | %.1f | %.0f%% | %.1f | %.1f / %.1f | %.0f%% | %.1f | %.1f | **%.2f** | %.2f | %s / %s |\n",
			$1, $2, 100 * $3, $4, $5, $6, 100 * $7, $8, $9, $10, $11, ($12 == "" ? "-" : $12), ($13 == "" ? "-" : $13) }' "$out/routercpu-summary.csv"
		echo
		for f in "$out"/routercpu-perf-*.txt; do
			[ -s "$f" ] || continue
			echo "- profile: [$(basename "$f")]($(basename "$f"))"
		done
		echo
	} >> "$md"
fi

if [ -s "$out/routerscale.csv" ]; then
	# Per way and number at once, the medians over the runs.
	# Runs short of an exact result (or of S's samples) count only in
	# the exact column.
	awk -F, 'NR > 1 { k = $1 SUBSEP $2; split($8, ex, "/"); got[k] += ex[1]; all[k] += ex[2]
			if (!($2 in seen)) { seen[$2] = 1; o[m++] = $2 }
			if (ex[1] != ex[2]) next
			n[k]++; r[k, n[k]] = $3; b[k, n[k]] = $5; c[k, n[k]] = $7; h[k, n[k]] = $9 + 0; p[k] = $6 }
		function med(a, k,   i, j, t, v, cnt) {
			cnt = n[k]; for (i = 1; i <= cnt; i++) v[i] = a[k, i]
			for (i = 1; i <= cnt; i++) for (j = i + 1; j <= cnt; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
			return v[int((cnt + 1) / 2)] }
		function way(k, f) {
			if (!n[k]) return ",,,,,,"
			return sprintf(",%.3f,%.2f,%s,%.2f,%.2f,%.0f", med(r, k), med(b, k), p[k], med(c, k),
				med(c, f) ? med(c, k) / med(c, f) : 0, med(h, k)) }
		END {
			print "tasks,forwarding_mbit_s,forwarding_s_busy,forwarding_busy_per_cpu,forwarding_ns_per_byte," \
				"ecproxy_mbit_s,ecproxy_s_busy,ecproxy_busy_per_cpu,ecproxy_ns_per_input_byte,input_ratio,off_home," \
				"rfs_mbit_s,rfs_s_busy,rfs_busy_per_cpu,rfs_ns_per_input_byte,rfs_input_ratio,rfs_off_home," \
				"syn_mbit_s,syn_s_busy,syn_busy_per_cpu,syn_ns_per_input_byte,syn_input_ratio,syn_off_home,exact"
			for (i = 0; i < m; i++) { t = o[i]; f = "replication" SUBSEP t; x = "ecproxy" SUBSEP t; y = "ecproxy-rfs" SUBSEP t
				z = "ecproxy-rfs-syn" SUBSEP t
				if (!n[f]) continue
				printf "%s,%.3f,%.2f,%s,%.2f%s%s%s,%d/%d; %d/%d; %d/%d; %d/%d\n", t, med(r, f), med(b, f), p[f], med(c, f),
					way(x, f), way(y, f), way(z, f), got[f], all[f], got[x], all[x], got[y], all[y], got[z], all[z] }
		}' "$out/routerscale.csv" > "$out/routerscale-summary.csv"
	plot routerscale "set title \"S on two CPUs: several at once\"; set ylabel 'ns of S CPU per input byte';
		set yrange [0:*]; set xlabel 'tasks or copies at once'; set xtics (1, 2, 4);
		plot '$out/routerscale-summary.csv' using 1:5 every ::1 with linespoints title 'forwarding, per byte',
		'' using 1:9 every ::1 with linespoints title 'ecproxy, per input byte',
		'' using 1:15 every ::1 with linespoints title 'ecproxy with RFS, per input byte',
		'' using 1:21 every ::1 with linespoints title 'ecproxy with RFS, homes where accepted'"
	{
		echo "## Router CPU across CPUs ([routerscale.png](routerscale.png), [routerscale.csv](routerscale.csv))"
		echo
		echo "1, 2 and 4 RS(3,2) tasks at once to A1 against as many plain copies"
		echo "forwarded at once, uncapped, S on two CPUs; ecproxy as S's links"
		echo "spread its flows, and with Receive Flow Steering on, which keeps each"
		echo "connection's flows on its CPU: homes chosen by load (the default), and"
		echo "where the client's SYN came in (steer_by_load=N). Medians of the runs,"
		echo "each CPU's busy share from the last exact run; off home: segments that"
		echo "came in away from their connection's CPU; exact: of each way, over all"
		echo "runs."
		if [ -s "$out/routerscale-env.txt" ]; then
			echo
			sed 's/^/    /' "$out/routerscale-env.txt"
		fi
		echo
		echo "| at once | way | Mbit/s | S busy (per CPU) | ns of S per input byte | / forwarded | off home | exact |"
		echo "|---:|---|---:|---|---:|---:|---:|---|"
		awk -F, 'NR > 1 { gsub(";", " / ", $4); gsub(";", " / ", $8); gsub(";", " / ", $14); gsub(";", " / ", $20); split($24, ex, "; ")
			printf "| %d | forwarding | %.1f | %.0f%% (%s) | %.1f | | | %s |\n", $1, $2, 100 * $3, $4, $5, ex[1]
			if ($6 != "") printf "| | ecproxy | %.1f | %.0f%% (%s) | %.1f | **%.2f** | %d | %s |\n", $6, 100 * $7, $8, $9, $10, $11, ex[2]
			if ($12 != "") printf "| | ecproxy, RFS | %.1f | %.0f%% (%s) | %.1f | **%.2f** | %d | %s |\n", $12, 100 * $13, $14, $15, $16, $17, ex[3]
			if ($18 != "") printf "| | ecproxy, RFS, homes where accepted | %.1f | %.0f%% (%s) | %.1f | **%.2f** | %d | %s |\n", $18, 100 * $19, $20, $21, $22, $23, ex[4] }' \
			"$out/routerscale-summary.csv"
		echo
	} >> "$md"
fi

if [ -s "$out/multi.csv" ]; then
	# Per r and way: the median run by time (bytes too), empty where a
	# run failed.
	tail -n +2 "$out/multi.csv" | sort -t, -k1,1n -k2,2 -k5,5n |
		awk -F, '{ k = $1 SUBSEP $2; m = ++n[k]; b[k, m] = $4; t[k, m] = $5
				if ($6 != "ok") bad[k] = 1
				if (!($1 in s)) { s[$1] = 1; o[nr++] = $1 } }
			function v(r, w, x,   k, m) { k = r SUBSEP w; if (!n[k] || bad[k]) return ""
				m = int((n[k] + 1) / 2); return sprintf("%.3f", x == "t" ? t[k, m] : b[k, m] / 2^20) }
			END { print "r,one_mib,separate_mib,native_mib,one_s,separate_s,native_s"
				for (i = 0; i < nr; i++) { r = o[i]
					printf "%s,%s,%s,%s,%s,%s,%s\n", r, v(r, "one", "b"), v(r, "separate", "b"),
						v(r, "native", "b"), v(r, "one", "t"), v(r, "separate", "t"), v(r, "native", "t") } }' \
		> "$out/multi-summary.csv"
	for f in bytes:2:MiB time:5:seconds; do
		IFS=: read -r name col unit <<< "$f"
		plot multi-$name "set title 'RS(12,4), r lost fragments onto r targets: $name'; set xlabel 'r';
			set ylabel '$unit'; set xtics 1; set yrange [0:*]; set datafile missing '';
			plot '$out/multi-summary.csv' using 1:$col every ::1 with linespoints title 'one task, r targets',
			     '' using 1:$((col + 1)) every ::1 with linespoints title 'r tasks',
			     '' using 1:$((col + 2)) every ::1 with linespoints title 'native'"
	done
	{
		echo "## Several lost fragments ([multi-bytes.png](multi-bytes.png), [multi-time.png](multi-time.png), [multi.csv](multi.csv))"
		echo
		echo "RS(12,4), r lost fragments each rebuilt onto its own target: one task with"
		echo "r targets (one), r tasks with one target each started together (separate),"
		echo "and native (T1 reads k fragments, decodes r and sends r-1 on)."
		cat "$out/multi.txt" 2>/dev/null
		echo "Survivor bytes: what the survivors' links carried, headers included."
		echo "one and separate ran $(awk -F, 'NR > 1 && $3 > n { n = $3 } END { print n }' "$out/multi.csv") times each: their median run (by time) counts."
		echo
		echo "| r | survivors sent MiB: one / separate / native | one / separate (target 1/r) | time s: one / separate / native | one's time / single loss (target ≤ 1.10) |"
		echo "|---:|---:|---:|---:|---:|"
		awk -F, 'function c(x) { return x == "" ? "FAILED" : sprintf("%.2f", x) }
			NR == 2 { single = $5 }
			NR > 1 { printf "| %d | %s / %s / %s | **%s** (%.2f) | %s / %s / %s | **%s** |\n", $1, c($2), c($3), c($4),
				$2 != "" && $3 ? sprintf("%.2f", $2 / $3) : "-", 1 / $1, c($5), c($6), c($7),
				$5 != "" && single ? sprintf("%.2f", $5 / single) : "-" }' "$out/multi-summary.csv"
		echo
	} >> "$md"
fi

if [ -s "$out/degread.csv" ]; then
	# Per way, its median run by rate (way,bytes,... as one run's line),
	# or FAILED if a run failed.
	tail -n +2 "$out/degread.csv" | sort -t, -k2,2 -k6,6n |
		awk -F, '{ m = ++n[$2]; l[$2, m] = substr($0, index($0, ",") + 1); if ($10 != "ok") bad[$2] = 1 }
			END { print "way,bytes,wall_s,cpu_s,mbit_s,ping_mean_ms,ping_max_ms,link_drops,status"
				split("idle replication native ecproxy", w, " ")
				for (i = 1; i <= 4; i++) if (n[w[i]])
					print bad[w[i]] ? w[i] ",0,0,0,0,0,0,0,FAILED" : l[w[i], int((n[w[i]] + 1) / 2)] }' \
		> "$out/degread-summary.csv"
	plot degread "set title 'Degraded read of a striped RS(6,3) block (A link $cap)'; set ylabel 'Mbit/s';
		set style data histogram; set style fill solid 0.8; set yrange [0:*]; set y2range [0:*];
		set y2label 'client CPU s'; set y2tics; set key outside right;
		plot '$out/degread-summary.csv' using 5:xtic(1) every ::2 title 'rate',
		     '' using 4 every ::2 axes x1y2 title 'client CPU'"
	plot degread-ping "set title 'RTT on A''s link (ping every 200 ms)'; set ylabel 'ms';
		set style data histogram; set style fill solid 0.8; set yrange [0:*]; set key outside right;
		plot '$out/degread-summary.csv' using 6:xtic(1) every ::1 title 'mean', '' using 7 every ::1 title 'max'"
	{
		echo "## Degraded read of a striped block ([degread.png](degread.png), [degread-ping.png](degread-ping.png), [degread.csv](degread.csv))"
		echo
		cat "$out/degread.txt" 2>/dev/null
		echo "The RTT is A's ping to S's end of A's link while each way ran: the replies"
		echo "queue behind the block's data on A's capped link, whose drops are counted."
		echo "Each way ran $(awk -F, 'NR > 1 && $1 > n { n = $1 } END { print n }' "$out/degread.csv") times, in turns: its median run (by rate) counts."
		echo
		echo "| way | Mbit/s | / replication | client CPU s | / replication | ping mean ms | ping max ms | drops on A's link |"
		echo "|---|---:|---:|---:|---:|---:|---:|---:|"
		awk -F, 'NR > 1 { w[NR] = $1; r[$1] = $5; c[$1] = $4; pm[NR] = $6; px[NR] = $7; dr[NR] = $8; st[$1] = $9 }
			END { for (i = 2; i <= NR; i++) { x = w[i]
				if (x == "idle") printf "| idle | | | | | %.2f | %.2f | %d |\n", pm[i], px[i], dr[i]
				else if (st[x] != "ok") printf "| %s | FAILED | | | | | | |\n", x
				else printf "| %s | %.2f | **%.2f** | %.2f | **%.2f** | %.2f | %.2f | %d |\n", x, r[x],
					r["replication"] ? r[x] / r["replication"] : 0, c[x],
					c["replication"] ? c[x] / c["replication"] : 0, pm[i], px[i], dr[i] }
			if (st["ecproxy"] == "ok" && st["replication"] == "ok" && r["replication"] && c["replication"])
				printf "\necproxy: %.2f of replication'"'"'s rate (target ≥ 0.95: %s), %.2fx its client CPU (target ≤ 1.1: %s).\n",
					r["ecproxy"] / r["replication"], (r["ecproxy"] >= 0.95 * r["replication"] ? "met" : "not met"),
					c["ecproxy"] / c["replication"], (c["ecproxy"] <= 1.1 * c["replication"] ? "met" : "not met")
			else print "\nThe targets (ecproxy ≥ 0.95 of replication'"'"'s rate, client CPU ≤ 1.1x) are not assessed: a run FAILED." }' \
			"$out/degread-summary.csv"
		echo
	} >> "$md"
fi

if [ -s "$out/write.csv" ]; then
	# Per way, its median run by rate, or FAILED if a run failed.
	tail -n +2 "$out/write.csv" | sort -t, -k2,2 -k6,6n |
		awk -F, '{ m = ++n[$2]; l[$2, m] = substr($0, index($0, ",") + 1); if ($7 != "ok") bad[$2] = 1 }
			END { print "way,bytes_w,wall_s,cpu_s,mbit_s,status"
				split("copy native ecproxy", w, " ")
				for (i = 1; i <= 3; i++) if (n[w[i]])
					print bad[w[i]] ? w[i] ",0,0,0,0,FAILED" : l[w[i], int((n[w[i]] + 1) / 2)] }' \
		> "$out/write-summary.csv"
	plot write "set title 'Writing a striped RS(6,3) block (W link $cap)'; set ylabel 'Mbit/s of the block';
		set style data histogram; set style fill solid 0.8; set yrange [0:*]; set y2range [0:*];
		set y2label 'W CPU s'; set y2tics; set key outside right;
		plot '$out/write-summary.csv' using 5:xtic(1) every ::1 title 'rate',
		     '' using 4 every ::1 axes x1y2 title 'W CPU'"
	{
		echo "## The write path ([write.png](write.png), [write.csv](write.csv))"
		echo
		cat "$out/write.txt" 2>/dev/null
		echo "copy sends the block whole to one node (a replica: the ceiling), native"
		echo "encodes it on W and sends the 9 fragments (host EC), ecproxy sends it once"
		echo "to a write task, which makes the parity in S. The rate is the block's bytes"
		echo "over the time until every node acknowledged its part; W's link bytes include"
		echo "headers. Each way ran $(awk -F, 'NR > 1 && $1 > n { n = $1 } END { print n }' "$out/write.csv") times, in turns: its median run (by rate) counts."
		echo
		echo "| way | Mbit/s | / copy | / native | W's CPU s | / copy | bytes on W's link |"
		echo "|---|---:|---:|---:|---:|---:|---:|"
		awk -F, 'NR > 1 { w[NR] = $1; r[$1] = $5; c[$1] = $4; b[$1] = $2; st[$1] = $6 }
			END { for (i = 2; i <= NR; i++) { x = w[i]
				if (st[x] != "ok") { printf "| %s | FAILED | | | | | |\n", x; continue }
				printf "| %s | %.2f | **%.2f** | **%.2f** | %.2f | **%.2f** | %d |\n", x, r[x],
					r["copy"] ? r[x] / r["copy"] : 0, r["native"] ? r[x] / r["native"] : 0,
					c[x], c["copy"] ? c[x] / c["copy"] : 0, b[x] }
			if (st["ecproxy"] == "ok" && st["copy"] == "ok" && st["native"] == "ok" && r["copy"] && c["copy"])
				printf "\necproxy: %.2f of the copy'"'"'s rate (target ≥ 0.95: %s), %.2fx host EC'"'"'s (target ≥ 1.5, (k+m)/k: %s), %.2fx the copy'"'"'s W CPU (target ≤ 1.1: %s).\n",
					r["ecproxy"] / r["copy"], (r["ecproxy"] >= 0.95 * r["copy"] ? "met" : "not met"),
					r["ecproxy"] / r["native"], (r["ecproxy"] >= 1.5 * r["native"] ? "met" : "not met"),
					c["ecproxy"] / c["copy"], (c["ecproxy"] <= 1.1 * c["copy"] ? "met" : "not met")
			else print "\nThe targets are not assessed: a run FAILED." }' \
			"$out/write-summary.csv"
		echo
	} >> "$md"
fi

if [ -s "$out/rate.csv" ]; then
	plot rate "set title 'A rate-capped task beside a foreground flow on T1''s link'; set xlabel 's';
		set ylabel 'Mbit/s'; set yrange [0:*]; set datafile missing ''; set key outside right;
		plot '$out/rate-series.csv' using 1:3 every ::1 with lines title 'task (T1''s file)',
		     '' using 1:4 every ::1 with lines title 'foreground',
		     '' using 1:5 every ::1 with lines dashtype 2 title 'task cap'"
	{
		echo "## Rate cap beside a foreground flow ([rate.png](rate.png), [rate.csv](rate.csv), [rate-series.csv](rate-series.csv))"
		echo
		cat "$out/rate.txt" 2>/dev/null
		echo "The task's rate is the growth of T1's file, the foreground's the rest of what"
		echo "T1's link received; each over the second half of its phase (the first holds"
		echo "the ramp after the start or the change: see rate.png)."
		echo
		echo "| phase | cap Mbit/s | task Mbit/s at T1 | task Mbit/s (ecctl) | task / cap | foreground Mbit/s |"
		echo "|---|---:|---:|---:|---:|---:|"
		awk -F, 'NR > 1 { printf "| %s | %s | %.2f | %s | %s | %.2f |\n", $1, $2 == "" ? "-" : $2, $3,
			$4 == "" ? "-" : sprintf("%.2f", $4), $2 == "" ? "-" : sprintf("**%.2f**", $3 / $2), $5
			st = $6 } END { print "\nThe run, uncapped at the end, " (st == "ok" ? "stored the fragment byte for byte." : "FAILED.") }' \
			"$out/rate.csv"
		echo
	} >> "$md"
fi

if [ -s "$out/gf-bench.md" ]; then
	awk -F, 'NR > 1 { print $1 "," $2 "," $3 }' "$out/gf-bench.csv" > "$out/.gf"
	plot gf "set title 'GF(2^8) multiply-accumulate, 4 KiB'; set ylabel 'MB/s';
		set style data histogram; set style fill solid 0.8; set yrange [0:*]; set key outside right;
		plot '$out/.gf' using 2:xtic(1) title 'kernel', '' using 3 title 'ISA-L gf\\_vect\\_mad'"
	rm -f "$out/.gf"
	{
		echo "## GF kernels vs ISA-L ([gf.png](gf.png), [gf-bench.csv](gf-bench.csv))"
		echo
		tail -n +2 "$out/gf-bench.md"
		echo
	} >> "$md"
fi
cat "$md"
