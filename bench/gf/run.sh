#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module's GF(2^8) code against ISA-L on this machine's CPU.
#
#   bench/gf/run.sh OUTDIR
#
# No root and no VM: gf_bench (make -C bench/gf) links kmod/gf*.c as built
# for the host by selftests/unit, so the figures are those of the real CPU,
# not of qemu's emulation.  Writes to OUTDIR:
#   gf-host.csv   every figure: test,method,impl,size,align,k,gbps
#   gf-bench.md   the tables, with the CPU and the implementation the
#                 module's load-time benchmark picks on it
#   gf-bench.png  mul_acc per implementation, and decode per code
#   gf-bench.csv  the 4 KiB summary bench/report.sh plots (make bench)
#
# Environment: BENCH_GF_MS (ms per run, default 20), BENCH_GF_RUNS (runs,
# default 5), ECP_GF_BENCH (path of gf_bench), BENCH_GF_REUSE=1 (make the
# tables and plots again from OUTDIR/gf-host.csv, measuring nothing).
# About 30 s on 2 cores.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: bench/gf/run.sh OUTDIR}
bin=${ECP_GF_BENCH:-$here/gf_bench}
[ -x "$bin" ] || { echo "gf bench: $bin missing; run make -C bench/gf" >&2; exit 1; }
mkdir -p "$out"
csv=$out/gf-host.csv md=$out/gf-bench.md sum=$out/gf-bench.csv

info=$("$bin" -i)
cpu=$(sed -n 's/^cpu=//p' <<< "$info")
selected=$(sed -n 's/^selected=//p' <<< "$info")
if [ -n "${BENCH_GF_REUSE:-}" ] && [ -s "$csv" ]; then
	echo "gf bench: tables from $csv" >&2
else
	echo "gf bench: $cpu, the module would use $selected; measuring ..." >&2
	"$bin" -t "${BENCH_GF_MS:-20}" -r "${BENCH_GF_RUNS:-5}" > "$csv"
fi

# fig TEST METHOD IMPL SIZE ALIGN K: one figure from the CSV (empty if none)
fig() {
	awk -F, -v t="$1" -v m="$2" -v i="$3" -v s="$4" -v a="$5" -v k="$6" \
		'$1 == t && $2 == m && $3 == i && $4 == s && $5 == a && $6 == k { print $7 }' "$csv"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "-"; else printf "%.2f", a / b }'; }
sizes="4096 65536 1048576"
label() { case $1 in 4096) echo "4 KiB" ;; 65536) echo "64 KiB" ;; 1048576) echo "1 MiB" ;; *) echo "$1 B" ;; esac; }
impls=$(awk -F, '$1 == "mul_acc" && $2 == "kernel" && !seen[$3]++ { print $3 }' "$csv")
# The fastest implementation of the module at SIZE ALIGN, "name gbps".
best() {
	awk -F, -v s="$1" -v a="$2" '$1 == "mul_acc" && $2 == "kernel" && $4 == s && $5 == a && $7 > b { b = $7; n = $3 }
		END { print n, b }' "$csv"
}

{
	echo "GF(2^8) on the host CPU: $cpu (one core, GB/s = 10^9 bytes/s)"
	echo
	echo "CPU: $cpu, flags: $(grep -m1 -ow -E 'avx512bw|gfni|avx2|ssse3' /proc/cpuinfo | sort -u | tr '\n' ' ')"
	echo "kernel $(uname -r); ISA-L $(dpkg-query -W -f='${Version}' libisal2 2>/dev/null || echo '?');"
	echo "the module's load-time benchmark picks **$selected** here."
	echo "Each figure: the best batch of about 0.2 ms in ${BENCH_GF_RUNS:-5} runs of ${BENCH_GF_MS:-20} ms;"
	echo "aligned: 64-byte aligned buffers; unaligned: source and destination at"
	echo "odd offsets (see bench/gf/gf_bench.c)."
	echo
	echo "### mul_acc (dst ^= c * src), GB/s"
	echo
	printf '| impl |'; for s in $sizes; do printf ' %s |' "$(label "$s")"; done
	for s in $sizes; do printf ' %s unaligned |' "$(label "$s")"; done; echo
	printf '|---|'; for s in $sizes $sizes; do printf -- '---:|'; done; echo
	for i in $impls; do
		printf '| %s%s |' "$i" "$([ "$i" = "$selected" ] && echo ' (picked)')"
		for a in aligned unaligned; do
			for s in $sizes; do printf ' %s |' "$(fig mul_acc kernel "$i" "$s" "$a" 1)"; done
		done
		echo
	done
	printf '| ISA-L gf_vect_mad |'
	for a in aligned unaligned; do
		for s in $sizes; do printf ' %s |' "$(fig mul_acc isal gf_vect_mad "$s" "$a" 1)"; done
	done
	echo
	xi=$(awk -F, '$2 == "xor" { print $3; exit }' "$csv")
	printf '| (%s XOR, no multiply) |' "$xi"
	for a in aligned unaligned; do
		for s in $sizes; do printf ' %s |' "$(fig mul_acc xor "$xi" "$s" "$a" 1)"; done
	done
	echo
	printf '| **best / ISA-L** |'
	for a in aligned unaligned; do
		for s in $sizes; do
			read -r n b < <(best "$s" "$a")
			printf ' **%s** (%s) |' "$(ratio "$b" "$(fig mul_acc isal gf_vect_mad "$s" "$a" 1)")" "$n"
		done
	done
	echo
	echo
	for a in aligned unaligned; do
		echo "### Decoding one lost fragment on one core, output GB/s ($a, $selected)"
		echo
		echo "k passes: ecp_gf_mul_acc() once per survivor, as the data path does today;"
		echo "multi: ecp_gf_mul_acc_multi(), each survivor read once and the output written once;"
		echo "ISA-L: ec_encode_data() with one output row."
		echo
		printf '| code | method |'; for s in $sizes; do printf ' %s |' "$(label "$s")"; done; echo
		printf '|---|---|'; for s in $sizes; do printf -- '---:|'; done; echo
		for k in 6 10 12; do
			m=$([ $k = 6 ] && echo 3 || echo 4)
			for row in "kpass:k passes" "multi:multi" "isal:ISA-L"; do
				meth=${row%%:*}
				impl=$([ "$meth" = isal ] && echo ec_encode_data || echo "$selected")
				printf '| RS(%s,%s) | %s |' "$k" "$m" "${row#*:}"
				for s in $sizes; do printf ' %s |' "$(fig decode "$meth" "$impl" "$s" "$a" "$k")"; done
				echo
			done
			printf '| RS(%s,%s) | **multi / ISA-L** |' "$k" "$m"
			for s in $sizes; do
				printf ' **%s** |' "$(ratio "$(fig decode multi "$selected" "$s" "$a" "$k")" \
					"$(fig decode isal ec_encode_data "$s" "$a" "$k")")"
			done
			echo
		done
		echo
	done
} > "$md"

# The summary bench/report.sh reads (make bench): 4 KiB, aligned, MB/s,
# ISA-L's ec_encode_data as MB/s of source bytes as before.
mad=$(fig mul_acc isal gf_vect_mad 4096 aligned 1)
enc=$(awk -v g="$(fig decode isal ec_encode_data 4096 aligned 6)" 'BEGIN { printf "%.0f", g * 6000 }')
echo "impl,mul_acc_MBps,isal_gf_vect_mad_MBps,ratio_vs_mad,isal_ec_encode_k6_MBps,ratio_vs_encode,active" > "$sum"
for i in $impls; do
	g=$(fig mul_acc kernel "$i" 4096 aligned 1)
	awk -v i="$i" -v g="$g" -v mad="$mad" -v enc="$enc" -v act="$([ "$i" = "$selected" ] && echo yes || echo no)" \
		'BEGIN { printf "%s,%.0f,%.0f,%.2f,%s,%.2f,%s\n", i, g * 1000, mad * 1000, g / mad, enc, g * 1000 / enc, act }' >> "$sum"
done

# Two panels: mul_acc by size per implementation, decode by code.
if command -v gnuplot > /dev/null; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	for i in $impls; do
		for s in $sizes; do echo "$s $(fig mul_acc kernel "$i" "$s" aligned 1)"; done > "$tmp/m-$i"
	done
	for s in $sizes; do echo "$s $(fig mul_acc isal gf_vect_mad "$s" aligned 1)"; done > "$tmp/m-isal"
	for k in 6 10 12; do
		for s in $sizes; do
			echo "\"RS($k,$([ $k = 6 ] && echo 3 || echo 4)) $(label "$s")\" $(fig decode kpass "$selected" "$s" aligned "$k")" \
				"$(fig decode multi "$selected" "$s" aligned "$k")" \
				"$(fig decode isal ec_encode_data "$s" aligned "$k")"
		done
	done > "$tmp/dec"
	plots=""
	for i in $impls; do plots="$plots '$tmp/m-$i' using 1:2 with linespoints title '$i',"; done
	gnuplot -e "set terminal pngcairo size 1100,420 font ',9'; set output '$out/gf-bench.png';
		set multiplot layout 1,2 title 'GF(2^8) on $cpu, one core (aligned buffers)';
		set logscale x 2; set xtics ('4K' 4096, '64K' 65536, '1M' 1048576); set grid;
		set ylabel 'GB/s'; set yrange [0:*]; set offsets 0, 0, graph 0.3, 0; set key top right;
		set title 'mul\\_acc: dst ^= c * src';
		plot $plots '$tmp/m-isal' using 1:2 with linespoints lw 2 dt 2 title 'ISA-L gf\\_vect\\_mad';
		unset logscale x; set offsets 0, 0, graph 0.25, 0; set bmargin 7;
		set xtics rotate by 90 right autofreq font ',8'; set key top right;
		set title 'decode one lost fragment ($selected), output GB/s';
		set style data histogram; set style histogram clustered gap 1; set style fill solid 0.8;
		plot '$tmp/dec' using 2:xtic(1) title 'k passes', '' using 3 title 'multi-source', '' using 4 title 'ISA-L ec\\_encode\\_data';
		unset multiplot" || echo "gf bench: plot failed" >&2
fi
cat "$md"
