#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/deps.sh on simulated machines, so that a fresh machine's set-up
# is tested on every run and not only on the first one: fake dpkg-query,
# apt-cache, apt-get and sudo on PATH answer as such a machine would and
# record what they were asked.  No root, no network.
#   - empty: dpkg knows no package, apt has not been updated yet
#   - empty, and apt knows no headers either (a broken mirror): still
#     asks for every package and exits 0
#   - complete: nothing to do, no apt at all
#   - the headers metapackage moved to an ABI whose image is missing
#   - not root: apt runs through sudo
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fake=$work/bin
mkdir -p "$fake"

# The package list, read from the script itself, so that a package added
# there is checked here without a second copy.
mapfile -t pkgs < <(sed -n '/^pkgs=(/,/^)/p' "$top/scripts/deps.sh" |
	sed -e '1d;$d' -e 's/#.*//' | tr -s ' \t' '\n' | sed '/^$/d')

# FAKE_INSTALLED: "all" or "none"; FAKE_ABI: what linux-headers-amd64
# depends on (empty: nobody knows); FAKE_UPDATED: file that exists once
# apt-get update ran (apt-cache knows the candidate only then).
cat > "$fake/dpkg-query" <<'EOF'
#!/bin/bash
pkg=${!#}
if [ "$FAKE_INSTALLED" = none ]; then
	echo "dpkg-query: no packages found matching $pkg" >&2
	exit 1
fi
case "$*" in
*Depends*) echo "linux-headers-$FAKE_ABI, linux-kbuild-6.1" ;;
*) printf installed ;;
esac
EOF
cat > "$fake/apt-cache" <<'EOF'
#!/bin/bash
echo "apt-cache $*" >> "$FAKE_LOG"
[ -e "$FAKE_UPDATED" ] && [ -n "$FAKE_ABI" ] || exit 0
echo "${!#}"
echo "  Depends: linux-headers-$FAKE_ABI"
EOF
cat > "$fake/apt-get" <<'EOF'
#!/bin/bash
echo "apt-get $*" >> "$FAKE_LOG"
[ "$1" != update ] || touch "$FAKE_UPDATED"
EOF
cat > "$fake/sudo" <<'EOF'
#!/bin/bash
echo "sudo $1" >> "$FAKE_LOG"
exec "$@"
EOF
cat > "$fake/id" <<'EOF'
#!/bin/bash
[ "$1" = -u ] && echo "$FAKE_UID" && exit 0
exec /usr/bin/id "$@"
EOF
chmod +x "$fake"/*

# run_deps NAME INSTALLED ABI UID: run scripts/deps.sh on that machine;
# its log in $work/NAME.log, its exit status in $work/NAME.rc.
run_deps() {
	local log=$work/$1.log
	: > "$log"
	rm -f "$work/updated"
	PATH=$fake:$PATH FAKE_LOG=$log FAKE_UPDATED=$work/updated \
		FAKE_INSTALLED=$2 FAKE_ABI=$3 FAKE_UID=$4 \
		bash "$top/scripts/deps.sh" > "$work/$1.out" 2>&1
	echo $? > "$work/$1.rc"
}

# asked NAME PKG: did apt-get install get PKG?
asked() {
	grep '^apt-get install' "$work/$1.log" | tr ' ' '\n' | grep -qxF "$2"
}

asked_all() {
	local p
	for p in "${pkgs[@]}"; do
		asked "$1" "$p" || { echo "# $1: $p not asked for" >&2; return 1; }
	done
}

tap_check "deps: the package list was read (${#pkgs[@]} packages)" \
	test "${#pkgs[@]}" -gt 20

# An ABI that no machine has in /boot, so its image is always missing.
abi=6.1.0-999-amd64

run_deps empty none $abi 0
tap_check "deps: empty machine: exits 0" grep -qx 0 "$work/empty.rc"
tap_check "deps: empty machine: apt-get update before install" \
	sh -c "grep '^apt-get' '$work/empty.log' | head -1 | grep -q ' update'"
tap_check "deps: empty machine: asks for every package" asked_all empty
tap_check "deps: empty machine: asks for the headers apt will bring" \
	asked empty linux-headers-$abi
tap_check "deps: empty machine: and for the image that matches them" \
	asked empty linux-image-$abi

run_deps nomirror none "" 0
tap_check "deps: apt knows no headers: exits 0" \
	grep -qx 0 "$work/nomirror.rc"
tap_check "deps: apt knows no headers: still asks for every package" \
	asked_all nomirror

kver=$("$top/scripts/kernel.sh" debian-kver 2>/dev/null || true)
if [ -n "$kver" ] && [ -e "/boot/vmlinuz-$kver" ]; then
	run_deps complete all "$kver" 0
	tap_check "deps: complete machine: exits 0" \
		grep -qx 0 "$work/complete.rc"
	tap_check "deps: complete machine: runs no apt at all" \
		test ! -s "$work/complete.log"
else
	tap_skip "deps: complete machine: exits 0" "no installed kernel pair"
	tap_skip "deps: complete machine: runs no apt at all" \
		"no installed kernel pair"
fi

run_deps moved all $abi 0
tap_check "deps: headers moved on: exits 0" grep -qx 0 "$work/moved.rc"
tap_check "deps: headers moved on: installs the matching image" \
	asked moved linux-image-$abi
tap_expect_fail "deps: headers moved on: nothing else" \
	asked moved build-essential

run_deps user none $abi 1000
tap_check "deps: not root: exits 0" grep -qx 0 "$work/user.rc"
tap_check "deps: not root: apt-get runs through sudo" \
	grep -qx 'sudo apt-get' "$work/user.log"
tap_check "deps: not root: asks for every package" asked_all user

tap_done
