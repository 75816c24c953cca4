#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/bench/run.sh: the schedrec benchmark (`make bench`), run from the
# host as root on Debian 12.  Not a timed test: it measures and reports.
#
# In one QEMU boot of Debian's newest 6.12 kernel, schedbench alternates
# many runs of switch-heavy workloads (hackbench; perf bench sched pipe; the
# same pinned to CPU 0, whose switches do not depend on the tracer) with
# nothing traced, with ftrace's sched_switch + sched_waking, and with
# schedrec recording the same two events, a reader draining every CPU's
# buffer in both traced cases.  report prints, per workload, each tracer's
# added cost per event, the per-round ratio schedrec/ftrace with its spread,
# and bytes per event.  Target: schedrec adds at most half of what ftrace
# adds.
#
# Before the boot, on the host: drain_bench, the throughput of the drainer
# of `schedrec record` (a producer thread on kmod/ring.c through the kernel
# shim, the drainer writing a .srec into build/bench/), raw and zlib,
# through the page cache and with O_DIRECT, next to memcpy and write()
# bandwidth measured in the same run.  Target: 20 M records/s drained raw
# with no loss.
#
# After the boot: tests/bench/reports.sh, the throughput of every `schedrec
# report` on synthetic traces of 4 CPUs (100 M records), 16 of 32 and 64
# of 128 possible (60 M) (records/s, peak RSS at full length and at a
# tenth, next to dd of the file; with BENCH_BASELINE=OLD_SCHEDREC, both
# binaries in interleaved rounds and their ratio), and against perf sched
# timehist and latency on the same VM workload (more boots, through
# tests/demo/run.sh).  Target: every report >= 20 M records/s on one core
# on 4, 16 and 64 CPUs, and offcpu 20 times perf sched's events/s.
# tests/bench/ab.sh, run by hand, decides whether an optimisation stays.
#
# Outputs in build/bench/: console.log (the whole guest console), runs.csv
# (one row per round and workload), summary.md (the tables printed last).
#
# Settings (environment):
#   BENCH_ROUNDS=18          measured rounds (a multiple of 6 runs every
#                            order of the three modes equally often;
#                            about 20 s each under -icount)
#   BENCH_WARMUP=1           rounds run first and not counted
#   BENCH_BUF_KB=4096        per-CPU buffer of both tracers, KiB
#   BENCH_HACKBENCH="2 100"  hackbench -g GROUPS -l LOOPS
#   BENCH_PIPE_LOOPS=20000   perf bench sched pipe -l LOOPS (both variants)
#   BENCH_ICOUNT=1           1: run QEMU with -icount shift=0,sleep=off, so
#                            the guest's clock counts guest instructions
#                            (1 ns each) and host load cannot disturb the
#                            numbers; 0: plain TCG, the guest clock follows
#                            the host's (run-to-run noise of 10-20% seen
#                            here, larger than what either tracer adds)
#   BENCH_QEMU_CPU=max,cx16=off
#                            QEMU -cpu: with -icount, QEMU 7.2's TCG twice
#                            corrupted EFLAGS right after the guest's
#                            cmpxchg16b in SLUB's fast path (double fault
#                            in a base run, EFLAGS = the low half of RAX);
#                            without CX16 the guest never issues it
#   BENCH_KERNEL_SERIES=6.12 Debian kernel series (amd64 flavour)
#   BENCH_TIMEOUT=3600       seconds before the VM is killed
#   BENCH_DRAIN_SECONDS=3    seconds per drain_bench run (9 runs)
#   BENCH_REPORTS=1          0: leave out the reports' benchmark
#                            (tests/bench/reports.sh: BENCH_REPORT_RECORDS,
#                            BENCH_REPORT_WIDE_RECORDS, BENCH_REPORT_CPUS,
#                            BENCH_REPORT_LIST, BENCH_REPORT_ROUNDS,
#                            BENCH_BASELINE, BENCH_REPORT_PERF,
#                            BENCH_PERF_LOOPS, BENCH_PERF_RUNS,
#                            BENCH_PERF_LARGE_LOOPS, BENCH_PERF_LARGE_RUNS)
#   BENCH_STACK=1            1: a fourth run per round, schedrec with the
#                            stack event too (schedbench -s), and a table of
#                            what the stacks cost; 0: the three modes only
#
# Exit status: 0 when every run completed and the guest kernel logged no
# oops, BUG, WARNING, lockdep or KASAN report; whether the target is met is
# reported, not enforced.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$root/build/bench
mod_dir=$root/build/bench-mod

rounds=${BENCH_ROUNDS:-18}
warmup=${BENCH_WARMUP:-1}
buf_kb=${BENCH_BUF_KB:-4096}
read -r hb_groups hb_loops <<<"${BENCH_HACKBENCH:-2 100}"
pipe_loops=${BENCH_PIPE_LOOPS:-20000}
icount=${BENCH_ICOUNT:-1}
qemu_cpu=${BENCH_QEMU_CPU:-max,cx16=off}
series=${BENCH_KERNEL_SERIES:-6.12}
vm_timeout=${BENCH_TIMEOUT:-3600}
drain_seconds=${BENCH_DRAIN_SECONDS:-3}
reports=${BENCH_REPORTS:-1}
stack=${BENCH_STACK:-1}

started=$(date +%s)

log_tag=bench
# shellcheck source=tests/vm/lib.sh
. "$root/tests/vm/lib.sh"
# shellcheck source=tests/bench/reports.sh
. "$here/reports.sh"

ensure_tools() {
	ensure_vm_tools
	ensure_files <<-EOF
		/usr/bin/perf linux-perf
		/usr/include/zlib.h zlib1g-dev
	EOF
}

# schedrec.ko for <release>.
bench_module() {
	local kdir
	kdir=$(kernel_headers "$1")
	if ! build_module "$kdir" "$mod_dir"; then
		cat "$mod_dir.log" >&2
		die "module build failed (log: $mod_dir.log)"
	fi
}

cflags=(-O2 -Wall -Wextra -Werror)

build_programs() {
	gcc "${cflags[@]}" -static -I"$root/include/uapi" \
		-o "$out/schedbench" "$here/schedbench.c" -lpthread
	gcc "${cflags[@]}" -o "$out/report" "$here/report.c" -lm
	gcc "${cflags[@]}" -D_GNU_SOURCE -I"$root/tests/host/kshim" -I"$root/tests/host" \
		-I"$root/kmod" -I"$root/include" -I"$root/user" -I"$root/user/lib" \
		-Wno-unused-parameter -Wno-pointer-arith -pthread \
		-o "$out/drain_bench" "$here/drain_bench.c" \
		"$root/tests/host/drainrig.c" "$root/kmod/ring.c" \
		"$root/user/drain.c" "$root/user/lib/ringreader.c" \
		"$root/user/lib/srecwriter.c" "$root/user/lib/srecchunk.c" \
		"$root/user/lib/sreccrc.c" -lz
}

build_initramfs() {
	local stage=$out/initramfs
	stage_initramfs "$stage" "$here/init.sh"
	cp "$mod_dir/kmod/schedrec.ko" "$stage/lib/schedrec.ko"
	cp "$out/schedbench" "$stage/bin/schedbench"
	copy_with_libs /usr/bin/hackbench "$stage"
	copy_with_libs "$(perf_binary)" "$stage" perf
	pack_initramfs "$stage" "$out/initramfs.cpio.gz"
}

clock_note() {
	if [ "$icount" = 1 ]; then
		echo "QEMU TCG -cpu $qemu_cpu -icount shift=0,sleep=off: guest ns = guest instructions"
	else
		echo "QEMU TCG -cpu $qemu_cpu, guest clock follows the host's"
	fi
}

boot() {
	local vmlinuz=$1 args
	args="-r,$rounds,-w,$warmup,-k,$buf_kb,-g,$hb_groups,-l,$hb_loops,-p,$pipe_loops"
	[ "$stack" = 1 ] && args+=",-s"
	QEMU_CPU=$qemu_cpu
	QEMU_EXTRA=
	[ "$icount" = 1 ] && QEMU_EXTRA="-icount shift=0,sleep=off"
	log "booting ($(clock_note)); progress lines follow (the whole console goes to $out/console.log)"
	boot_vm "$vmlinuz" "$out/initramfs.cpio.gz" "$vm_timeout" \
		"quiet bench.args=$args" | tee "$out/console.log" |
		grep --line-buffered -E '^@@bench (boot|info|error|exit|done|run)' |
		sed -u 's/^@@bench //; s/ stat_bytes=.*//' >&2 || true
}

check_console() {
	local bad
	if bad=$(console_trouble "$out/console.log"); then
		log "the guest kernel reported trouble (from $out/console.log):"
		echo "$bad" | head -n 40 >&2
		return 1
	fi
	if ! grep -q '^@@bench exit=0' "$out/console.log"; then
		log "the benchmark did not complete; last console lines:"
		grep -v '^@@bench run' "$out/console.log" | tail -n 30 >&2
		return 1
	fi
}

main() {
	[ "$(id -u)" = 0 ] || die "run as root (apt-get)"
	mkdir -p "$out"
	ensure_tools
	local rel vmlinuz status=0
	rel=$(kernel_release "$series")
	log "kernel $rel"
	vmlinuz=$(kernel_image "$rel" "$root/build/vm/kernel")
	bench_module "$rel"
	build_programs
	log "drain throughput on the host (about 40 s)"
	"$out/drain_bench" "$out" "$drain_seconds" >"$out/drain.md" || status=1
	build_initramfs
	boot "$vmlinuz"
	check_console || status=1
	if [ "$reports" = 1 ]; then
		log "report throughput on the host, and against perf sched on a VM run (12 to 20 minutes)"
		reports_all >"$out/reports.md" ||
			status=1
	fi
	: >"$out/summary.md"
	if grep -q '^@@bench run ' "$out/console.log"; then
		"$out/report" "$out/console.log" "$out/runs.csv" "$(clock_note)" >"$out/summary.md"
		echo >>"$out/summary.md"
	fi
	cat "$out/drain.md" >>"$out/summary.md"
	if [ "$reports" = 1 ]; then
		echo >>"$out/summary.md"
		cat "$out/reports.md" >>"$out/summary.md"
	fi
	cat "$out/summary.md"
	echo "Per-round numbers: $out/runs.csv"
	echo "Summary: $out/summary.md"
	echo "Total run time: $(($(date +%s) - started)) s"
	exit "$status"
}

main "$@"
