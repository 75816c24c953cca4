#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/install/completion.sh SCHEDREC COMPLETION: the bash completion
# parses (bash -n) and offers what it should, run against the schedrec
# binary SCHEDREC: the verbs, the report and export names, each verb's
# options as its --help lists them, and the values of -e, --wait, -o.
set -u
schedrec=$(realpath "$1")
completion=$2
problems=0

bash -n "$completion" || { echo "$completion: bash -n fails"; exit 1; }
# shellcheck disable=SC1090
. "$completion"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
touch "$dir/run.srec" "$dir/notes.txt"

# complete WORD... : what _schedrec offers for the last word, one a line
complete_words() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_schedrec "$schedrec" "${COMP_WORDS[COMP_CWORD]}" \
		"${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort
}

# expect "WORDS" WANTED...: each WANTED is offered
expect() {
	local words=$1 got want
	shift
	# shellcheck disable=SC2086
	got=$(complete_words schedrec $words)
	for want in "$@"; do
		if ! grep -qxF -- "$want" <<<"$got"; then
			echo "schedrec $words<TAB>: no '$want' in: $(echo $got)"
			problems=$((problems + 1))
		fi
	done
}

# expect_only "WORDS" WANTED...: exactly these are offered
expect_only() {
	local words=$1 got want
	shift
	# shellcheck disable=SC2086
	got=$(complete_words schedrec $words | tr '\n' ' ')
	want="$(printf '%s\n' "$@" | sort | tr '\n' ' ')"
	if [ "$got" != "$want" ]; then
		echo "schedrec $words<TAB>: got '$got', wanted '$want'"
		problems=$((problems + 1))
	fi
}

expect_only "''" record status report export
expect_only "rec" record
expect_only "-" -h --help -V --version
expect_only "report ''" offcpu tenancy states latency heatmap timeline \
	folded flame html
expect_only "export ''" perfetto schedlog csv openmetrics
expect_only "export o" openmetrics
# every option of record --help, and only those
mapfile -t record_options < <("$schedrec" record --help |
	grep -oE '^ {1,8}(-[A-Za-z0-9], )?--[a-z][a-z-]*' |
	grep -oE -- '--?[A-Za-z0-9][a-z-]*' | sort -u)
expect_only "record -" "${record_options[@]}"
expect "record --ro" --rotate
expect "record -C 0 --k" --keep
expect_only "record -e switch,wak" switch,waking switch,wakeup \
	switch,wakeup_new
expect_only "record --wait s" spin
expect_only "record --wait=a" --wait=adaptive
expect_only "record -o $dir/r" "$dir/run.srec"
expect "record -C" -C
expect_only "status -" -h --help
expect "report offcpu $dir/" "$dir/run.srec"
expect_only "export perfetto $dir/run.srec --format ''" proto json
expect_only "export openmetrics $dir/run.srec --format o" openmetrics
expect_only "report folded $dir/run.srec --palette $dir/r" "$dir/run.srec"

[ "$problems" = 0 ] && echo "bash completion: verbs, names, options and values offered"
[ "$problems" = 0 ]
