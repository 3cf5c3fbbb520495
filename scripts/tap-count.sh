#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Count TAP results in the given files: prints "PASS FAIL SKIP".
awk '
/^ok / { if ($0 ~ /# SKIP/) s++; else p++ }
/^not ok / { if ($0 ~ /# TODO/) p++; else f++ }
END { printf "%d %d %d\n", p, f, s }' "$@"
