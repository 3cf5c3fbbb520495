#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The GF(2^8) implementation choice through the real module: the load-time
# benchmark logs every implementation, the chosen one is readable, each one
# the CPU supports can be forced at load and switched at run time, and
# forcing an unsupported or unknown one fails with a clear message.
set -u
. "$(dirname "$0")/../lib/tap.sh"

param=/sys/module/ecproxy/parameters
cleanup() { modprobe -r ecproxy 2>/dev/null; }
trap cleanup EXIT

has_flag() { grep -qw "$1" /proc/cpuinfo; }
# Implementations this CPU can run, by the kernel's own feature names.
supported=(scalar)
has_flag ssse3 && supported+=(ssse3)
has_flag avx2 && supported+=(avx2)
has_flag avx512bw && supported+=(avx512)
has_flag gfni && has_flag avx2 && supported+=(gfni)
has_flag gfni && has_flag avx512bw && supported+=(gfni512)

pp modprobe -r ecproxy 2>/dev/null
pp dmesg -C
tap_check "load with the default selection" modprobe ecproxy
active=$(cat $param/gf_impl)
echo "# active: $active; CPU supports: ${supported[*]}" >&2
tap_check "the chosen implementation is one the CPU supports" \
	sh -c "echo ' ${supported[*]} ' | grep -q ' $active '"
tap_check "the selection is logged" sh -c "dmesg | grep -q 'ecproxy: gf: using $active'"
for impl in "${supported[@]}"; do
	tap_check "benchmark logged for $impl" \
		sh -c "dmesg | grep -Eq 'ecproxy: gf: $impl +mul_acc [0-9]+ MB/s'"
done
tap_check "benchmark readable" sh -c "grep -Eq '^scalar:[0-9]+' $param/gf_bench"
ECCTL=$(cd "$(dirname "$0")/../.." && pwd)/tools/ecctl/ecctl
tap_check "ecctl gf names the active implementation" \
	sh -c "$ECCTL gf | grep -qx 'implementation $active'"
tap_check "ecctl -j gf lists exactly what the CPU supports" \
	sh -c "$ECCTL -j gf | jq -e '.available == (\$ARGS.positional) and .implementation == \"$active\"' --args ${supported[*]} >/dev/null"
pp modprobe -r ecproxy

for impl in "${supported[@]}"; do
	tap_check "force $impl at load" modprobe ecproxy gf_impl=$impl
	tap_check "$impl is active" sh -c "[ \"\$(cat $param/gf_impl)\" = $impl ]"
	pp modprobe -r ecproxy
done

unsupported=
for impl in avx512 gfni; do
	case " ${supported[*]} " in *" $impl "*) ;; *) unsupported=$impl; break ;; esac
done
if [ -n "$unsupported" ]; then
	pp dmesg -C
	tap_expect_fail "forcing unsupported $unsupported fails the load" \
		modprobe ecproxy gf_impl=$unsupported
	tap_check "the refusal names $unsupported" \
		sh -c "dmesg | grep -q \"gf_impl: '$unsupported' is not supported\""
else
	tap_skip "forcing an unsupported implementation" "this CPU supports all of them"
	tap_skip "the refusal names it" "this CPU supports all of them"
fi
tap_expect_fail "an unknown name fails the load" modprobe ecproxy gf_impl=bogus

tap_check "load for run-time switching" modprobe ecproxy
tap_check "switch to scalar at run time" sh -c "echo scalar > $param/gf_impl"
tap_check "scalar is active" sh -c "[ \"\$(cat $param/gf_impl)\" = scalar ]"
tap_expect_fail "switching to an unknown name is refused" sh -c "echo bogus > $param/gf_impl"
tap_check "the refused switch leaves scalar active" sh -c "[ \"\$(cat $param/gf_impl)\" = scalar ]"
tap_check "back to auto" sh -c "echo auto > $param/gf_impl"
tap_check "unload" modprobe -r ecproxy

tap_done
