#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/bench/ab.sh: does an optimisation stay?  The project's rule: only
# with a gain of >= 5 % measured outside the noise, in interleaved rounds,
# with the second CPU free and with it busy, on 16- and 64-CPU traces.
#
#   tests/bench/ab.sh OLD NEW [REPORT] [TRACE...]
#	OLD, NEW: two schedrec binaries; REPORT: the report both run
#	(offcpu); TRACE: .srec files (by default the synthetic traces of
#	reports.sh, 16 CPUs online of 32 possible and 64 of 128, of
#	AB_RECORDS records, written into build/bench/ if missing)
#
# AB_ROUNDS rounds (20).  A round runs, for each trace, with the other CPU
# free and with a spinner holding it (the order of the two alternating),
# in one thread (SCHEDREC_THREADS=1) and as by default, OLD then NEW in
# even rounds and NEW then OLD in odd ones.  The reports run on the CPUs
# AB_CPUS (0,1), the spinner (a shell loop) on the last of them; it is
# killed when the script ends, however it ends.  Each run is timed by
# bash's `time` (CPU: user + system of all threads; wall), and each
# pair's ratio NEW/OLD counts: per trace, CPU state and mode, the median
# ratio with p25-p75, of CPU time and of wall time, and a verdict (below 1,
# NEW is faster):
#	p75 < 0.95	gain >= 5 % outside the noise
#	p75 < 1		gain outside the noise, not 5 %
#	p25 > 1.05	loss >= 5 % outside the noise
#	p25 > 1		loss outside the noise, not 5 %
#	otherwise	no change outside the noise
# A second table gives, for each binary, trace and CPU state, the median
# ratio of wall times default / one thread (target: at most 1.05, the
# other CPU busy too).  The last line: NEW stays if some ratio shows a gain >= 5 % outside the
# noise and none a loss >= 5 % outside it (it counts the smaller losses
# outside the noise too: look at them).  Before the rounds, OLD and NEW run
# once on each trace and their outputs are compared (a note if they
# differ).
#
# Settings: AB_ROUNDS (20), AB_RECORDS (10000000), AB_CPUS (0,1).
# Output: the table on stdout, each run's times in build/bench/ab/.
# Exit status: 0 when every run completed, 1 if one failed, 2 on a usage
# error.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$root/build/bench
log_tag=ab
# shellcheck source=tests/vm/lib.sh
. "$root/tests/vm/lib.sh"
# shellcheck source=tests/bench/reports.sh
. "$here/reports.sh"

usage() {
	sed -n '/^# tests\/bench\/ab.sh:/,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 2
}

rounds=${AB_ROUNDS:-20}
records=${AB_RECORDS:-10000000}
cpus=${AB_CPUS:-0,1}
spin_cpu=${cpus##*[,-]}
spin_pid=

spin_start() {
	taskset -c "$spin_cpu" sh -c 'while :; do :; done' &
	spin_pid=$!
}

spin_stop() {
	[ -n "$spin_pid" ] || return 0
	kill "$spin_pid" 2>/dev/null
	wait "$spin_pid" 2>/dev/null
	spin_pid=
}

trap spin_stop EXIT
trap 'exit 130' INT TERM HUP

# run BIN MODE TRACE: one timed run, "wall_s cpu_s"
run() {
	local bin=$1 mode=$2 trace=$3 line
	local -a env=()
	[ "$mode" = default ] || env=(SCHEDREC_THREADS=1)
	line=$(time_run taskset -c "$cpus" env "${env[@]}" "$bin" report \
		"$report" -q "$trace") || return 1
	echo "${line% *}"
}

# verdict P25 P75
verdict() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (b < 0.95) print "gain >= 5 % outside the noise"
		else if (b < 1) print "gain outside the noise, not 5 %"
		else if (a > 1.05) print "loss >= 5 % outside the noise"
		else if (a > 1) print "loss outside the noise, not 5 %"
		else print "no change outside the noise" }'
}

[ $# -ge 2 ] || usage
old=$1 new=$2
shift 2
report=offcpu
if [ $# -gt 0 ] && [ ! -e "$1" ] && [[ $1 != */* ]]; then
	report=$1
	shift
fi
for bin in "$old" "$new"; do
	[ -x "$bin" ] || { echo "ab.sh: $bin: not an executable" >&2; usage; }
done
[ "$rounds" -ge 1 ] 2>/dev/null || usage
traces=("$@")
if [ ${#traces[@]} = 0 ]; then
	mkdir -p "$out"
	reports_build
	for spec in 16/32 64/128; do
		reports_trace "${spec%/*}" "${spec#*/}" "$records"
		traces+=("$(reports_trace_path "${spec%/*}" "${spec#*/}" "$records")")
	done
fi
dir=$out/ab
rm -rf "$dir"
mkdir -p "$dir"

for ((t = 0; t < ${#traces[@]}; t++)); do
	trace=${traces[t]}
	[ -r "$trace" ] || die "$trace: cannot read it"
	"$old" report "$report" -q "$trace" >"$dir/out.old" 2>&1
	"$new" report "$report" -q "$trace" >"$dir/out.new" 2>&1
	cmp -s "$dir/out.old" "$dir/out.new" ||
		echo "Note: OLD and NEW print different reports on $trace."
done

bins=("$old" "$new")
log "$rounds rounds of report $report, ${#traces[@]} traces"
for ((r = 0; r < rounds; r++)); do
	states=(free busy)
	[ $((r % 2)) = 0 ] || states=(busy free)
	for state in "${states[@]}"; do
		[ "$state" = free ] || spin_start
		for ((t = 0; t < ${#traces[@]}; t++)); do
			for mode in 1 default; do
				cell=$dir/$t.$state.$mode
				for b in 0 1; do
					i=$(((b + r) % 2))
					line=$(run "${bins[i]}" "$mode" "${traces[t]}") ||
						die "${bins[i]} report $report failed on ${traces[t]}"
					echo "$line" >>"$cell.$i"
				done
			done
		done
		spin_stop
	done
done

echo "## A/B: report $report, NEW / OLD"
echo
echo "OLD: $old; NEW: $new. $rounds interleaved rounds (OLD first in even rounds, NEW in odd ones), the reports on CPUs $cpus; busy: a spinner on CPU $spin_cpu. Times: medians in ms; ratios: NEW / OLD of each round's pair, median (p25-p75); below 1, NEW is faster."
echo
echo "| trace | other CPU | threads | CPU ms OLD | NEW | CPU NEW/OLD | verdict | wall ms OLD | NEW | wall NEW/OLD | verdict |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
gains=0 losses=0 small=0 cells=0
for ((t = 0; t < ${#traces[@]}; t++)); do
	for state in free busy; do
		for mode in 1 default; do
			cell=$dir/$t.$state.$mode
			row="| $(basename "${traces[t]}") | $state | $mode |"
			# column 1 wall, 2 CPU
			for col in 2 1; do
				read -r _ mo _ <<<"$(cut -d' ' -f$col "$cell.0" | quartiles)"
				read -r _ mn _ <<<"$(cut -d' ' -f$col "$cell.1" | quartiles)"
				read -r p25 med p75 <<<"$(paste -d' ' "$cell.0" "$cell.1" |
					awk -v c="$col" '{ print $(c + 2) / $c }' | quartiles)"
				v=$(verdict "$p25" "$p75")
				case $v in
				"gain >= 5"*) gains=$((gains + 1)) ;;
				"loss >= 5"*) losses=$((losses + 1)) ;;
				loss*) small=$((small + 1)) ;;
				esac
				cells=$((cells + 1))
				row+=$(awk -v o="$mo" -v n="$mn" -v m="$med" -v a="$p25" \
					-v b="$p75" -v v="$v" 'BEGIN {
					printf " %.1f | %.1f | %.3f (%.3f-%.3f) | %s |",
						o * 1000, n * 1000, m, a, b, v }')
			done
			echo "$row"
		done
	done
done
echo
echo "Two threads against one: wall time by default / wall time in one thread, the same binary's runs of each round, median (p25-p75); the target: the default mode at most 5 % slower (median <= 1.05), with the other CPU busy too."
echo
echo "| trace | other CPU | OLD default/1 | NEW default/1 | NEW: at most 5 % slower |"
echo "|---|---|---|---|---|"
for ((t = 0; t < ${#traces[@]}; t++)); do
	for state in free busy; do
		row="| $(basename "${traces[t]}") | $state |"
		for i in 0 1; do
			read -r p25 med p75 <<<"$(paste -d' ' "$dir/$t.$state.1.$i" \
				"$dir/$t.$state.default.$i" |
				awk '{ print $3 / $1 }' | quartiles)"
			row+=$(awk -v m="$med" -v a="$p25" -v b="$p75" \
				'BEGIN { printf " %.3f (%.3f-%.3f) |", m, a, b }')
		done
		row+=$(awk -v m="$med" 'BEGIN { print (m <= 1.05 ? " met |" : " NOT MET |") }')
		echo "$row"
	done
done
echo
if [ "$gains" -gt 0 ] && [ "$losses" = 0 ]; then
	v="NEW stays: a gain >= 5 % outside the noise, no loss of 5 % outside it"
else
	v="NEW does not stay by the project's rule (a gain >= 5 % outside the noise, and no loss of 5 % outside it)"
fi
[ "$rounds" -ge 6 ] ||
	v="$v; but $rounds rounds are too few for quartiles that mean much"
echo "Of $cells ratios, $gains show a gain >= 5 % outside the noise, $losses a loss >= 5 % outside the noise and $small a smaller loss outside the noise. $v."
