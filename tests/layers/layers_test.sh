#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/layers/layers_test.sh: the layers of doc/design.md ("Layers"),
# include/uapi -> user/lib -> tools/lib -> tools -> user, as the compiler
# sees them.  A file of each layer, compiled with that layer's include
# paths (what layers.mk gives it), includes a header of its own layer or
# of one below (it must compile) and one of each layer above (the compiler
# must refuse it).  Kselftest TAP on stdout.
#
# Environment (user/Makefile's check passes them): CC, and LIB_INC,
# TOOLS_LIB_INC, TOOLS_INC, CMD_INC: each layer's -I options.
set -u

: "${CC:=cc}"
for v in LIB_INC TOOLS_LIB_INC TOOLS_INC CMD_INC; do
	[ -n "${!v:-}" ] || { echo "Bail out! $v is not set"; exit 2; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One header a file of each layer may include; the layer's own flags.
header=(uapi/schedrec.h srecreader.h front.h report.h cmd.h)
layer=(include/uapi user/lib tools/lib tools user)
flags=("" "$LIB_INC" "$TOOLS_LIB_INC" "$TOOLS_INC" "$CMD_INC")

# compiles FLAGS HEADER: does a file that includes HEADER compile?  It is
# written in a directory of its own, as a file of the layer would be, and
# the version guard of toolerr.h is satisfied as the Makefiles do.
compiles() {
	printf '#include "%s"\n' "$2" >"$tmp/t.c"
	# shellcheck disable=SC2086
	$CC -fsyntax-only -D_GNU_SOURCE -DSCHEDREC_VERSION='"test"' $1 \
		"$tmp/t.c" 2>"$tmp/err"
}

n=0
failed=0
echo "TAP version 13"
echo "1..$(( (${#layer[@]} - 1) * ${#layer[@]} ))"
for ((l = 1; l < ${#layer[@]}; l++)); do
	for ((h = 0; h < ${#header[@]}; h++)); do
		n=$((n + 1))
		if [ "$h" -le "$l" ]; then
			want="includes ${header[h]} (${layer[h]})"
			compiles "${flags[l]}" "${header[h]}" && ok=1 || ok=0
		else
			want="cannot include ${header[h]} (${layer[h]})"
			if compiles "${flags[l]}" "${header[h]}"; then
				ok=0
			elif grep -q "${header[h]}" "$tmp/err"; then
				ok=1
			else
				ok=0	# refused, but for another reason
			fi
		fi
		if [ "$ok" = 1 ]; then
			echo "ok $n ${layer[l]} $want"
		else
			echo "not ok $n ${layer[l]} $want"
			sed 's/^/# /' "$tmp/err" | head -n 5
			failed=$((failed + 1))
		fi
	done
done
echo "# $failed of $n failed"
[ "$failed" = 0 ]
