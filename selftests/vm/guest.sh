#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of the test VM after switch_root: run the command from
# selftests/vm/run with its output on the second serial port, check
# kmemleak, report the exit status through the shared build directory,
# and power off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LANG=C.UTF-8
ip link set lo up
hostname ecp-vm

leaks=/sys/kernel/debug/kmemleak
if [ -w $leaks ]; then
	# Only what the command leaks counts: objects from boot that were never
	# freed are forgotten once they are old enough to be reported.
	echo scan > $leaks
	echo clear > $leaks
	# No scan every 10 minutes meanwhile: one takes 30 s of an idle VM's
	# time under TCG, more as memory fills, and the scans at the end
	# report whatever the command leaked all the same.
	echo scan=off > $leaks
fi

sh "$ECP_OUT/cmd.sh" </dev/null >/dev/ttyS1 2>&1
rc=$?

if [ -w $leaks ]; then
	# kmemleak reports only objects older than 5 s; scan twice after that
	# so that fresh pointers still in registers are not taken for leaks.
	sleep 6
	echo scan > $leaks
	echo scan > $leaks
	cat $leaks > "$ECP_OUT/kmemleak"
fi
echo "$rc" > "$ECP_OUT/exit-code"
sync
exec /bin/busybox reboot -f
