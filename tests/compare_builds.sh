#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/compare_builds.sh: do two builds of schedrec print the same?
# Every report (text, CSV and SVG, and the options the fuzz test takes),
# html and every export run with each build on each trace, in one thread
# (SCHEDREC_THREADS=1) and as by default; stdout, stderr, the exit status
# and every file written must be the same, byte for byte.
#
#   tests/compare_builds.sh OLD NEW TRACE...
#	OLD, NEW: two schedrec binaries; TRACE: .srec files
#   tests/compare_builds.sh --traces DIR
#	writes the traces that a refactoring is checked on into DIR: the
#	golden cases' (tests/tools/golden, by tracegen), the fuzz test's
#	first 40 cases (SCHEDREC_FUZZ_KEEP) and synthetic traces of 2, 4,
#	16 and 64 CPUs, the last two also with more possible CPUs than
#	online (tests/bench/gentrace.c); needs `make -C user check`'s
#	build/user-tests (tracegen, fuzz_test)
#
# Prints one line per difference and a summary "N runs, N differ"; exit
# status 0 if nothing differs, 1 if something does, 2 on a usage error.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
	sed -n '/^# tests\/compare_builds.sh:/,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 2
}

make_traces() {
	local dir=$1 tests=$root/build/user-tests case name n
	[ -x "$tests/tracegen" ] && [ -x "$tests/fuzz_test" ] || {
		echo "compare_builds: no $tests/tracegen or fuzz_test: run make -C user check first" >&2
		exit 2
	}
	mkdir -p "$dir/golden" "$dir/fuzz" "$dir/synthetic" || exit 2
	for case in "$root"/tests/tools/golden/*.case; do
		name=$(basename "$case" .case)
		awk '/^--- trace/ { on = 1; next } /^--- / { on = 0 } on' \
			"$case" >"$dir/golden/$name.txt"
		"$tests/tracegen" "$dir/golden/$name.txt" \
			"$dir/golden/$name.srec" >/dev/null 2>&1 ||
			rm -f "$dir/golden/$name.srec"
		rm -f "$dir/golden/$name.txt"
	done
	SCHEDREC_FUZZ_KEEP=$dir/fuzz SCHEDREC_BIN=$root/build/user/schedrec \
		"$tests/fuzz_test" >"$dir/fuzz.log" 2>&1
	gcc -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$root/include" \
		-I"$root/user/lib" -o "$dir/gentrace" \
		"$root/tests/bench/gentrace.c" "$root/build/user/libsrec.a" \
		-lz || exit 2
	for n in 2 4 16 64; do
		"$dir/gentrace" -c "$n" -t $((n * 16)) -n 1000000 \
			"$dir/synthetic/cpus$n.srec" || exit 2
	done
	for n in 16 64; do
		"$dir/gentrace" -c "$n" -p $((n * 2)) -t $((n * 16)) \
			-n 1000000 "$dir/synthetic/cpus$n-of$((n * 2)).srec" ||
			exit 2
	done
	ls "$dir"/*/*.srec | wc -l
}

# The invocations, one a line; TRACE and OUT are replaced.
invocations() {
	local r
	for r in offcpu tenancy states latency heatmap timeline folded; do
		echo "report $r TRACE"
		echo "report $r TRACE --csv"
		echo "report $r TRACE --svg OUT/$r.svg"
		echo "report $r TRACE --pid 1000-1100 --top 5 --range 0.001:"
	done
	cat <<-EOF
		report offcpu TRACE --by process
		report offcpu TRACE --interval 1ms --csv
		report offcpu TRACE --min 1ns --max 1ms --sort total
		report offcpu TRACE --sort count --cpu 0,1
		report states TRACE --usurpers --csv
		report latency TRACE --by process --svg OUT/latency-p.svg
		report latency TRACE --wakers --csv
		report latency TRACE --hist --csv
		report heatmap TRACE --metric offcpu
		report heatmap TRACE --metric wakeups --csv
		report heatmap TRACE --metric switches --rows 1000 --csv
		report timeline TRACE --threads --wakeups --svg OUT/tl.svg
		report flame TRACE --svg OUT/flame.svg
		report flame TRACE --per-thread --svg OUT/flame-t.svg
		report html TRACE --output OUT/html --force --seconds 1
		export perfetto TRACE -o OUT/out.json
		export schedlog TRACE -o OUT/out.tar
		export csv TRACE -o OUT/out.csv
		export openmetrics TRACE
	EOF
}

# run_one BIN THREADS INVOCATION DIR TRACE: the run's outputs into DIR
# (the outputs may name the directory: both builds run in the same one)
run_one() {
	local bin=$1 threads=$2 inv=$3 dir=$4 trace=$5
	local -a argv
	rm -rf "$dir"
	mkdir -p "$dir/files"
	read -r -a argv <<<"${inv//TRACE/$trace}"
	argv=("${argv[@]//OUT/$dir/files}")
	(cd "$dir" && env ${threads:+SCHEDREC_THREADS=$threads} \
		timeout 300 "$bin" "${argv[@]}" >"$dir/stdout" 2>"$dir/stderr" \
		</dev/null
	 echo $? >"$dir/status")
}

compare() {
	local old new tmp runs=0 differ=0 trace inv threads
	old=$(realpath "$1") && new=$(realpath "$2") || exit 2
	shift 2
	tmp=$(mktemp -d) || exit 2
	for trace in "$@"; do
		trace=$(realpath "$trace") || exit 2
		while read -r inv; do
			for threads in 1 ""; do
				rm -rf "$tmp/a" "$tmp/b"
				run_one "$old" "$threads" "$inv" "$tmp/run" "$trace"
				mv "$tmp/run" "$tmp/a"
				run_one "$new" "$threads" "$inv" "$tmp/run" "$trace"
				mv "$tmp/run" "$tmp/b"
				runs=$((runs + 1))
				if ! diff -r "$tmp/a" "$tmp/b" >"$tmp/diff" 2>&1; then
					differ=$((differ + 1))
					echo "differs: ${threads:+SCHEDREC_THREADS=1 }${inv//TRACE/$trace}"
					head -n 8 "$tmp/diff" | sed 's/^/    /'
				fi
			done
		done < <(invocations)
	done
	rm -rf "$tmp"
	echo "$runs runs, $differ differ"
	[ "$differ" = 0 ]
}

case ${1-} in
--traces) [ $# = 2 ] || usage; make_traces "$2" ;;
-h | --help | "") usage ;;
*) [ $# -ge 3 ] || usage; compare "$@" ;;
esac
