#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/install/dkms_source.sh ROOT: what `make dkms-source` hands DKMS
# users builds with our warnings but never with -Werror (their compiler may
# be newer than ours and warn where ours does not), and holds every file
# the module's Kbuild names.
set -u
root=$1
problems=0
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT

problem() {
	echo "$*"
	problems=$((problems + 1))
}

make -s -C "$root" dkms-source DKMS_SOURCE_TREE="$dest" >/dev/null ||
	{ echo "make dkms-source failed"; exit 1; }
src=$(find "$dest" -mindepth 1 -maxdepth 1 -type d -print -quit)
[ -n "$src" ] || { echo "make dkms-source wrote no directory"; exit 1; }
found=$(grep -rlE -- '-Werror( |$|\\)' "$src")
[ -z "$found" ] || problem "-Werror in what DKMS builds: $found"
grep -q -- '-Wall' "$src/kmod/Kbuild" ||
	problem "kmod/Kbuild lost its warnings (-Wall)"
for obj in $(sed -n 's/^schedrec-y := //p' "$src/kmod/Kbuild"); do
	[ -f "$src/kmod/${obj%.o}.c" ] || problem "kmod/${obj%.o}.c is missing"
done
for f in $(sed -n 's/.*call feature,\([a-z_0-9]*\),.*/\1/p' "$src/kmod/Kbuild"); do
	[ -f "$src/kmod/feature/$f.c" ] || problem "kmod/feature/$f.c is missing"
done
[ -f "$src/dkms.conf" ] || problem "dkms.conf is missing"
echo "$problems problem(s)"
[ "$problems" = 0 ]
