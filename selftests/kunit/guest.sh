#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the debug VM: load ecproxy and its KUnit module (whose suites run on
# load) and write the KTAP they printed to $1.
set -u
out=$1
dmesg -C
modprobe ecproxy || exit 1
modprobe ecproxy_kunit
rc=$?
# KTAP starts at the first header after our load.
dmesg --notime | sed -n '/KTAP version/,$p' > "$out"
modprobe -r ecproxy_kunit ecproxy || rc=1
exit $rc
