#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) the debug kernel the tests boot: Debian's linux-source-6.1,
# allnoconfig plus selftests/config/debug.config.  The result is cached
# outside the work tree, keyed by the source package version and the hash of
# the fragment and of the build recipe (recipe= below: bump it when the way
# the kernel is built changes), so only the first run pays for the build.
#
# Prints the build directory (usable as KDIR for M= builds) on stdout.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
frag=$top/selftests/config/debug.config
tarball=/usr/src/linux-source-6.1.tar.xz
cache=${ECP_CACHE:-${XDG_CACHE_HOME:-${HOME:-/var/cache}/.cache}/ecproxy}

log() { echo "debug-kernel: $*" >&2; }

[ -r "$tarball" ] || { log "$tarball missing; run scripts/deps.sh"; exit 1; }
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
recipe=1
key=$( (cat "$frag"; echo "recipe=$recipe") | sha256sum | cut -c1-16)
dir=$cache/kernel-debug-$srcver-$key
mkdir -p "$cache"

exec 9>"$cache/.kernel-debug.lock"
flock 9

if [ -e "$dir/.done" ]; then
	# Caches from before the recipe built modules lack the symbol versions
	# that external modules link against; this is quick to add.
	if [ ! -e "$dir/obj/Module.symvers" ]; then
		make -s -C "$dir/obj" ARCH=x86_64 -j"$(nproc)" modules >&2
	fi
	echo "$dir/obj"
	exit 0
fi

rm -rf "$dir"
mkdir -p "$dir/obj"
start=$(date +%s)
log "building the debug kernel in $dir (one time, about 10-20 minutes on 2 cores)"
log "extracting $tarball"
tar -xJf "$tarball" -C "$dir"
src=$dir/linux-source-6.1
make -s -C "$src" O="$dir/obj" ARCH=x86_64 KCONFIG_ALLCONFIG="$frag" allnoconfig >&2

# A fragment line whose dependencies are unmet is silently dropped by
# Kconfig; fail loudly instead of testing on a kernel without, say, KASAN.
missing=0
while IFS= read -r line; do
	case "$line" in CONFIG_*=*) ;; *) continue ;; esac
	sym=${line%%=*} val=${line#*=}
	if [ "$val" = n ]; then
		got=$(grep -E "^$sym=|^# $sym is not set" "$dir/obj/.config" || true)
		case "$got" in ""|"# $sym is not set") ;; *) log "not unset: $got"; missing=1 ;; esac
	elif ! grep -qxF "$sym=$val" "$dir/obj/.config"; then
		log "fragment option not applied: $line"
		missing=1
	fi
done < "$frag"
[ $missing = 0 ] || { log "fix selftests/config/debug.config"; exit 1; }

jobs=$(nproc)
make -C "$dir/obj" ARCH=x86_64 -j"$jobs" bzImage modules >"$dir/build.log" 2>&1 &
pid=$!
while kill -0 $pid 2>/dev/null; do
	sleep 30
	n=$(grep -c '^  CC ' "$dir/build.log" || true)
	log "still building: $n files compiled, $(( $(date +%s) - start ))s elapsed"
done
if ! wait $pid; then
	tail -40 "$dir/build.log" >&2
	log "kernel build failed; full log in $dir/build.log"
	exit 1
fi
# The source tree is needed for M= builds (the O= tree refers to it).
touch "$dir/.done"
log "debug kernel built in $(( $(date +%s) - start ))s"
echo "$dir/obj"
