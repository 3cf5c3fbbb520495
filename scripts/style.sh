#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernel style gates, as TAP: checkpatch on every kmod/ and uapi/ file, and a
# sparse pass (C=2) over the whole module against the Debian headers.  The
# gcc -Werror W=1 build is part of every module build already.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/selftests/lib/tap.sh"
cd "$top"
kdir=$("$top/scripts/debug-kernel.sh")
checkpatch=$(dirname "$kdir")/linux-source-6.1/scripts/checkpatch.pl
for f in kmod/*.[ch] uapi/linux/*.h; do
	if out=$("$checkpatch" --no-tree --quiet --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f "$f" 2>&1); then
		tap_ok "checkpatch $f"
	else
		tap_fail "checkpatch $f" "$out"
	fi
done

# sparse on a scratch copy, so that it sees every file whatever make
# thinks is up to date.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
find Kbuild kmod uapi \( -name '*.[ch]' -o -name Kbuild \) -print0 |
	xargs -0 cp --parents -t "$scratch"
# Without sparse, C=2 would check nothing and find nothing to report.
if ! command -v sparse >/dev/null; then
	out="sparse is not installed (scripts/deps.sh installs it)"
else
	out=$(make -C "$("$top/scripts/kernel.sh" debian-kdir)" M="$scratch" C=2 \
		CF="-D__CHECK_ENDIAN__" modules 2>&1 | grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error)' || true)
fi
if [ -z "$out" ]; then
	tap_ok "sparse: no warnings"
else
	tap_fail "sparse: warnings" "$out"
fi
# The man page must render without a single groff warning.
if out=$(groff -wall -man -Tutf8 docs/ecctl.8 2>&1 >/dev/null) && [ -z "$out" ]; then
	tap_ok "ecctl(8) renders without warnings"
else
	tap_fail "ecctl(8) renders without warnings" "$out"
fi

# A packet's way reads downward through the files (hook, receive per
# role, state, send); the only circle left is a connection's lifetime
# pair: conn.c starts and ends it, conn_send.c sends for it and may end it.
if out=$(scripts/callgraph.py --allow conn.c:conn_send.c 2>&1); then
	tap_ok "kmod call graph: no circle beyond conn.c and conn_send.c"
else
	tap_fail "kmod call graph: no circle beyond conn.c and conn_send.c" "$out"
fi

tap_done
