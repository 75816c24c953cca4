#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/install/man_options.sh SCHEDREC MAN_DIR: the manual pages and the
# --help texts agree.  Every option a command's --help lists is documented
# in its page (an option tag of a .TP paragraph), and every option a page
# documents is in one of its commands' --help; every page renders without
# a groff warning, and every page in MAN_DIR is listed below.
#
# The list: a page, then the arguments of schedrec whose --help output it
# documents, separated by '|' (none for a page without options).  A new
# page is one more line.
pages=(
	"schedrec.1|--help|status --help"
	"schedrec-record.1|record --help"
	"schedrec-report.1|report --help|report offcpu --help|report tenancy --help|report states --help|report latency --help|report heatmap --help|report timeline --help|report folded --help|report flame --help|report html --help"
	"schedrec-export.1|export --help|export perfetto --help|export schedlog --help|export csv --help|export openmetrics --help"
	"schedrec.4"
)

set -u
schedrec=$1
man_dir=$2
problems=0

problem() {
	echo "$*"
	problems=$((problems + 1))
}

# The options of lines that start, after at most 8 spaces, with a '-':
# "  -C, --cpu CPU  text", "      --wait=MODE  text", "-z, --compress[=N]".
options_of() {
	awk '
	/^ *-/ {
		match($0, /^ */)
		if (RLENGTH > 8)
			next
		s = substr($0, RLENGTH + 1)
		while (match(s, /^--?[A-Za-z0-9][A-Za-z0-9-]*/)) {
			print substr(s, 1, RLENGTH)
			s = substr(s, RLENGTH + 1)
			# an argument ("CPU", "[=N]", "=MODE"), then ", " and more
			if (!match(s, /^[^ ,]*( [A-Z][A-Z_.]*)?, /))
				break
			s = substr(s, RLENGTH + 1)
		}
	}' | sort -u
}

# The tag lines of a page's .TP paragraphs, fonts and escapes removed.
tags_of() {
	awk 'tag { print; tag = 0; next } /^\.TP/ { tag = 1 }' "$1" |
		sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\(em/-/g'
}

listed=" "
for entry in "${pages[@]}"; do
	IFS='|' read -r -a parts <<<"$entry"
	page=${parts[0]}
	listed+="$page "
	path=$man_dir/$page
	if [ ! -f "$path" ]; then
		problem "$page: listed here, but there is no $path"
		continue
	fi
	warnings=$(groff -man -ww -z -Tutf8 "$path" 2>&1)
	[ -z "$warnings" ] || problem "$page: groff warns: $warnings"
	[ "${#parts[@]}" -gt 1 ] || continue
	help=$(for args in "${parts[@]:1}"; do
		# shellcheck disable=SC2086
		"$schedrec" $args || echo "schedrec $args: exit status $?" >&2
	done | options_of)
	documented=$(tags_of "$path" | options_of)
	if [ -z "$help" ]; then
		problem "$page: no options found in the --help of ${parts[*]:1}"
		continue
	fi
	before=$problems
	for opt in $(comm -23 <(echo "$help") <(echo "$documented")); do
		problem "$page: $opt is in the --help of '${parts[*]:1}' but not documented"
	done
	for opt in $(comm -13 <(echo "$help") <(echo "$documented")); do
		problem "$page: documents $opt, which no --help of '${parts[*]:1}' lists"
	done
	[ "$problems" = "$before" ] &&
		echo "$page: the $(echo "$help" | wc -l) options of its --help, all documented"
done

for path in "$man_dir"/*.[1-8]; do
	page=$(basename "$path")
	[[ "$listed" == *" $page "* ]] ||
		problem "$page: not in the list of $0; add it with the commands it documents"
done

[ "$problems" = 0 ] || echo "$problems problems"
[ "$problems" = 0 ]
