#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/install/install.sh ROOT: `make install` into a DESTDIR puts the
# command, every manual page and the bash completion where PREFIX says,
# the installed command runs and says the tree's version, and `make
# uninstall` removes every file it installed.  Twice: the default PREFIX
# (/usr/local) and PREFIX=/usr.
set -u
root=$1
version=$(cat "$root/VERSION")
problems=0
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT

problem() {
	echo "$*"
	problems=$((problems + 1))
}

for prefix in "" /usr; do
	rm -rf "${dest:?}"/*
	args=(DESTDIR="$dest")
	[ -n "$prefix" ] && args+=(PREFIX="$prefix")
	top=$dest${prefix:-/usr/local}
	if ! make -s -C "$root" install "${args[@]}" >"$dest.log" 2>&1; then
		problem "make install ${args[*]} failed:"
		cat "$dest.log"
		continue
	fi
	want=("$top/bin/schedrec"
	      "$top/share/bash-completion/completions/schedrec")
	for page in "$root"/doc/man/*.[1-8]; do
		want+=("$top/share/man/man${page##*.}/$(basename "$page")")
	done
	for f in "${want[@]}"; do
		[ -f "$f" ] || problem "make install ${args[*]}: no ${f#"$dest"}"
	done
	[ -x "$top/bin/schedrec" ] &&
		"$top/bin/schedrec" --version | grep -q "^schedrec $version (ABI" ||
		problem "the installed schedrec does not say version $version"
	installed=$(cd "$dest" && find . -type f | sort)
	extra=$(comm -13 <(printf '.%s\n' "${want[@]#"$dest"}" | sort) \
		<(echo "$installed"))
	[ -z "$extra" ] || problem "make install ${args[*]} installed more: $extra"

	if ! make -s -C "$root" uninstall "${args[@]}" >"$dest.log" 2>&1; then
		problem "make uninstall ${args[*]} failed:"
		cat "$dest.log"
		continue
	fi
	left=$(cd "$dest" && find . -type f)
	[ -z "$left" ] || problem "make uninstall ${args[*]} left: $left"
	[ "$problems" = 0 ] &&
		echo "PREFIX=${prefix:-/usr/local}: ${#want[@]} files installed, then removed"
done
rm -f "$dest.log"
[ "$problems" = 0 ]
