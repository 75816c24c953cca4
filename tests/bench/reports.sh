# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# tests/bench/reports.sh: the throughput of `schedrec report`, sourced by
# tests/bench/run.sh (which sets root, out and the lib.sh helpers) and by
# tests/bench/ab.sh, and runnable alone: `bash tests/bench/reports.sh`.
#
# Part 1 (reports_bench): gentrace writes synthetic traces with the real
# writer (kept in build/bench/ between runs, remade when gentrace or its
# arguments change): 4 CPUs of BENCH_REPORT_RECORDS records (100 M by
# default, 3.2 GB), and 16 CPUs online of 32 possible and 64 of 128, of
# BENCH_REPORT_WIDE_RECORDS records (60 M, 1.9 GB, or BENCH_REPORT_RECORDS if
# that is less), 16 threads a CPU; each also a tenth as long.  The tenth
# of the 64-CPU trace has about 3 chunks of a MiB per CPU: a reader holds
# up to a few chunks of every CPU, so a shorter tenth would show its RSS
# still rising to that bound, not a growth with the trace.  Every report
# of BENCH_REPORT_LIST reads each trace in BENCH_REPORT_ROUNDS rounds (3),
# once in one thread (SCHEDREC_THREADS=1) and once as it runs by default
# (with a second CPU, the reader in a thread of its own), and the tenth by
# default.  The best round counts: records/s of CPU time in one thread
# (user + system, which the shared host's load disturbs less than wall
# time: the one-core figure), records/s of wall time by default, that wall
# time next to `dd bs=1M` of the file timed the same way, and the peak RSS
# at full length and at a tenth (memory must not grow with the trace).
# Target: every report >= 20 M records/s on one core on 4, 16 and 64 CPUs;
# a verdict line per report and trace.
#
# With BENCH_BASELINE=/path/to/an/older/schedrec, each round runs both
# binaries, one after the other (the order alternating from round to
# round), and the table has the baseline's figures beside the new ones and
# the median over the rounds of each round's time ratio new/old.
#
# Part 2 (perf_vs_schedrec_both): perf sched timehist and latency against
# schedrec report offcpu (in one thread, and by default), each on its own
# recording of the same VM workload, run in interleaved rounds, on a small
# recording and a large one; target: schedrec 20 times the events/s of
# both perf commands.  The other reports on that recording too: a real
# workload's runqueues, which the synthetic trace lacks.

reports_records=${BENCH_REPORT_RECORDS:-100000000}
reports_wide_records=${BENCH_REPORT_WIDE_RECORDS:-$((reports_records < 60000000 ? reports_records : 60000000))}
reports_rounds=${BENCH_REPORT_ROUNDS:-3}
# ONLINE[/POSSIBLE] CPUs a trace; more than 4 online: the wide length
reports_cpus=${BENCH_REPORT_CPUS:-4 16/32 64/128}
reports_list=${BENCH_REPORT_LIST:-offcpu tenancy states latency heatmap timeline folded}
reports_baseline=${BENCH_BASELINE:-}
reports_target=20	# M records/s on one core
reports_threads=16	# of a synthetic trace, a CPU

# One run of "$@", its output thrown away: prints "wall_s cpu_s maxrss_kb"
# (CPU: user + system of all its threads, to the ms); fails if it fails.
time_run() {
	local TIMEFORMAT='%3R %3U %3S' rss=$out/.rss.$$ times wall user sys
	times=$({ time /usr/bin/time -f %M -o "$rss" "$@" >/dev/null 2>&1; } 2>&1) ||
		{ rm -f "$rss"; return 1; }
	read -r wall user sys <<<"$times"
	awk -v w="$wall" -v u="$user" -v s="$sys" -v m="$(tail -n 1 "$rss")" \
		'BEGIN { printf "%s %.3f %s\n", w, u + s, m }'
	rm -f "$rss"
}

# Numbers on stdin, one a line: prints "p25 median p75" (interpolated).
quartiles() {
	sort -g | awk '{ v[NR] = $1 }
		function q(p,   x, i) {
			x = 1 + (NR - 1) * p; i = int(x)
			return i < NR ? v[i] + (x - i) * (v[i + 1] - v[i]) : v[NR]
		}
		END { if (NR) printf "%.4f %.4f %.4f\n", q(0.25), q(0.5), q(0.75) }'
}

# gentrace and the schedrec it is measured with.
reports_build() {
	make -C "$root/user" >/dev/null || die "cannot build the tools"
	gcc -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$root/include" \
		-I"$root/user/lib" -o "$out/gentrace" "$here/gentrace.c" \
		"$root/build/user/libsrec.a" -lz || die "cannot build gentrace"
}

# The synthetic trace of ONLINE CPUs of POSSIBLE and RECORDS records.
reports_trace_path() {
	echo "$out/reports-c$1-p$2-n$3.srec"
}

# reports_trace ONLINE POSSIBLE RECORDS: writes that trace, 16 threads a
# CPU, unless the one there was written by this gentrace build with these
# arguments: the first line of its .stamp says so; the second is what
# gentrace printed ("N records, T s of trace").
reports_trace() {
	local path args stamp
	path=$(reports_trace_path "$@")
	args=(-c "$1" -p "$2" -t $(($1 * reports_threads)) -n "$3")
	stamp="${args[*]} $(sha1sum "$out/gentrace" | cut -d' ' -f1)"
	if [ -s "$path" ] && [ "$(head -n 1 "$path.stamp" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	log "generating a synthetic trace: gentrace ${args[*]} $path"
	{ echo "$stamp" && "$out/gentrace" "${args[@]}" "$path"; } >"$path.stamp.new" ||
		die "gentrace failed"
	mv "$path.stamp.new" "$path.stamp"
}

# The records in a trace reports_trace wrote.
reports_trace_records() {
	sed -n '2s/ records.*//p' "$1.stamp"
}

# reports_measure FILE BIG SMALL REPORT: reports_rounds rounds of REPORT
# on BIG in one thread and by default and on SMALL by default, every
# binary of reports_bins once a round (the order alternating); appends a
# line a round, "cpu_s wall_s cpu_s wall_s rss_kb rss_kb" (one thread,
# default, SMALL's peak RSS last), to FILE.N, N the binary's index.
reports_measure() {
	local file=$1 big=$2 small=$3 r=$4 round i b one dflt tenth
	local w1 c1 w2 c2 m2 m3
	local -a order

	for ((i = 0; i < ${#reports_bins[@]}; i++)); do
		: >"$file.$i"
	done
	for ((round = 0; round < reports_rounds; round++)); do
		if [ "${#reports_bins[@]}" = 1 ]; then
			order=(0)
		elif [ $((round % 2)) = 0 ]; then
			order=(0 1)
		else
			order=(1 0)
		fi
		for i in "${order[@]}"; do
			b=${reports_bins[i]}
			if ! one=$(time_run env SCHEDREC_THREADS=1 "$b" report "$r" -q "$big") ||
				! dflt=$(time_run "$b" report "$r" -q "$big") ||
				! tenth=$(time_run "$b" report "$r" -q "$small"); then
				die "$b report $r failed on $big or $small"
			fi
			read -r w1 c1 _ <<<"$one"
			read -r w2 c2 m2 <<<"$dflt"
			read -r _ _ m3 <<<"$tenth"
			echo "$c1 $w1 $c2 $w2 $m2 $m3" >>"$file.$i"
		done
	done
}

# reports_row FILE REPORT LABEL RECORDS BYTES DD_WALL VERDICTS: the
# table's row of REPORT from reports_measure's FILE.0 (and FILE.1, the
# baseline's, if there is one); appends its verdict line to VERDICTS.
reports_row() {
	local file=$1 base='' ratio1='' ratio2=''
	if [ "${#reports_bins[@]}" = 2 ]; then
		base=$file.1
		# the median over the rounds of new/old: CPU time in one
		# thread, wall time by default
		read -r _ ratio1 _ <<<"$(paste -d' ' "$file.0" "$base" |
			awk '{ print $1 / $7 }' | quartiles)"
		read -r _ ratio2 _ <<<"$(paste -d' ' "$file.0" "$base" |
			awk '{ print $4 / $10 }' | quartiles)"
	fi
	awk -v r="$2" -v label="$3" -v n="$4" -v bytes="$5" -v dd="$6" \
		-v target="$reports_target" -v vfile="$7" -v ratio1="$ratio1" \
		-v ratio2="$ratio2" '
		# per binary f (0 new, 1 baseline) and round i: v[f, i, column]
		FNR == 1 { f = nf++ }
		{ rounds[f] = FNR; for (c = 1; c <= 6; c++) v[f, FNR, c] = $c }
		# the round of f with the least of column c (most with sign -1)
		function pick(f, c, sign,   i, k) {
			k = 1
			for (i = 2; i <= rounds[f]; i++)
				if (sign * v[f, i, c] < sign * v[f, k, c])
					k = i
			return k
		}
		function fig(f) {
			one[f] = v[f, pick(f, 1, 1), 1]
			k = pick(f, 4, 1); wall[f] = v[f, k, 4]; cpu2[f] = v[f, k, 3]
			rss[f] = v[f, pick(f, 5, -1), 5] / 1024
			tenth[f] = v[f, pick(f, 6, -1), 6] / 1024
			rate[f] = n / one[f] / 1e6
			met[f] = rate[f] >= target ? "met" : "NOT MET"
			flat[f] = rss[f] <= 1.1 * tenth[f] + 1 ? "flat" : "GROWS"
		}
		END {
			for (f = 0; f < nf; f++)
				fig(f)
			printf "| %s | %.2f | %.1f | %.0f | %.2f | %.1f | %.2f | %.1f | %.1f | %.1f |",
				r, one[0], rate[0], bytes / one[0] / 1e6, wall[0],
				n / wall[0] / 1e6, cpu2[0], (dd > 0 ? wall[0] / dd : 0),
				rss[0], tenth[0]
			line = sprintf("%s on %s: %.1f M records/s on one core (target %d): %s; peak RSS %.1f MB, %.1f MB at a tenth of the trace: %s",
				r, label, rate[0], target, met[0], rss[0], tenth[0],
				flat[0])
			if (nf > 1) {
				printf " %.1f | %.3f | %.2f | %.3f | %.1f | %.1f |",
					rate[1], ratio1, wall[1], ratio2, rss[1],
					tenth[1]
				line = line sprintf("; baseline %.1f M records/s: %s, RSS %s",
					rate[1], met[1], flat[1])
			}
			printf "\n"
			print line >>vfile
		}' "$file.0" ${base:+"$base"}
}

reports_bench() {
	local spec online possible records path small tag label bytes dd_wall
	local r dir=$out/reports-times
	reports_bins=("$root/build/user/schedrec")

	reports_build
	if [ -n "$reports_baseline" ]; then
		[ -x "$reports_baseline" ] ||
			die "BENCH_BASELINE=$reports_baseline: not an executable"
		reports_bins+=("$reports_baseline")
	fi
	# the names the traces had before there were several
	rm -f "$out"/reports-big.srec* "$out"/reports-small.srec*
	mkdir -p "$dir"
	: >"$dir/verdicts"
	echo "## Report throughput (host)"
	echo
	echo "Synthetic traces (tests/bench/gentrace.c, 16 threads a CPU), each also a tenth as long; $reports_rounds rounds of every report, in one thread (SCHEDREC_THREADS=1: the one-core figures, by CPU time) and as by default on this $(nproc)-CPU host (the reader in a thread of its own: wall time), the best round of each. \`dd bs=1M\` of the trace to /dev/null, best of 3 in the same run, is the peer of the wall time. RSS a tenth: the peak RSS of the same report on the trace a tenth as long."
	if [ -n "$reports_baseline" ]; then
		echo
		echo "Baseline: $reports_baseline, run in the same rounds, one binary after the other, the order alternating from round to round. new/old: the median over the rounds of each round's ratio of times (CPU time in one thread; wall time by default): below 1, the new binary is faster."
	fi
	for spec in $reports_cpus; do
		online=${spec%/*} possible=${spec#*/}
		records=$reports_records
		[ "$online" -le 4 ] || records=$reports_wide_records
		reports_trace "$online" "$possible" "$records"
		reports_trace "$online" "$possible" $((records / 10))
		path=$(reports_trace_path "$online" "$possible" "$records")
		small=$(reports_trace_path "$online" "$possible" $((records / 10)))
		records=$(reports_trace_records "$path")
		bytes=$(stat -c %s "$path")
		label="$online CPUs"
		[ "$possible" = "$online" ] || label="$online of $possible CPUs"
		dd_wall=$(for r in 1 2 3; do
			time_run dd if="$path" of=/dev/null bs=1M | cut -d' ' -f1
		done | sort -g | head -n 1)
		echo
		echo "### $online CPUs online of $possible possible: $records records, $((bytes / 1000000)) MB, $((online * reports_threads)) threads; dd $dd_wall s"
		echo
		if [ -z "$reports_baseline" ]; then
			echo "| report | CPU s, 1 thread | M records/s, one core | MB/s, one core | wall s, default | M records/s, wall | CPU s, default | wall / dd | peak RSS MB | RSS a tenth MB |"
			echo "|---|---|---|---|---|---|---|---|---|---|"
		else
			echo "| report | CPU s, 1 thread | M records/s, one core | MB/s, one core | wall s, default | M records/s, wall | CPU s, default | wall / dd | peak RSS MB | RSS a tenth MB | baseline M records/s, one core | new/old CPU, 1 thread | baseline wall s, default | new/old wall, default | baseline peak RSS MB | baseline RSS a tenth MB |"
			echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
		fi
		tag=c$online-p$possible
		for r in $reports_list; do
			reports_measure "$dir/$tag.$r" "$path" "$small" "$r"
			reports_row "$dir/$tag.$r" "$r" "$label" "$records" \
				"$bytes" "$dd_wall" "$dir/verdicts" ||
				die "no row for $r on $label"
		done
	done
	echo
	echo "Target: every report >= $reports_target M records/s on one core on 4, 16 and 64 CPUs, with peak RSS flat in trace length (at most 10 % + 1 MB over the tenth's):"
	echo
	sed 's/^/- /' "$dir/verdicts"
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
	if [ "$perf_events" = 0 ] || [ "$sr_events" = 0 ]; then
		die "no events in the demo's perf.data or trace"
	fi
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

# perfetto_row TRACE LABEL RECORDS VERDICTS [json]: `schedrec export
# perfetto` (protobuf) of TRACE, reports_rounds rounds in one thread, the
# best by CPU time: a row of the table (with json, the JSON's size too),
# and its verdict line appended to VERDICTS.
perfetto_row() {
	local path=$1 label=$2 records=$3 verdicts=$4 r t cpu best=''
	local pb=$out/perfetto-out.pftrace js=$out/perfetto-out.json js_bytes=0
	for ((r = 0; r < reports_rounds; r++)); do
		t=$(time_run env SCHEDREC_THREADS=1 "$root/build/user/schedrec" \
			export perfetto -q "$path" -o "$pb") ||
			die "export perfetto failed on $path"
		read -r _ cpu _ <<<"$t"
		if [ -z "$best" ] || awk -v a="$cpu" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$cpu
		fi
	done
	if [ "${5:-}" = json ]; then
		"$root/build/user/schedrec" export perfetto -q "$path" -o "$js" ||
			die "export perfetto --format json failed on $path"
		js_bytes=$(stat -c %s "$js")
	fi
	awk -v label="$label" -v n="$records" -v srec="$(stat -c %s "$path")" \
		-v pb="$(stat -c %s "$pb")" -v js="$js_bytes" -v cpu="$best" \
		-v vfile="$verdicts" 'BEGIN {
		rate = n / cpu / 1e6; ratio = pb / srec
		printf "| %s | %d | %.1f | %.1f | %.3f | %s | %.2f | %.1f |\n",
			label, n, srec / 1e6, pb / 1e6, ratio,
			js ? sprintf("%.2f", js / srec) : "", cpu, rate
		met_rate = rate >= 5 ? "met" : "NOT MET"
		met_size = ratio <= 0.5 ? "met" : "NOT MET"
		printf("%s: %.1f M records/s on one core (target 5): %s; %.3f of the trace'"'"'s size (target 0.5): %s\n",
			label, rate, met_rate, ratio, met_size) >>vfile
	}'
	rm -f "$pb" "$js"
}

# schedrec export perfetto on the synthetic traces of reports_bench and,
# if they are there, the VM recordings of perf_vs_schedrec.
perfetto_bench() {
	local spec online possible records path tag dir=$out/reports-times
	local verdicts=$dir/perfetto-verdicts

	mkdir -p "$dir"
	: >"$verdicts"
	echo "## schedrec export perfetto (protobuf), host"
	echo
	echo "The best of $reports_rounds rounds by CPU time, in one thread. json/.srec: the size of --format json, on the VM recordings only (on the synthetic traces it would be gigabytes)."
	echo
	echo "| trace | records | .srec MB | protobuf MB | protobuf/.srec | json/.srec | CPU s | M records/s, one core |"
	echo "|---|---|---|---|---|---|---|---|"
	for spec in $reports_cpus; do
		online=${spec%/*} possible=${spec#*/}
		records=$reports_records
		[ "$online" -le 4 ] || records=$reports_wide_records
		path=$(reports_trace_path "$online" "$possible" "$records")
		[ -s "$path" ] || continue
		perfetto_row "$path" "synthetic, $online of $possible CPUs" \
			"$(reports_trace_records "$path")" "$verdicts"
	done
	for tag in small large; do
		path=$out/perf-$tag/demo.srec
		[ -s "$path" ] || continue
		records=$("$root/build/user/schedrec" export csv -q "$path" -o - | wc -l)
		perfetto_row "$path" "VM recording, hackbench ($tag)" \
			$((records - 1)) "$verdicts" json
	done
	echo
	echo "Targets: written at >= 5 M records/s, at most half the size of the trace:"
	echo
	sed 's/^/- /' "$verdicts"
}

# Both parts; BENCH_REPORT_PERF=0 leaves out the second (its VM boots).
reports_all() {
	reports_bench || return
	if [ "${BENCH_REPORT_PERF:-1}" != 0 ]; then
		echo
		perf_vs_schedrec_both
	fi
	echo
	perfetto_bench
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
	reports_all
fi
