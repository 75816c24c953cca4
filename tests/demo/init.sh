#!/bin/busybox sh
# /init of the demo VM (built by tests/demo/run.sh): load schedrec.ko and
# null_blk (a disk whose every read takes 2 ms, completed by a timer), run
# demo-workload under `schedrec record` (and, with demo.perf=1, both under
# `perf sched record`), send the trace, the workload's thread list and the
# logs to the host through ttyS1, dump the kernel log between markers, and
# power off.
#
# Kernel command line: demo.seconds=S (workload run time), demo.buf_kb=KB
# (schedrec.ko's per-CPU ring), demo.cpu=N (the drainer's CPU),
# demo.perf=0|1|2 (2: perf.data only, no timehist of it),
# demo.workload=demo|hackbench (for the benchmark), demo.hackbench_loops=N,
# demo.perf_mb=MB (perf's buffer a CPU).
. /lib/guest-setup.sh
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

seconds=4
buf_kb=4096
cpu=1
perf=0
workload=demo
hb_loops=1000
perf_mb=16
for word in $(cat /proc/cmdline); do
	case "$word" in
	demo.seconds=*) seconds=${word#demo.seconds=} ;;
	demo.buf_kb=*) buf_kb=${word#demo.buf_kb=} ;;
	demo.cpu=*) cpu=${word#demo.cpu=} ;;
	demo.perf=*) perf=${word#demo.perf=} ;;
	demo.workload=*) workload=${word#demo.workload=} ;;
	demo.hackbench_loops=*) hb_loops=${word#demo.hackbench_loops=} ;;
	demo.perf_mb=*) perf_mb=${word#demo.perf_mb=} ;;
	esac
done

error() { echo "@@demo error $*"; }

# CPU 0 is the hogs': move every kernel thread and interrupt that may move
# to the other CPUs, as one would for a dedicated core (per-CPU kernel
# threads refuse, and stay).  Without this, rcu_preempt, woken 50 times a
# second by the drainer's fences (synchronize_rcu), took CPU 0 from the
# hogs more often than they took it from each other on 6.1.
leave_cpu0() {
	local mask dir
	mask=$(printf '%x' $(((1 << $(nproc)) - 2)))
	for dir in /proc/[0-9]*; do
		[ -z "$(tr -d '\000' <"$dir/cmdline" 2>/dev/null)" ] || continue
		taskset -p "$mask" "${dir#/proc/}" >/dev/null 2>&1
	done
	for dir in /proc/irq/*; do
		echo "$mask" >"$dir/smp_affinity" 2>/dev/null
	done
	echo "$mask" >/sys/devices/virtual/workqueue/cpumask 2>/dev/null
}

# null_blk makes /dev/nullb0 a moment after insmod returns.
load_disk() {
	local waited=0
	guest_load_module null_blk irqmode=2 completion_nsec=2000000 || return 1
	while [ ! -b /dev/nullb0 ] && [ "$waited" -lt 50 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
	[ -b /dev/nullb0 ]
}

record() {
	set -- schedrec record -C "$cpu" -o /tmp/demo.srec -- \
		/bin/demo-workload -d /dev/nullb0 "$seconds"
	if [ "$workload" = hackbench ]; then
		set -- schedrec record -C "$cpu" -o /tmp/demo.srec -- \
			hackbench -g 4 -l "$hb_loops"
	fi
	# perf's 4 MB a CPU overflow under TCG (29 % of hackbench's events
	# were lost): demo.perf_mb (16 MB a CPU) hold all or most of those of
	# -l 1000 (one run lost 4 %: perf sched latency tells); larger runs
	# need more (tests/bench)
	if [ "$perf" != 0 ]; then
		set -- perf sched record -m "${perf_mb}M" -o /tmp/perf.data -- "$@"
	fi
	echo "@@demo run $*"
	"$@" >/tmp/threads.txt 2>/tmp/record.log
	status=$?
	echo "@@demo record exit=$status"
	cat /tmp/record.log /tmp/threads.txt
	return "$status"
}

# Whether the machine (late timers, or a vCPU held up around the ticker's
# switches) put the ticker's longest sleep, by its own clock (demo-workload
# measures it), outside the bounds it prints for its fact: then that fact
# may say nothing of schedrec.
ticker_disturbed() {
	awk '$1 == "ticker-longest-sleep-ns" { sleep = $2 }
	     $1 == "ticker-min-ns" { low = $2 }
	     $1 == "ticker-max-ns" { high = $2 }
	     END { exit !(sleep != "" && (sleep + 0 < low + 0 || sleep + 0 > high + 0)) }' \
		/tmp/threads.txt
}

# Record up to 3 times while the emulated machine disturbs the ticker.
record_demo() {
	local try=1
	while record && [ "$workload" = demo ] && ticker_disturbed &&
		[ "$try" -lt 3 ]; do
		try=$((try + 1))
		echo "@@demo record again ($try of 3): the machine put the ticker's longest sleep outside its bounds"
	done
}

send_results() {
	guest_send /tmp/demo.srec demo.srec || error "cannot send demo.srec"
	guest_send /tmp/threads.txt threads.txt
	guest_send /tmp/record.log record.log
	if [ "$perf" = 1 ]; then
		perf sched timehist --state -i /tmp/perf.data >/tmp/perf-timehist.txt \
			2>/tmp/perf-timehist.log
		echo "@@demo perf-timehist exit=$? lines=$(wc -l </tmp/perf-timehist.txt)"
		guest_send /tmp/perf-timehist.txt perf-timehist.txt
		guest_send /tmp/perf-timehist.log perf-timehist.log
	fi
	if [ "$perf" != 0 ]; then
		guest_send /tmp/perf.data perf.data
	fi
}

main() {
	echo "@@demo boot uptime=$(cut -d' ' -f1 /proc/uptime) kernel=$(uname -r) cpus=$(grep -c ^processor /proc/cpuinfo)"
	if ! insmod /lib/schedrec.ko buf_kb="$buf_kb"; then
		error "insmod /lib/schedrec.ko buf_kb=$buf_kb failed"
		return
	fi
	if ! load_disk; then
		error "null_blk gave no /dev/nullb0"
		return
	fi
	cd /tmp || return
	leave_cpu0
	record_demo
	send_results
	echo "@@demo sent uptime=$(cut -d' ' -f1 /proc/uptime)"
}

main
echo "@@demo dmesg-begin"
dmesg
echo "@@demo dmesg-end"
sync
poweroff -f
