#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: dependencies, build, style (checkpatch, sparse), userspace tests
# (tools, and the pure kernel units on the host), KUnit in the debug VM,
# netns selftests in the stock Debian and the debug VM, and a DKMS install
# in the Debian VM.  Every stage leaves
# TAP in build/results/STAGE.tap; the last line is "N passed, N failed"
# summed over all of them, and the exit status is non-zero on any failure.
#
# CHECK_STAGES="setup style tools unit kunit netns-debian netns-debug netns-debug-recon dkms"
# picks stages.  The VM stages run in three lanes at once (see below).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
res=$top/build/results
mkdir -p "$res"
rm -f "$res"/*.tap "$res"/lane-*.log
stages=${CHECK_STAGES:-setup style tools unit kunit netns-debian netns-debug netns-debug-recon dkms}
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

# netns tests in two groups, so that the debug kernel's share can run in
# two VMs at once: the reconstruction and write matrices (recon_*.sh,
# coding_write.sh) and the rest.
# The longest fault suites run on the stock kernel only: on the debug
# kernel they take half an hour each under TCG, which CI's time cannot
# hold (run them there by hand: selftests/vm/run --kernel debug -- ...).
# So do two matrices whose paths the debug kernel runs elsewhere, for the
# debug lanes' 3600 s: coding_targets.sh (DEST: the targets' handshake,
# acks, refusal, death and aborts are coding_write.sh's on the debug
# kernel; 965 s there) and recon_offload.sh (offloads and MTUs: the same
# data path as recon.sh and recon_codes.sh; 400 s there).
debian_only=" hostile.sh recon_faults.sh coding_rate.sh coding_targets.sh recon_offload.sh "
# And the other way round: functional matrices whose run on the stock
# kernel would only repeat their run on the debug kernel (the same 6.1,
# with every checker on), for the stock lane's 3600 s.
debug_only=" coding_write.sh coding_read.sh "
netns_debian=()
netns_rest=()
netns_recon=()
for t in selftests/netns/*.sh; do
	case "$t" in
	*/run.sh) ;;
	*) case "$debug_only" in *" $(basename "$t") "*) ;; *) netns_debian+=("$t") ;; esac ;;
	esac
	case "$debian_only" in *" $(basename "$t") "*) continue ;; esac
	case "$t" in
	*/run.sh) ;;
	# The write path's matrix joins them: the lane with room.
	*/recon_*.sh | */coding_write.sh) netns_recon+=("$t") ;;
	*) netns_rest+=("$t") ;;
	esac
done

# Per test file inside a VM (selftests/netns/run.sh); the wide matrices on
# the debug kernel need more than the default when the lanes share 2 cores.
export ECP_TEST_TIMEOUT=${ECP_TEST_TIMEOUT:-1800}

run_stage() {
	case "$1" in
	# scripts/deps.sh on simulated fresh machines.
	setup) stage setup selftests/setup/deps.sh ;;
	style) stage style scripts/style.sh ;;
	tools) stage tools make -s -C tools check ;;
	# kmod's pure units and their KUnit suites on the host CPU: every
	# GF implementation it has, which qemu's TCG cannot run.
	unit) stage unit make -s -C selftests/unit run ;;
	kunit)
		# The first run builds the debug kernel (cached afterwards).
		say "debug kernel: $(scripts/debug-kernel.sh)"
		stage kunit selftests/kunit/run.sh
		;;
	# The reconstruction tests take minutes under TCG, the more so on
	# the debug kernel.
	netns-debian) stage netns-debian selftests/vm/run --kernel debian --timeout 3600 -- selftests/netns/run.sh "${netns_debian[@]}" ;;
	netns-debug)
		say "debug kernel: $(scripts/debug-kernel.sh)"
		# 24 back-to-back reconstructions, not 200: enough to walk
		# past an 8-port range three times (router_conns.sh).
		ECP_BACK_TO_BACK=${ECP_BACK_TO_BACK_DEBUG:-24} \
			stage netns-debug selftests/vm/run --kernel debug --timeout 3600 -- selftests/netns/run.sh "${netns_rest[@]}"
		;;
	netns-debug-recon)
		say "debug kernel: $(scripts/debug-kernel.sh)"
		# 64 concurrent tasks on the stock kernel; 16 here, where
		# KASAN makes every byte several times dearer.
		ECP_CONCURRENT=${ECP_CONCURRENT_DEBUG:-16} \
			stage netns-debug-recon selftests/vm/run --kernel debug --timeout 3600 -- selftests/netns/run.sh "${netns_recon[@]}"
		;;
	# dkms builds the module inside the VM: minutes under TCG.
	dkms) stage dkms selftests/vm/run --kernel debian --timeout 2400 -- selftests/pkg/dkms.sh ;;
	*) echo "check: unknown stage $1" >&2; exit 2 ;;
	esac
}

# Three lanes: most of a VM run is one busy vCPU, and CI has 2 cores and
# limited time.  Lanes other than the first log to build/results/LANE.log,
# shown when they end.  The debug kernel is built (or found in the cache)
# before the lanes start, so that they do not build it twice.
lane() {
	local s
	for s in "$@"; do
		case " $stages " in *" $s "*) run_stage "$s" ;; esac
	done
}
for s in $stages; do
	case "$s" in
	setup|style|tools|unit|kunit|netns-debian|netns-debug|netns-debug-recon|dkms) ;;
	*) echo "check: unknown stage $s" >&2; exit 2 ;;
	esac
done
lane setup style tools unit
case " $stages " in
*" kunit "* | *" netns-debug"*) say "debug kernel: $(scripts/debug-kernel.sh)" ;;
esac
lane netns-debian > "$res/lane-debian.log" 2>&1 &
lane_debian=$!
lane netns-debug-recon dkms > "$res/lane-debug-recon.log" 2>&1 &
lane_recon=$!
lane kunit netns-debug
wait $lane_recon
say "lane netns-debug-recon, dkms:"
cat "$res/lane-debug-recon.log"
wait $lane_debian
say "lane netns-debian:"
cat "$res/lane-debian.log"

read -r p f s < <(scripts/tap-count.sh "$res"/*.tap)
say "done in $(( $(date +%s) - t0 ))s; results in build/results/"
grep -h '^not ok' "$res"/*.tap | sed 's/^/FAILED: /'
if [ "$s" != 0 ]; then
	echo "$p passed, $f failed, $s skipped"
else
	echo "$p passed, $f failed"
fi
[ "$f" = 0 ] && [ "$p" != 0 ]
