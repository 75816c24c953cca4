# SPDX-License-Identifier: GPL-2.0
#
# tests/bench/reports.sh: the throughput of `schedrec report`, sourced by
# tests/bench/run.sh (which sets root, out and the lib.sh helpers) and
# runnable alone: `bash tests/bench/reports.sh` (BENCH_REPORT_RECORDS to
# change the size).
#
# Part 1: gentrace writes a synthetic trace of BENCH_REPORT_RECORDS records (100 M
# by default, 3.2 GB, kept in build/bench/ between runs) with the real
# writer; each report reads it three times in one thread
# (SCHEDREC_THREADS=1) and three times as it runs by default (with a
# second CPU, the reader in a thread of its own), and the best run of each
# counts: records/s of CPU time in one thread (user + system, which the
# shared host's load disturbs less than wall time: the one-core figure),
# records/s of wall time with two, wall time next to `cat TRACE >
# /dev/null` timed the same way in the same run, and peak RSS.  The same
# report on a trace a tenth as long shows that memory does not grow with
# the trace.  Target: offcpu >= 20 M records/s on one core.
#
# Part 2 (perf_vs_schedrec_both): perf sched timehist and latency against
# schedrec report offcpu (in one thread, and by default), each on its own
# recording of the same VM workload, run in interleaved rounds, on a small
# recording and a large one; target: schedrec 20 times the events/s of
# both perf commands.  The other reports on that recording too: a real
# workload's runqueues, which the synthetic trace lacks.

reports_records=${BENCH_REPORT_RECORDS:-100000000}
reports_list="offcpu tenancy states latency"

# Best of three runs of "$@": prints "wall cpu maxrss_kb" of the run with
# the least CPU time.
best_of_three() {
	local i line best= best_cpu=
	for i in 1 2 3; do
		line=$(/usr/bin/time -f '%e %U %S %M' "$@" 2>&1 >/dev/null |
			tail -n 1)
		read -r wall user sys rss <<<"$line"
		cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
		if [ -z "$best" ] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN { exit !(a < b) }'; then
			best="$wall $cpu $rss"
			best_cpu=$cpu
		fi
	done
	echo "$best"
}

# A synthetic trace of $1 records at $2, made once per gentrace build.
reports_trace() {
	local records=$1 path=$2 stamp
	stamp="$records $(sha1sum "$out/gentrace" | cut -d' ' -f1)"
	if [ -s "$path" ] && [ "$(cat "$path.stamp" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	log "generating a synthetic trace of $records records ($path)"
	"$out/gentrace" -c 4 -t 64 -n "$records" "$path" >&2 ||
		die "gentrace failed"
	echo "$stamp" >"$path.stamp"
}

reports_bench() {
	local big=$out/reports-big.srec small=$out/reports-small.srec
	local bytes cat_line cat_wall dd_wall r line wall cpu rss small_rss
	local schedrec=$root/build/user/schedrec

	make -C "$root/user" >/dev/null || die "cannot build the tools"
	gcc -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$root/include" \
		-I"$root/user/lib" -o "$out/gentrace" "$here/gentrace.c" \
		"$root/build/user/libsrec.a" -lz || die "cannot build gentrace"
	reports_trace "$reports_records" "$big"
	reports_trace $((reports_records / 10)) "$small"
	bytes=$(stat -c %s "$big")
	cat_line=$(best_of_three cat "$big")
	read -r cat_wall _ _ <<<"$cat_line"
	# cat may hand /dev/null the file without reading it: dd reads it
	read -r dd_wall _ _ <<<"$(best_of_three dd if="$big" of=/dev/null bs=1M)"
	echo "## Report throughput (host)"
	echo
	echo "A synthetic trace of $reports_records records, $((bytes / 1000000)) MB, 4 CPUs, 64 threads (tests/bench/gentrace.c); best of 3 runs by CPU time, in one thread (SCHEDREC_THREADS=1: the one-core figures) and as by default on this $(nproc)-CPU host (the reader in a thread of its own: wall time). Peers in this run: \`cat\` of the file to /dev/null, $cat_wall s wall (it may not copy the data); \`dd bs=1M\` of it to /dev/null, which reads every byte, $dd_wall s. RSS a tenth: the same report on a trace of $((reports_records / 10)) records."
	echo
	echo "| report | CPU s, 1 thread | M records/s, one core | MB/s, one core | wall s, 2 threads | M records/s, wall | CPU s, 2 threads | wall / cat | wall / dd | peak RSS MB | RSS a tenth MB |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	for r in $reports_list; do
		line=$(best_of_three env SCHEDREC_THREADS=1 "$schedrec" report "$r" -q "$big")
		read -r _ cpu _ <<<"$line"
		line=$(best_of_three "$schedrec" report "$r" -q "$big")
		read -r wall2 cpu2 rss <<<"$line"
		read -r _ _ small_rss <<<"$(best_of_three "$schedrec" report "$r" -q "$small")"
		awk -v r="$r" -v n="$reports_records" -v b="$bytes" -v c="$cpu" \
			-v w="$wall2" -v c2="$cpu2" -v cw="$cat_wall" \
			-v dw="$dd_wall" -v rss="$rss" -v srss="$small_rss" \
			'BEGIN { printf "| %s | %.2f | %.1f | %.0f | %.2f | %.1f | %.2f | %.1f | %.1f | %.1f | %.1f |\n",
				r, c, n / c / 1e6, b / c / 1e6, w, n / w / 1e6,
				c2, (cw > 0 ? w / cw : 0), (dw > 0 ? w / dw : 0),
				rss / 1024, srss / 1024 }'
	done
	echo
	echo "Target: offcpu >= 20 M records/s on one core."
}

# perf sched against schedrec report on the same workload: the demo's VM
# run (tests/demo/run.sh, DEMO_WORKLOAD=hackbench) records `hackbench -g 4
# -l LOOPS` with both perf sched record and schedrec record in one boot and
# brings both files out; on the host, each tool then reads its own file in
# ROUNDS rounds, every command once a round (so that the host's drifts and
# bursts fall on all of them alike), each run timed by perf stat; the
# median CPU time (task-clock) and the median wall time count.  Events: the
# records of each file (perf script's lines; schedrec's records).
# perf_vs_schedrec NAME LOOPS ROUNDS PERF_MB VM_MB: NAME names the run's
# directory (build/bench/perf-NAME); perf records with -m PERF_MB a CPU in
# a guest of VM_MB.  Prints its section of the summary; the last line is
# the verdict.
perf_vs_schedrec() {
	local tag=$1 loops=$2 rounds=$3 perf_mb=$4 vm_mb=$5
	local dir=$out/perf-$tag perf_events sr_events
	local schedrec=$root/build/user/schedrec times=$out/perf-vs-schedrec-$tag
	local names=(timehist thsum latency serial offcpu tenancy states rlatency floor)
	local r line name t w ev w_th w_thsum w_lat
	local t_offcpu w_offcpu w_floor perf_lost

	# under TCG, hackbench -l 5000 takes about 5 minutes, and sending its
	# perf.data (160 MB) out through the serial port as long again
	VM_MEM=$vm_mb DEMO_PERF=2 DEMO_WORKLOAD=hackbench DEMO_OUT=$dir \
		DEMO_HACKBENCH_LOOPS=$loops DEMO_PERF_MB=$perf_mb \
		DEMO_TIMEOUT=$((600 + loops * 2 / 5)) \
		bash "$here/../demo/run.sh" >"$out/perf-$tag.log" 2>&1 ||
		die "the demo run for the perf comparison failed (log: $out/perf-$tag.log)"
	perf_events=$(perf script -i "$dir/perf.data" 2>/dev/null | wc -l)
	sr_events=$("$root/build/user/srecdump" "$dir/demo.srec" 2>/dev/null |
		awk '$1 ~ /^[0-9]+$/ && NF > 3' | wc -l)
	[ "$perf_events" -gt 0 ] && [ "$sr_events" -gt 0 ] ||
		die "no events in the demo's perf.data or trace"
	# "INFO: 29.129% lost events (67875 out of 233019, in 4 chunks)"
	perf_lost=$(perf sched latency -i "$dir/perf.data" 2>&1 |
		sed -n 's/.*lost events (\([0-9]*\) out of.*/\1/p')
	# one run of a command under perf stat: "wall_ms cpu_ms"
	stat_run() {
		perf stat -x, -e task-clock,duration_time "$@" 2>&1 >/dev/null |
			awk -F, '$3 == "task-clock" { c = $1 }
				 $3 == "duration_time" { w = $1 / 1e6 }
				 END { if (c == "" || w == "") exit 1; print w, c }'
	}
	run_named() {
		case $1 in
		timehist) stat_run perf sched timehist -i "$dir/perf.data" ;;
		thsum) stat_run perf sched timehist -s -i "$dir/perf.data" ;;
		latency) stat_run perf sched latency -i "$dir/perf.data" ;;
		serial) stat_run env SCHEDREC_THREADS=1 "$schedrec" report offcpu -q "$dir/demo.srec" ;;
		offcpu | tenancy | states)
			stat_run "$schedrec" report "$1" -q "$dir/demo.srec" ;;
		rlatency) stat_run "$schedrec" report latency -q "$dir/demo.srec" ;;
		floor) stat_run true ;;
		esac
	}
	mkdir -p "$times"
	for name in "${names[@]}"; do
		: >"$times/$name"
	done
	for ((r = 0; r < rounds; r++)); do
		for name in "${names[@]}"; do
			run_named "$name" >>"$times/$name" ||
				die "perf stat could not time $name"
		done
	done
	# "median_wall_ms median_cpu_ms" of one command's runs
	medians() {
		local col
		for col in 1 2; do
			awk -v c="$col" '{ print $c }' "$times/$1" | sort -n |
				awk '{ v[NR] = $1 } END { printf "%s ", v[int((NR + 1) / 2)] }'
		done
	}
	read -r w_offcpu t_offcpu <<<"$(medians offcpu)"
	echo "### hackbench -g 4 -l $loops"
	echo
	echo "hackbench -g 4 -l $loops in one VM boot (Debian 6.12, TCG, $vm_mb MiB), recorded by perf sched record (-m ${perf_mb}M) and schedrec record together; on the host, $rounds rounds, each command run once a round under perf stat, medians of CPU time (task-clock) and wall time. perf.data: $perf_events events; the .srec: $sr_events records. schedrec in one thread (SCHEDREC_THREADS=1), and as by default (the reader in a thread of its own); the ratios are of the default run, by CPU time and by wall time."
	echo
	echo "| command | CPU ms | wall ms | events/s (CPU) | events/s (wall) | schedrec offcpu / this (CPU) | (wall) |"
	echo "|---|---|---|---|---|---|---|"
	for name in timehist thsum latency serial offcpu; do
		read -r w t <<<"$(medians "$name")"
		case $name in
		timehist) line="perf sched timehist"; ev=$perf_events ;;
		thsum) line="perf sched timehist -s (summary only)"; ev=$perf_events ;;
		latency) line="perf sched latency"; ev=$perf_events ;;
		serial) line="schedrec report offcpu, 1 thread"; ev=$sr_events ;;
		offcpu) line="schedrec report offcpu"; ev=$sr_events ;;
		esac
		awk -v name="$line" -v t="$t" -v w="$w" -v ev="$ev" \
			-v ot="$t_offcpu" -v ow="$w_offcpu" -v oev="$sr_events" \
			'BEGIN { printf "| %s | %.2f | %.2f | %.0f | %.0f | %.1f | %.1f |\n",
				name, t, w, ev * 1000 / t, ev * 1000 / w,
				(oev / ot) / (ev / t), (oev / ow) / (ev / w) }'
	done
	echo
	if [ -n "$perf_lost" ] && [ "$perf_lost" -gt 0 ]; then
		echo "**perf lost $perf_lost events in this recording** (perf sched latency says so): its file is not a whole peer of the .srec."
	else
		echo "perf lost no events in this recording (perf sched latency says so)."
	fi
	echo
	# the floor: an empty process (true) under perf stat, the same rounds
	read -r w_floor _ <<<"$(medians floor)"
	read -r w_th _ <<<"$(medians timehist)"
	read -r w_thsum _ <<<"$(medians thsum)"
	read -r w_lat _ <<<"$(medians latency)"
	awk -v f="$w_floor" -v o="$w_offcpu" -v th="$w_th" -v lat="$w_lat" \
		-v oev="$sr_events" -v ev="$perf_events" \
		'BEGIN { printf "An empty process (true) takes %.2f ms of wall time under perf stat in the same rounds (%.0f %% of offcpu'"'"'s). Above that floor, schedrec report offcpu reads %.1f times perf sched timehist'"'"'s events/s and %.1f times perf sched latency'"'"'s.\n",
			f, 100 * f / o, (oev / (o - f)) / (ev / (th - f)),
			(oev / (o - f)) / (ev / (lat - f)) }'
	echo
	# each round's schedrec offcpu against the same round's perf run (a
	# host that is slower for a while is slower for both): "wall cpu" a
	# round, as the times are, for medians()
	for name in timehist thsum latency; do
		paste "$times/offcpu" "$times/$name" |
			awk -v oev="$sr_events" -v ev="$perf_events" \
				'{ print (oev / $1) / (ev / $3), (oev / $2) / (ev / $4) }' \
				>"$times/ratio-$name"
		read -r w t <<<"$(medians "ratio-$name")"
		sort -g "$times/ratio-$name" |
			awk -v name="${name/thsum/timehist -s}" -v t="$t" -v w="$w" '
				NR == 1 { low = $1 } { high = $1 }
				END { printf "Round by round, schedrec offcpu / perf sched %s: median %.1f (CPU), %.1f (wall); from %.1f to %.1f (wall).\n",
					name, t, w, low, high }'
	done
	echo
	# every report on the same recording, against both perf commands
	echo "Each schedrec report (as by default) on the same recording, the same rounds; its records/s over perf's events/s, by wall time (perf sched latency is the peer of report latency, timehist of report offcpu):"
	echo
	echo "| schedrec report | CPU ms | wall ms | records/s (wall) | / perf sched timehist | / perf sched latency |"
	echo "|---|---|---|---|---|---|"
	for name in offcpu tenancy states rlatency; do
		read -r w t <<<"$(medians "$name")"
		awk -v name="${name#r}" -v t="$t" -v w="$w" -v ev="$sr_events" \
			-v pev="$perf_events" -v wth="$w_th" -v wlat="$w_lat" \
			'BEGIN { printf "| %s | %.2f | %.2f | %.0f | %.1f | %.1f |\n",
				name, t, w, ev * 1000 / w,
				(ev / w) / (pev / wth), (ev / w) / (pev / wlat) }'
	done
	echo
	# the verdict: against perf sched timehist and perf sched latency, and
	# what timehist -s (no line per event) gives beside them
	awk -v o="$w_offcpu" -v oev="$sr_events" -v ev="$perf_events" \
		-v th="$w_th" -v lat="$w_lat" -v thsum="$w_thsum" -v loops="$loops" \
		'BEGIN { a = (oev / o) / (ev / th); b = (oev / o) / (ev / lat)
			 c = (oev / o) / (ev / thsum)
			 printf "Target: schedrec report offcpu reads at least 20 times the events per second of perf sched timehist and of perf sched latency. On hackbench -l %s it reads %.1f and %.1f times as many: %s. Against perf sched timehist -s, which prints no line per event, %.1f times: %s.\n",
				loops, a, b, (a >= 20 && b >= 20 ? "met" : "not met"),
				c, (c >= 20 ? "met too" : "not met") }'
}

# Both sizes of the VM workload: hackbench -l BENCH_PERF_LOOPS (1000), on
# which process start-up and the report's output take a third of
# schedrec's time, and -l BENCH_PERF_LARGE_LOOPS (5000), a recording of
# about a million events, on which both tools' fixed costs are small: the
# throughput the target is about.  perf's 16 MB a CPU lose none or few
# of the small one's events (4 % in one run; the summary says); the large
# one needs 128 MB a CPU (with 16 MB, perf lost 46 % of -l 4000), in a
# guest of 2 GiB.
perf_vs_schedrec_both() {
	echo "## schedrec report vs perf sched, the same VM workload"
	echo
	perf_vs_schedrec small "${BENCH_PERF_LOOPS:-1000}" \
		"${BENCH_PERF_RUNS:-30}" 16 1024
	echo
	perf_vs_schedrec large "${BENCH_PERF_LARGE_LOOPS:-5000}" \
		"${BENCH_PERF_LARGE_RUNS:-15}" 128 2048
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	root=$(cd "$here/../.." && pwd)
	out=$root/build/bench
	log_tag=bench
	# shellcheck source=tests/vm/lib.sh
	. "$root/tests/vm/lib.sh"
	mkdir -p "$out"
	reports_bench
	echo
	perf_vs_schedrec_both
fi
