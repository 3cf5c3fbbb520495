#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: dependencies, build, style (checkpatch, sparse), userspace tests
# (tools, and the pure kernel units on the host), KUnit in the debug VM,
# netns selftests in the stock Debian and the debug VM, and a DKMS install
# (built on the host, loaded in the Debian VM).  Every stage leaves
# TAP in build/results/STAGE.tap; the last line is "N passed, N failed"
# summed over all of them, and the exit status is non-zero on any failure.
#
# CHECK_STAGES="setup style tools unit kunit netns-debian netns-debug netns-debian-late
# netns-debug-write dkms pair"
# picks stages.  The VM stages run in three lanes at once (see below).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
res=$top/build/results
mkdir -p "$res"
rm -f "$res"/*.tap "$res"/lane-*.log
stages=${CHECK_STAGES:-setup style tools unit kunit netns-debian netns-debug netns-debian-late netns-debug-write dkms pair}
t0=$(date +%s)

say() { echo "==> [$(( $(date +%s) - t0 ))s] $*"; }

# stage NAME CMD...: run CMD, keep its TAP (stdout), show everything; a
# command that fails without reporting a failing test, or a VM that timed
# out, counts as one.
stage() {
	local name=$1 rc
	shift
	say "$name"
	"$@" | tee "$res/$name.tap"
	rc=${PIPESTATUS[0]}
	# A VM that ran out of time (vm/run's 125) left tests unrun: that
	# is a failure of its own, whatever failed before it.
	if [ "$rc" = 125 ] ||
		{ [ "$rc" != 0 ] && ! grep -q '^not ok' "$res/$name.tap"; }; then
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

# Every netns test file runs on one kernel, never both: a run on the other
# would repeat the same paths in the same 6.1 (make check must stay under
# an hour from nothing on 2 cores, its debug kernel build included).
# The debug kernel (KASAN, lockdep, kmemleak) gets what its checkers are
# for: netlink parsing and races (genl, nlfuzz, task), connections torn
# down under traffic (faults, fallback), the READ and WRITE modes' own
# paths (coding_read, coding_write; the latter's loss case runs the
# outputs' scoreboards, faults' loss from a source the SACK blocks S sends
# it, and KUnit ecproxy_sack the scoreboard itself), and a spare's check
# ring (recon_spare).  The stock kernel gets the rest: the
# timing tests (coding_rate, recon_ebsn, router_conns' hundreds of
# back-to-back reconstructions within TIME-WAIT's minute, which took 18
# minutes in a loaded debug lane and outlasted it), the big matrices
# (recon_*, coding_targets, 64 concurrent tasks, 64 MiB), loss recovery
# both ways with SACK on and off (recon_sack), and the fault
# suites hostile.sh and recon_faults.sh, which take half an hour each on
# the debug kernel under TCG (run them there by hand:
# selftests/vm/run --kernel debug -- selftests/netns/run.sh selftests/netns/hostile.sh).
# coding_write.sh fills a second debug lane.  The stock lane is
# full (it ran out of its VM's hour on a slow machine with router_conns
# in it): router_conns.sh runs on the stock kernel in the tail (below),
# with router_rfs.sh, which needs two vCPUs.
debug_files=" genl.sh nlfuzz.sh task.sh faults.sh fallback.sh coding_read.sh"
debug_files+=" recon_spare.sh "
debug_write_files=" coding_write.sh "
debian_late_files=" router_conns.sh router_rfs.sh "
# The stock lane starts while the debug kernel builds on both cores: in
# CI (2026-11-28) coding_rate.sh, first in the lane, held 3 Mbit/s 13%
# under its cap while ecctl's calls in the VM took 2.5 s each.  The file
# that measures rates runs last in the lane instead, when what shares
# the cores is the other lanes' VMs, as it was sized for.
debian_last_files=" coding_rate.sh "
netns_debian=()
netns_debian_last=()
netns_debian_late=()
netns_debug=()
netns_debug_write=()
for t in selftests/netns/*.sh; do
	case "$t" in */run.sh) continue ;; esac
	case "$debian_late_files" in
	*" $(basename "$t") "*) netns_debian_late+=("$t"); continue ;;
	esac
	case "$debian_last_files" in
	*" $(basename "$t") "*) netns_debian_last+=("$t"); continue ;;
	esac
	case "$debug_files $debug_write_files" in
	*" $(basename "$t") "*) ;;
	*) netns_debian+=("$t"); continue ;;
	esac
	case "$debug_write_files" in
	*" $(basename "$t") "*) netns_debug_write+=("$t") ;;
	*) netns_debug+=("$t") ;;
	esac
done
netns_debian+=("${netns_debian_last[@]}")

# Per test file inside a VM (selftests/netns/run.sh); coding_write.sh on
# the debug kernel took 2367 s in a fresh run on a slow 2-core machine.
# A lane's VM gets 4800 s: these are guards against a hang, and on a slow
# day (per-file times 1.6 times the usual) the stock lane ran 3600 s out
# in its last file; CI's 90 minutes bound the whole.
export ECP_TEST_TIMEOUT=${ECP_TEST_TIMEOUT:-3300}

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
	netns-debian) stage netns-debian selftests/vm/run --kernel debian --smp 1 --timeout 4800 -- selftests/netns/run.sh "${netns_debian[@]}" ;;
	netns-debug)
		say "debug kernel: $(scripts/debug-kernel.sh)"
		stage netns-debug selftests/vm/run --kernel debug --smp 1 --timeout 4800 -- selftests/netns/run.sh "${netns_debug[@]}"
		;;
	netns-debian-late)
		local late=("${netns_debian_late[@]}")
		case " $stages " in *" dkms "*) late+=(selftests/pkg/dkms_load.sh) ;; esac
		# Two vCPUs: router_rfs.sh moves flows between CPUs.
		stage netns-debian-late selftests/vm/run --kernel debian --smp 2 --timeout 4800 -- selftests/netns/run.sh "${late[@]}"
		;;
	netns-debug-write)
		say "debug kernel: $(scripts/debug-kernel.sh)"
		stage netns-debug-write selftests/vm/run --kernel debug --smp 1 --timeout 4800 -- selftests/netns/run.sh "${netns_debug_write[@]}"
		;;
	# DKMS builds and installs the module for the stock kernel on the
	# host (a quarter of an hour of gcc under TCG); netns-debian-late
	# loads what it built in the VM (selftests/pkg/dkms_load.sh).
	dkms) stage dkms selftests/pkg/dkms.sh ;;
	# S in a VM of its own beside the hosts' VM, as the router CPU
	# benchmark runs it (two VMs of one vCPU, about two minutes).
	pair) stage pair selftests/vm/pair --links "a1 b1 b2 b3 b4 b5" --timeout 900 -- selftests/vm/pair_test.sh ;;
	*) echo "check: unknown stage $1" >&2; exit 2 ;;
	esac
}

# Three lanes: most of a VM run is one busy vCPU, and CI has 2 cores and
# limited time.  Every lane's VM has one vCPU.  The debug kernel has no
# ACPI, so it sees one CPU whatever qemu gives it (found in 2026-11: the
# debug lane's VM was given two "for races across CPUs" and used one).
# netns-debian-late's VM, in the tail, has two: router_rfs.sh moves flows
# between CPUs.  Six vCPUs on two cores made every lane about four times
# slower than alone (coding_read.sh 1225 s against 286 s): TCG's vCPU
# threads wait on each other's preempted lock holders, with lockdep and
# KASAN the longer.  With one vCPU each in the other lanes, it took 366 s.  The stock kernel's lane needs no debug kernel, so it
# starts first and runs while the debug kernel builds; the two debug lanes
# start as soon as it is built (or found in the cache), so that they do not
# build it twice, and the host's own checks (style, tools, unit, dkms:
# three minutes of CPU) run beside them rather than in front.  Lanes other than
# the debug one log to build/results/LANE.log, shown when they end.  The
# stages of the tail (below) follow whichever lanes end first.
lane() {
	local s
	for s in "$@"; do
		case " $stages " in *" $s "*) run_stage "$s" ;; esac
	done
}
# The tail: stages that need no lane of their own.  Each lane, once its own
# stages are done, claims the next unclaimed one (mkdir is atomic), so that
# they go to whichever lanes end first: the lanes' ends move by minutes
# from one machine to the next, and the last of them is make check's time.
# netns-debian-late loads what the dkms stage built, so it waits for the
# host's lane.
tail_stages="netns-debian-late pair"
rm -rf "$res"/claim-*
tail_lane() {
	local s
	for s in $tail_stages; do
		case " $stages " in *" $s "*) ;; *) continue ;; esac
		mkdir "$res/claim-$s" 2>/dev/null || continue
		if [ "$s" = netns-debian-late ]; then
			while [ ! -e "$res/claim-host-done" ]; do sleep 5; done
		fi
		run_stage "$s"
	done
}
for s in $stages; do
	case "$s" in
	setup|style|tools|unit|kunit|netns-debian|netns-debug|netns-debian-late|netns-debug-write|dkms|pair) ;;
	*) echo "check: unknown stage $s" >&2; exit 2 ;;
	esac
done
{
	lane netns-debian
	tail_lane
} > "$res/lane-debian.log" 2>&1 &
lane_debian=$!
lane setup
case " $stages " in
*" style "* | *" kunit "* | *" netns-debug"*) say "debug kernel: $(scripts/debug-kernel.sh)" ;;
esac
{
	# A lane waiting for it must not wait for ever if it dies.
	trap 'mkdir -p "$res/claim-host-done"' EXIT
	lane style tools unit dkms
} > "$res/lane-host.log" 2>&1 &
lane_host=$!
{
	lane netns-debug-write
	tail_lane
} > "$res/lane-debug-write.log" 2>&1 &
lane_write=$!
lane kunit netns-debug
tail_lane
wait $lane_host
say "lane style, tools, unit, dkms:"
cat "$res/lane-host.log"
wait $lane_write
say "lane netns-debug-write (and what of the tail it took):"
cat "$res/lane-debug-write.log"
wait $lane_debian
say "lane netns-debian (and what of the tail it took):"
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
