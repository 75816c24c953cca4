#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/demo/run.sh: `make demo`, run as root on Debian 12 (it installs
# what it needs with apt).
#
# Builds schedrec.ko for Debian's newest 6.12 kernel, `schedrec` (static)
# and demo-workload, boots that kernel under QEMU TCG (2 vCPUs) with a
# busybox initramfs whose /init (tests/demo/init.sh) loads the module and
# null_blk, and records `demo-workload` with the drainer pinned to CPU 1.
# The trace comes back through the guest's second serial port
# (guest_send / vm_receive, checked with SHA-256).  On the host it then
# writes every report into out/demo/ and prints the main tables, and
# checks the workload's known behaviour from the trace itself
# (facts.awk over srecdump's output).
#
# Outputs in out/demo/: demo.srec (the trace), threads.txt (the workload's
# "name tid" lines), record.log, console.log (the whole guest console),
# facts.txt, the reports (*.txt, *.csv, *.svg) and, with DEMO_PERF=1,
# perf-timehist.txt.  Staging and logs: build/demo/.
#
# Settings (environment):
#   DEMO_OUT=out/demo        where the trace and the reports go
#   DEMO_SECONDS=4           how long demo-workload runs
#   DEMO_WORKLOAD=demo       or hackbench: record `hackbench -g 4 -l
#                            DEMO_HACKBENCH_LOOPS` (default 1000) instead,
#                            for the benchmark (tests/bench/reports.sh):
#                            no facts, no reports
#   DEMO_PERF=0              1: also record with `perf sched record` around
#                            schedrec record, and write `perf sched
#                            timehist --state` of it, made in the guest, to
#                            out/demo/perf-timehist.txt.  A line's "wait
#                            time" is the off-CPU interval before its run;
#                            its "state" is that at the switch-out ending
#                            the run, so the wait's own state is on the
#                            thread's line before; perf.data comes out
#                            too.  2: perf.data only (tests/bench)
#   DEMO_PERF_MB=16          perf sched record -m, MB a CPU
#   DEMO_BUF_KB=4096         schedrec.ko's per-CPU ring, KiB
#   DEMO_DRAINER_CPU=1       the CPU of `schedrec record -C`
#   DEMO_KERNEL_SERIES=6.12  Debian kernel series: 6.1, 6.12 or 6.12-rt
#   DEMO_TIMEOUT=600         seconds before the VM is killed
#   VM_MEM=1024              the guest's memory, MiB
#   DEMO_NICE=-10            QEMU's nice value on the host: the guest's
#                            clock follows the host's, so when host load
#                            keeps QEMU waiting, the guest's timers fire
#                            late and the ticker's sleeps look longer
#
# Exit status: 0 when the recording completed, came out intact, showed the
# workload's known behaviour (facts.txt), the guest kernel logged no oops,
# BUG, WARNING, lockdep or KASAN report, and the reports (if `schedrec
# report` exists yet) were written; 1 otherwise.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${DEMO_OUT:-$root/out/demo}
work=$root/build/demo

seconds=${DEMO_SECONDS:-4}
workload=${DEMO_WORKLOAD:-demo}
hb_loops=${DEMO_HACKBENCH_LOOPS:-1000}
perf_mb=${DEMO_PERF_MB:-16}
perf=${DEMO_PERF:-0}
buf_kb=${DEMO_BUF_KB:-4096}
drainer_cpu=${DEMO_DRAINER_CPU:-1}
series=${DEMO_KERNEL_SERIES:-6.12}
vm_timeout=${DEMO_TIMEOUT:-600}
qemu_nice=${DEMO_NICE:--10}

started=$(date +%s)
schedrec=$root/build/user/schedrec
srecdump=$root/build/user/srecdump

log_tag=demo
# shellcheck source=tests/vm/lib.sh
. "$root/tests/vm/lib.sh"

ensure_tools() {
	ensure_vm_tools
	ensure_files <<-EOF
		/usr/include/numa.h libnuma-dev
		/usr/include/zlib.h zlib1g-dev
	EOF
	if [ "$perf" != 0 ]; then
		ensure_files <<-EOF
			/usr/bin/perf linux-perf
		EOF
	fi
}

# schedrec.ko for the headers of <release>, the tools, the workload.
build_all() {
	local kdir logf=$work/build.log
	kdir=$(kernel_headers "$1") || exit 1
	if ! build_module "$kdir" "$work/mod"; then
		tail -n 30 "$work/mod.log" >&2
		die "schedrec.ko did not build for $1 (log: $work/mod.log)"
	fi
	if ! { make -C "$root/user" all static &&
		make -C "$here"; } >"$logf" 2>&1; then
		tail -n 30 "$logf" >&2
		die "the tools or demo-workload did not build (log: $logf)"
	fi
}

build_initramfs() {
	local stage=$work/initramfs
	stage_initramfs "$stage" "$here/init.sh"
	cp "$work/mod/kmod/schedrec.ko" "$stage/lib/schedrec.ko"
	cp "$root/build/user/schedrec-static" "$stage/bin/schedrec"
	cp "$root/build/user/demo-workload" "$stage/bin/demo-workload"
	stage_kernel_modules "$1" "$stage"
	if [ "$perf" != 0 ]; then
		copy_with_libs "$(perf_binary)" "$stage" perf
	fi
	[ "$workload" = hackbench ] && copy_with_libs /usr/bin/hackbench "$stage"
	pack_initramfs "$stage" "$work/initramfs.cpio.gz"
}

boot() {
	local vmlinuz=$1 capture=$work/ttyS1.out
	rm -f "$capture"
	QEMU_EXTRA=$(vm_out_args "$capture")
	QEMU_NICE=$qemu_nice
	log "booting $(basename "$(dirname "$vmlinuz")") under QEMU TCG; the workload runs $seconds s (whole console: $out/console.log)"
	boot_vm "$vmlinuz" "$work/initramfs.cpio.gz" "$vm_timeout" \
		"quiet skew_tick=1 demo.seconds=$seconds demo.buf_kb=$buf_kb demo.cpu=$drainer_cpu demo.perf=$perf demo.workload=$workload demo.hackbench_loops=$hb_loops demo.perf_mb=$perf_mb" |
		tee "$out/console.log" |
		grep --line-buffered -E '^@@demo (boot|run|record|error|perf|sent)' |
		sed -u 's/^@@demo /  guest: /' >&2
}

# The guest's verdict and files: fails if it did not finish or any file
# did not come out intact.
collect() {
	local capture=$work/ttyS1.out bad name status=0
	if bad=$(console_trouble "$out/console.log"); then
		log "the guest kernel reported trouble (from $out/console.log):"
		echo "$bad" | head -n 40 >&2
		status=1
	fi
	if ! grep -q '^@@demo sent' "$out/console.log"; then
		log "the guest did not finish the demo; last console lines:"
		tail -n 30 "$out/console.log" >&2
		return 1
	fi
	# the last recording's (the guest records again when its timers
	# were too late for the ticker's fact)
	if [ "$(grep '^@@demo record exit=' "$out/console.log" | tail -n 1)" != \
		'@@demo record exit=0' ]; then
		log "the recording failed in the guest (its messages: $out/record.log)"
		status=1
	fi
	for name in demo.srec threads.txt record.log; do
		vm_receive "$capture" "$name" "$out/$name" || status=1
	done
	if [ "$perf" = 1 ]; then
		vm_receive "$capture" perf-timehist.txt "$out/perf-timehist.txt" ||
			status=1
		vm_receive "$capture" perf-timehist.log "$work/perf-timehist.log" ||
			status=1
	fi
	if [ "$perf" != 0 ]; then
		vm_receive "$capture" perf.data "$out/perf.data" || status=1
	fi
	return "$status"
}

# The workload's process id, from its "demo-workload PID" line.
workload_pid() {
	awk '$1 == "demo-workload" { print $2; exit }' "$out/threads.txt"
}

# The known behaviour of the workload, checked from the raw trace; prints
# it, returns 1 if some of it did not show.
check_facts() {
	local status
	"$srecdump" "$out/demo.srec" 2>"$work/srecdump.log" |
		awk -f "$here/facts.awk" "$out/threads.txt" - >"$out/facts.txt"
	status=$?
	echo
	echo "== the workload's known behaviour, from the trace (srecdump) =="
	cat "$out/facts.txt"
	[ "$status" = 0 ]
}

have_reports() {
	"$schedrec" report --help >/dev/null 2>&1
}

# Every report into out/demo/: text (with its chart), CSV, and the extra
# tables; returns 1 if one failed.
write_reports() {
	local r trace=$out/demo.srec status=0
	: >"$work/reports.log"
	for r in offcpu tenancy states latency; do
		"$schedrec" report "$r" "$trace" --svg "$out/$r.svg" \
			>"$out/$r.txt" 2>>"$work/reports.log" || status=1
		"$schedrec" report "$r" "$trace" --csv \
			>"$out/$r.csv" 2>>"$work/reports.log" || status=1
	done
	"$schedrec" report states "$trace" --csv --usurpers \
		>"$out/states-usurpers.csv" 2>>"$work/reports.log" || status=1
	"$schedrec" report latency "$trace" --csv --wakers \
		>"$out/latency-wakers.csv" 2>>"$work/reports.log" || status=1
	# the workload's threads only: over all of them, idle kernel threads
	# hold every second's maximum
	"$schedrec" report offcpu "$trace" --interval 1s --pid "$(workload_pid)" \
		>"$out/offcpu-interval.txt" 2>>"$work/reports.log" || status=1
	# all of it as one page (index.html, no network), the workload's
	# threads, with the timeline and flame graph of each second
	"$schedrec" report html "$trace" --pid "$(workload_pid)" -o "$out/html" \
		>>"$work/reports.log" 2>&1 || status=1
	[ "$status" = 0 ] ||
		log "a report failed (log: $work/reports.log)"
	return "$status"
}

# The main tables, for the workload's threads only.
print_tables() {
	local r pid
	pid=$(workload_pid)
	for r in offcpu tenancy states latency; do
		echo
		echo "== schedrec report $r demo.srec --pid $pid --top 8 =="
		"$schedrec" report "$r" "$out/demo.srec" --pid "$pid" --top 8 2>&1
	done
}

list_files() {
	local f
	echo
	echo "Files in ${out#"$root"/}/:"
	for f in "$out"/*; do
		printf '  %-24s %9s bytes\n' "${f##*/}" "$(stat -c %s "$f")"
	done
}

main() {
	local rel vmlinuz moddir status=0
	[ "$(id -u)" = 0 ] || die "run as root: it installs packages with apt-get and boots a VM"
	mkdir -p "$work"
	rm -rf "$out"
	mkdir -p "$out"
	ensure_tools
	rel=$(kernel_release "$series") || exit 1
	log "kernel $rel"
	vmlinuz=$(kernel_image "$rel" "$root/build/vm/kernel") || exit 1
	moddir=$(kernel_modules "$rel" "$root/build/vm/kernel") || exit 1
	build_all "$rel"
	build_initramfs "$moddir"
	boot "$vmlinuz"
	collect || status=1
	if [ "$workload" != demo ]; then
		"$srecdump" -H "$out/demo.srec" || status=1
	elif [ -s "$out/demo.srec" ] && [ -s "$out/threads.txt" ]; then
		echo
		echo "== the trace: ${out#"$root"/}/demo.srec (srecdump -H) =="
		"$srecdump" -H "$out/demo.srec"
		echo
		echo "== the workload's threads =="
		cat "$out/threads.txt"
		if ! check_facts; then
			log "the workload did not behave as designed (NOT MET above): under TCG the guest's clock follows the host's, so a busy host stretches its timings; rerun on a quieter host"
			status=1
		fi
		if have_reports; then
			write_reports || status=1
			print_tables
			echo
			echo "Every report as one page: ${out#"$root"/}/html/index.html (open it in a browser)"
		else
			echo
			log "build/user/schedrec has no report verb yet: the trace is in ${out#"$root"/}/demo.srec"
		fi
	fi
	list_files
	log "finished in $(($(date +%s) - started)) s"
	exit "$status"
}

main "$@"
