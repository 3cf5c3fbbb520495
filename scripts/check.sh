#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: dependencies, build, style (checkpatch, sparse), userspace tests, KUnit in the debug VM,
# netns selftests in the stock Debian and the debug VM, and a DKMS install
# in the Debian VM.  Every stage leaves
# TAP in build/results/STAGE.tap; the last line is "N passed, N failed"
# summed over all of them, and the exit status is non-zero on any failure.
#
# CHECK_STAGES="tools kunit netns-debian netns-debug" picks stages.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
res=$top/build/results
mkdir -p "$res"
rm -f "$res"/*.tap
stages=${CHECK_STAGES:-style tools kunit netns-debian netns-debug dkms}
t0=$(date +%s)

say() { echo "==> [$(( $(date +%s) - t0 ))s] $*"; }

# stage NAME CMD...: run CMD, keep its TAP (stdout), show everything; a
# command that fails without reporting a failing test counts as one.
stage() {
	local name=$1 rc
	shift
	say "$name"
	"$@" | tee "$res/$name.tap"
	rc=${PIPESTATUS[0]}
	if [ "$rc" != 0 ] && ! grep -q '^not ok' "$res/$name.tap"; then
		echo "not ok - $name: exited with status $rc" | tee -a "$res/$name.tap"
	fi
	read -r p f s < <(scripts/tap-count.sh "$res/$name.tap")
	say "$name: $p passed, $f failed, $s skipped"
}

build_all() {
	scripts/deps.sh && make -s all && echo "ok - build: module and tools" || return 1
	# A staged install must hold the module, registered with depmod, and ecctl.
	local stage=$top/build/install
	rm -rf "$stage"
	if make -s install INSTALL_MOD_PATH="$stage" DESTDIR="$stage" >&2 &&
		find "$stage/lib/modules" -name ecproxy.ko | grep -q . &&
		grep -q 'ecproxy.ko:' "$stage"/lib/modules/*/modules.dep &&
		[ -x "$stage/usr/local/sbin/ecctl" ] &&
		[ -f "$stage/usr/local/share/man/man8/ecctl.8" ]; then
		echo "ok - build: make install stages the module, ecctl and its man page"
	else
		echo "not ok - build: make install stages the module, ecctl and its man page"
		return 1
	fi
}

say "dependencies and build"
stage build build_all
if grep -q '^not ok' "$res/build.tap"; then
	stages=""
fi

for s in $stages; do
	case "$s" in
	style) stage style scripts/style.sh ;;
	tools) stage tools make -s -C tools check ;;
	kunit)
		# The first run builds the debug kernel (cached afterwards).
		say "debug kernel: $(scripts/debug-kernel.sh)"
		stage kunit selftests/kunit/run.sh
		;;
	# The reconstruction tests (recon*.sh) take minutes under TCG.
	netns-debian) stage netns-debian selftests/vm/run --kernel debian --timeout 2400 -- selftests/netns/run.sh ;;
	netns-debug) stage netns-debug selftests/vm/run --kernel debug --timeout 2400 -- selftests/netns/run.sh ;;
	# dkms builds the module inside the VM: minutes under TCG.
	dkms) stage dkms selftests/vm/run --kernel debian --timeout 1500 -- selftests/pkg/dkms.sh ;;
	*) echo "check: unknown stage $s" >&2; exit 2 ;;
	esac
done

read -r p f s < <(scripts/tap-count.sh "$res"/*.tap)
say "done in $(( $(date +%s) - t0 ))s; results in build/results/"
grep -h '^not ok' "$res"/*.tap | sed 's/^/FAILED: /'
if [ "$s" != 0 ]; then
	echo "$p passed, $f failed, $s skipped"
else
	echo "$p passed, $f failed"
fi
[ "$f" = 0 ] && [ "$p" != 0 ]
