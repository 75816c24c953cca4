#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run one libFuzzer harness of tests/fuzz (README.md), one process (the
# machine is shared), bounded in time:
#
#   run.sh check HARNESS SECONDS [raw]
#	its regression inputs one by one, then its committed corpus, then
#	SECONDS of fuzzing from it; what it finds is thrown away (a scratch
#	corpus under build/fuzz/check), but a crash
#   run.sh fuzz HARNESS SECONDS [raw]
#	the same, the new inputs kept in build/fuzz/corpus/HARNESS, which
#	the next run starts from too
#
# raw: the mutations keep their checksums as they come (SRECFUZZ_RAW=1).
# A crash, a leak or a timeout (an input that takes over FUZZ_TIMEOUT s,
# 15 by default) is kept in build/fuzz/crashes/HARNESS/ and said, and
# the exit status is 1.  The last line of a run is its summary: runs,
# exec/s, cov: and ft:; the whole log is build/fuzz/logs/HARNESS.log.
set -uo pipefail

mode=${1:?usage: run.sh check|fuzz HARNESS SECONDS [raw]}
harness=${2:?usage: run.sh check|fuzz HARNESS SECONDS [raw]}
seconds=${3:?usage: run.sh check|fuzz HARNESS SECONDS [raw]}
variant=${4:-crc}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$root/build/fuzz
bin=$out/${harness}_fuzz
seeds=$here/corpus/$harness
regress=$here/corpus/$harness-regress
crashes=$out/crashes/$harness
name=$harness${4:+-$4}
log=$out/logs/$name.log
timeout=${FUZZ_TIMEOUT:-15}

[ -x "$bin" ] || { echo "run.sh: no $bin: make -C tests/fuzz" >&2; exit 2; }
[ "$variant" = raw ] && export SRECFUZZ_RAW=1
mkdir -p "$crashes" "$out/logs"

# stderr closed for the harness (the reports' warnings), not libFuzzer's
flags=(-timeout="$timeout" -rss_limit_mb=2048 -max_len=16384
       -close_fd_mask=3 -print_final_stats=1
       -artifact_prefix="$crashes/")

said_crash() {
	local files

	files=$(grep -ho "Test unit written to .*" "$log" | sed 's/.* to //')
	echo "FUZZ: $name: CRASH (log: ${log#"$root"/})"
	grep -E "ERROR: |runtime error|ALARM|CHECK failed|SUMMARY" "$log" |
		head -5 | sed 's/^/FUZZ:   /'
	for f in $files; do
		echo "FUZZ:   input kept: ${f#"$root"/}; again: ${bin#"$root"/} ${f#"$root"/}"
	done
	echo "FUZZ:   fix it, then add the input to tests/fuzz/corpus/$harness/ (README.md)"
}

: >"$log"
# the regression inputs too slow to mutate (README.md): each once
if [ -d "$regress" ] && ls "$regress"/* >/dev/null 2>&1; then
	if ! "$bin" "${flags[@]}" "$regress"/* >>"$log" 2>&1; then
		said_crash
		exit 1
	fi
fi

if [ "$mode" = check ]; then
	work=$out/check/$name
	rm -rf "$work"
else
	work=$out/corpus/$harness
fi
mkdir -p "$work"
"$bin" "${flags[@]}" -max_total_time="$seconds" "$work" "$seeds" \
	>>"$log" 2>&1
status=$?
if [ $status -ne 0 ] || grep -q "Test unit written to" "$log"; then
	said_crash
	exit 1
fi
[ "$mode" = check ] && rm -rf "$work"
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
last=$(grep -E '^#[0-9]+.*(cov|DONE)' "$log" | tail -1)
cov=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\) .*/\1/p' <<<"$last")
echo "FUZZ: $name: no crash; ${runs:-?} runs in ${seconds} s, ${rate:-?} exec/s, cov: ${cov:-?} ft: ${ft:-?}"
