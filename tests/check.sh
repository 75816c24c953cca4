#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/check.sh: `make check`, every test of schedrec, run as root on a
# Debian 12 machine (it installs what it needs with apt).
#
#  1. host packages, the newest Debian 5.10 (Debian 11's, through an apt of
#     our own: tests/vm/lib.sh suite_apt), 6.1, 6.12 and 6.12-rt kernel
#     headers and images, and kselftest_harness.h + checkpatch.pl taken from
#     Debian's linux-source-6.1 tarball into build/;
#  2. checkpatch on every C file (one test per file);
#  3. host tests (tests/host: the ring protocol under ASan+UBSan and TSan;
#     user/: the userspace libraries and tools, when it has tests;
#     tests/install: the manual pages against --help, make install and
#     uninstall, the bash completion; tests/html: the html report's page
#     in Debian's headless Chromium, with playwright-core from npm;
#     tests/fuzz: each libFuzzer harness over its corpus, then 10 to 25 s
#     of fuzzing, one test each);
#  3b. per kernel, `make dkms-install` with dkms trees of its own under
#     build/check/dkms (the machine's /var/lib/dkms, /usr/src and
#     /lib/modules stay as they were): dkms add, build and install, and
#     `dkms status` says installed (one test); for the first of them,
#     tests/install/dkms_sign.sh: dkms signs the module with a machine
#     owner key of the test's own (one test);
#  3c. the debug kernel (tests/vm/debug_kernel.sh: Debian's linux-source-6.12
#     with KASAN, lockdep, PROVE_RCU, UBSAN, KFENCE and more), built once
#     and cached outside the tree (one test);
#  4. per kernel: schedrec.ko and the test module of tests/kmod/ctxmod
#     built with -Werror (one test each), then a QEMU TCG
#     boot of that kernel with a busybox initramfs that runs the in-guest
#     tests (tests/kmod, which also run the schedrec command, built
#     static), each kselftest result one test, and one test that
#     the guest kernel logged no oops, BUG, WARNING, lockdep, KASAN or UBSAN
#     report.  The guest's schedrec.ko is the one dkms built and installed
#     (one more test: it loads there), or the plain build if dkms failed.
#
# Each result is printed as it comes ("ok - name" / "not ok - name"; a
# guest's failed test ends with " -- " and its first reason, from tap.awk),
# the failures are listed again at the end, and the last line is the summary
# "N passed, N failed".  A skipped test counts as failed.  Logs: build/check/.
#
# Environment: CHECK_KERNELS (default "5.10 6.1 6.12 6.12-rt sid 6.12-debug
# 6.12x8": Debian's series, sid's newest kernel (built in a chroot of sid,
# with sid's compiler), the debug kernel, and SERIESx8, that series
# booted with 8 online CPUs of 16 possible running the ring, record,
# ftrace oracle and drill tests), CHECK_VM_TIMEOUT (seconds per boot, default 900;
# twice that for the debug kernel and the 8-CPU guest), CHECK_JOBS (VMs
# booted at once, default 1), QEMU_NICE (QEMU's nice value, default -10;
# empty: not changed), SCHEDREC_CACHE (where the debug kernel and the
# chroot of sid are kept, default /var/cache/schedrec), CHECK_HOST=0 (the
# kernels' tests alone: no checkpatch, no host tests), CHECK_GUEST_TESTS
# (the in-guest tests to run, e.g. "record_test ring_test"; default all).
# Exit status: 0 if nothing failed, 1 otherwise.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
log_tag=check
# shellcheck source=tests/vm/lib.sh
. "$root/tests/vm/lib.sh"

out=$root/build/check
kernels=${CHECK_KERNELS:-5.10 6.1 6.12 6.12-rt sid 6.12-debug 6.12x8}
vm_timeout=${CHECK_VM_TIMEOUT:-900}
jobs=${CHECK_JOBS:-1}
host_tests=${CHECK_HOST:-1}
started=$(date +%s)
passed=0
failed=0
failures=()

result() {
	if [ "$1" = PASS ]; then
		passed=$((passed + 1))
		echo "ok - $2"
	else
		failed=$((failed + 1))
		failures+=("$2")
		echo "not ok - $2"
	fi
}

# Run "$@" with its output in log file $2; the test named $1 passes if the
# command succeeds, and shows the log's tail if not.
check_cmd() {
	local name=$1 logf=$2
	shift 2
	if "$@" >"$logf" 2>&1; then
		result PASS "$name"
	else
		result FAIL "$name (log: ${logf#"$root"/})"
		tail -n 20 "$logf" | sed 's/^/    /'
	fi
}

# Count the PASS/FAIL lines tap.awk makes of a log; awk arguments follow.
count_tap() {
	local verdict name
	while read -r verdict name; do
		result "$verdict" "$name"
	done < <(awk -f "$root/tests/vm/tap.awk" "$@")
}

elapsed() { echo "$(($(date +%s) - $1)) s"; }

# A name of $kernels: a Debian series, the debug kernel, or SERIESx8.
debug_kernel=6.12-debug
# The in-guest tests of the 8-CPU guest: the rings, the recorder and the
# reader's merge of more CPUs than 8, hotplug, the drills, and the reports
# of the demo, whose wakers there show wakings that overtake the sleeper's
# switch record.
big_guest_tests="ring_test record_test report_test ftrace_oracle_test drill_test"

# The Debian series a name of $kernels boots ("" for the debug kernel).
kernel_series() {
	case "$1" in
	"$debug_kernel") ;;
	*x8) echo "${1%x8}" ;;
	*) echo "$1" ;;
	esac
}

# 1. What the tests need.
install_deps() {
	ensure_vm_tools
	ensure_files <<-EOF
		/usr/bin/perl perl
		/usr/bin/xz xz-utils
		/usr/src/linux-source-6.1.tar.xz linux-source-6.1
		/usr/include/numa.h libnuma-dev
		/usr/include/zlib.h zlib1g-dev
		/usr/sbin/dkms dkms
		/usr/bin/openssl openssl
		/usr/bin/groff groff-base
		/usr/bin/perf linux-perf
		/usr/lib/python3/dist-packages/numpy python3-numpy
		/usr/bin/protoc protobuf-compiler
		/usr/bin/promtool prometheus
		/usr/lib/python3/dist-packages/prometheus_client python3-prometheus-client
		/usr/bin/chromium chromium
		/usr/bin/node nodejs
		/usr/bin/npm npm
		/usr/bin/clang clang
		/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a libclang-rt-14-dev
	EOF
	local spec series rel
	for spec in $kernels; do
		series=$(kernel_series "$spec")
		[ -n "$series" ] || continue
		rel=$(kernel_release "$series") || exit 1
		kernel_headers "$rel" >/dev/null || exit 1
		kernel_image "$rel" "$root/build/vm/kernel" >/dev/null || exit 1
		kernel_modules "$rel" "$root/build/vm/kernel" >/dev/null || exit 1
	done
}

# kselftest_harness.h and checkpatch.pl from linux-source-6.1, once.
extract_kernel_files() {
	local tarball=/usr/src/linux-source-6.1.tar.xz tmp top=linux-source-6.1
	[ -s "$root/build/ksft/kselftest_harness.h" ] &&
		[ -s "$root/build/checkpatch/checkpatch.pl" ] && return 0
	log "extracting kselftest_harness.h and checkpatch.pl from $tarball"
	tmp=$(mktemp -d)
	tar -xJf "$tarball" -C "$tmp" \
		"$top/tools/testing/selftests/kselftest_harness.h" \
		"$top/tools/testing/selftests/kselftest.h" \
		"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
		"$top/scripts/const_structs.checkpatch" ||
		die "could not extract the kselftest and checkpatch files from $tarball"
	mkdir -p "$root/build/ksft" "$root/build/checkpatch"
	cp "$tmp/$top"/tools/testing/selftests/kselftest*.h "$root/build/ksft/"
	cp "$tmp/$top"/scripts/{checkpatch.pl,spelling.txt,const_structs.checkpatch} \
		"$root/build/checkpatch/"
	rm -rf "$tmp"
}

# 2. checkpatch, one test per file.
run_checkpatch() {
	local f ignore logf=$out/checkpatch.log
	: >"$logf"
	while read -r f; do
		ignore=()
		# the shim re-creates the kernel's own typedefs (u64, atomic_t)
		case "$f" in tests/host/kshim/*) ignore=(--ignore NEW_TYPEDEFS) ;; esac
		if (cd "$root" && perl build/checkpatch/checkpatch.pl --terse -q \
			"${ignore[@]}" -f "$f") >>"$logf" 2>&1; then
			result PASS "checkpatch $f"
		else
			result FAIL "checkpatch $f"
			grep "^$f:" "$logf" | tail -n 5 | sed 's/^/    /'
		fi
	done < <(cd "$root" && find kmod include user tools tests \
		-name build -prune -o -name '*.[ch]' ! -name '*.mod.c' -print 2>/dev/null |
		sort)
}

# 3. Host tests: a suite's TAP, plus a FAIL if make failed without one.
run_host_suite() {
	local dir=$1 logf=$out/host-$(basename "$1").log status
	make -C "$root/$dir" KSFT_DIR="$root/build/ksft" check >"$logf" 2>&1
	status=$?
	count_tap -v prefix="$dir" "$logf"
	if [ "$status" != 0 ] && ! grep -q '^not ok ' "$logf"; then
		result FAIL "$dir: make check exited with status $status (log: ${logf#"$root"/})"
		tail -n 20 "$logf" | sed 's/^/    /'
	fi
}

# 3. The install checks: shell scripts of tests/install, one test each.
run_install_checks() {
	local bin=$root/build/user/schedrec
	check_cmd "man pages: every option of --help documented, and only those" \
		"$out/man-options.log" \
		bash "$root/tests/install/man_options.sh" "$bin" "$root/doc/man"
	check_cmd "dkms sources: our warnings, never -Werror, every file" \
		"$out/dkms-source.log" \
		bash "$root/tests/install/dkms_source.sh" "$root"
	check_cmd "make install and uninstall, DESTDIR and PREFIX" \
		"$out/install.log" bash "$root/tests/install/install.sh" "$root"
	check_cmd "man pages: the examples of schedrec-report(1) and schedrec-export(1) run" \
		"$out/man-examples.log" \
		bash "$root/tests/install/man_examples.sh" "$bin" \
		"$root/build/user-tests/tracegen" "$root/doc/man"
	check_cmd "bash completion: parses, offers verbs, names, options, values" \
		"$out/completion.log" bash "$root/tests/install/completion.sh" \
		"$bin" "$root/completion/schedrec.bash"
}

# 3. The libFuzzer harnesses of tests/fuzz (README.md): built, then each
# run over its committed corpus and its regression inputs, then fuzzed a
# few seconds; a crash, a leak or a timeout is a failed test, the input
# kept under build/fuzz/crashes.  About 90 s once built.
run_fuzz_checks() {
	local logf=$out/fuzz-build.log run line
	if ! make -C "$root/tests/fuzz" >"$logf" 2>&1; then
		result FAIL "fuzz: build the harnesses (log: ${logf#"$root"/})"
		tail -n 20 "$logf" | sed 's/^/    /'
		return
	fi
	for run in "reader 25 crc-fixing" "reader 10 raw" "report 25 crc-fixing"; do
		set -- $run
		logf=$out/fuzz-$1-$3.log
		line=
		if bash "$root/tests/fuzz/run.sh" check "$1" "$2" \
			${3/crc-fixing/} >"$logf" 2>&1; then
			line=$(grep '^FUZZ: .*no crash' "$logf")
		fi
		if [ -n "$line" ]; then
			result PASS "fuzz: $1 ($3): corpus + $2 s, no crash (${line#*no crash; })"
		else
			result FAIL "fuzz: $1 ($3): corpus + $2 s (log: ${logf#"$root"/})"
			sed 's/^/    /' "$logf"
		fi
	done
}

# 3. `schedrec report html`'s page in Debian's headless Chromium
# (tests/html/run.sh), one test per check; the screenshots for people to
# look at: build/check/html-report.png and html-report-full.png.
run_browser_checks() {
	local logf=$out/html-browser.log line status
	bash "$root/tests/html/run.sh" "$out/html-report.png" >"$logf" 2>&1
	status=$?
	while read -r line; do
		case $line in
		"ok "*) result PASS "html page in chromium: ${line#ok * - }" ;;
		"not ok "*)
			result FAIL "html page in chromium: ${line#not ok * - } (log: ${logf#"$root"/})" ;;
		esac
	done <"$logf"
	if [ "$status" != 0 ] && ! grep -q '^not ok ' "$logf"; then
		result FAIL "html page in chromium: tests/html/run.sh exited with status $status (log: ${logf#"$root"/})"
	fi
	[ "$status" = 0 ] || grep '^#' "$logf" | head -n 20 | sed 's/^/    /'
}

# 3b. DKMS for one kernel, in trees of its own: make dkms-install, then
# dkms status.  The module it installed is kept as $out/dkms/<series>.ko
# (uncompressed) for that kernel's VM; everything else is removed again.
run_dkms() {
	local series=$1 rel dir logf ko keys=/var/lib/dkms/mok had_keys=
	rel=$(kernel_release "$series")
	dir=$out/dkms/$series
	logf=$out/dkms-$series.log
	local flags="--dkmstree $dir/tree --sourcetree $dir/source"
	flags+=" --installtree $dir/install --no-depmod"
	rm -rf "$dir" "$out/dkms/$series.ko"
	mkdir -p "$dir/tree" "$dir/source" "$dir/install/$rel"
	[ -e "$keys.key" ] && had_keys=1
	{
		make -C "$root" dkms-install KVER="$rel" \
			DKMS_SOURCE_TREE="$dir/source" DKMS_FLAGS="$flags" &&
			# shellcheck disable=SC2086
			dkms status $flags -k "$rel" schedrec | tee "$dir/status" &&
			grep -q ": installed" "$dir/status" &&
			ko=$(find "$dir/install/$rel" -name 'schedrec.ko*' -print -quit) &&
			[ -n "$ko" ] &&
			case "$ko" in
			*.xz) xz -dc "$ko" ;;
			*.gz) gzip -dc "$ko" ;;
			*.zst) zstd -dc "$ko" ;;
			*) cat "$ko" ;;
			esac >"$out/dkms/$series.ko"
	} >"$logf" 2>&1
	if [ -s "$out/dkms/$series.ko" ]; then
		result PASS "dkms build+install for $rel"
	else
		rm -f "$out/dkms/$series.ko"
		result FAIL "dkms build+install for $rel (log: ${logf#"$root"/})"
		tail -n 20 "$logf" | sed 's/^/    /'
	fi
	make -C "$root" dkms-uninstall DKMS_SOURCE_TREE="$dir/source" \
		DKMS_FLAGS="$flags" >>"$logf" 2>&1
	rm -rf "$dir"
	# dkms makes itself a module signing key if it has none: not ours
	[ -n "$had_keys" ] || rm -f "$keys.key" "$keys.pub"
}

# 3b. For one kernel: dkms signs schedrec.ko with the MOK it is given
# (README "Secure Boot"), a key of the test's own in trees of its own.
run_dkms_sign() {
	local series=$1 rel
	rel=$(kernel_release "$series")
	check_cmd "dkms signs schedrec.ko for $rel with the MOK it is given" \
		"$out/dkms-sign-$series.log" \
		bash "$root/tests/install/dkms_sign.sh" "$root" "$rel"
}

# 4. One kernel: module build, initramfs, boot, results.  Writes the results
# to $dir/results (PASS/FAIL lines) so kernels can run in parallel.
guest_tests=()

build_guest_tests() {
	local logf=$out/guest-tests-build.log
	rm -rf "$out/guest-tests"
	if make -C "$root/tests/kmod" KSFT_DIR="$root/build/ksft" \
		OUT="$out/guest-tests/kmod" OBJ="$out/guest-tests-obj" >"$logf" 2>&1 &&
		make -C "$root/user" static >>"$logf" 2>&1 &&
		make -C "$root/tests/demo" >>"$logf" 2>&1; then
		result PASS "build the in-guest tests"
	else
		result FAIL "build the in-guest tests (log: ${logf#"$root"/})"
		tail -n 20 "$logf" | sed 's/^/    /'
		return 1
	fi
	local t
	for t in "$out"/guest-tests/*/*_test; do
		guest_tests+=("$(basename "$t")")
	done
}

# The features kmod/Kbuild probed for release $1 (in Kbuild's record of a
# compile, $2) are those its version has: Debian backports none of them,
# so a probe that answers otherwise is broken.
features_as_versioned() {
	local rel=$1 cmd=$2 v name since want got bad=0
	v=$(echo "$rel" | awk -F'[.-]' '{ print $1 * 100 + $2 }')
	for name in TASK___STATE:514 PDE_DATA:517 SWITCH_PREV_STATE:518 \
		VM_FLAGS_SET:603; do
		since=${name#*:}
		name=${name%:*}
		want=no
		[ "$v" -ge "$since" ] && want=yes
		got=no
		grep -q -- "-DSCHEDREC_HAVE_$name\b" "$cmd" && got=yes
		if [ "$want" != "$got" ]; then
			echo "$name: probed $got, the version says $want"
			bad=1
		fi
	done
	return "$bad"
}

# The debug kernel's directory (tests/vm/debug_kernel.sh), once built.
debug_kernel_dir=

build_debug_kernel() {
	local logf=$out/debug-kernel.log
	if debug_kernel_dir=$(bash "$root/tests/vm/debug_kernel.sh" 2>"$logf"); then
		result PASS "debug kernel $(cat "$debug_kernel_dir/release"): KASAN, lockdep, PROVE_RCU, UBSAN, KFENCE, list and slab debugging (built or cached)"
	else
		debug_kernel_dir=
		result FAIL "debug kernel: build Debian's linux-source-6.12 with tests/vm/debug.config (log: ${logf#"$root"/})"
		tail -n 20 "$logf" | sed 's/^/    /'
	fi
}

run_kernel() {
	local spec=$1 series rel kdir vmlinuz kmods dir t0 smp=2 mem=1024
	local limit=$vm_timeout expect=("${guest_tests[@]}") t dkms_ko
	series=$(kernel_series "$spec")
	dir=$out/$spec
	rm -rf "$dir"
	mkdir -p "$dir"
	{
		t0=$(date +%s)
		if [ "$spec" = "$debug_kernel" ]; then
			if [ -z "$debug_kernel_dir" ]; then
				echo "FAIL $spec: no debug kernel to boot (see build/check/debug-kernel.log)"
				return
			fi
			rel=$(cat "$debug_kernel_dir/release")
			kdir=$debug_kernel_dir/build
			vmlinuz=$debug_kernel_dir/vmlinuz
			kmods=$debug_kernel_dir/modules
			mem=2048	# KASAN's shadow takes an eighth
			limit=$((vm_timeout * 2))
			# it signs no module and has no lockdown LSM: the
			# Secure Boot refusals are Debian's kernels' to show
			read -ra expect <<<"${guest_tests[*]/zz_sigenforce_test/}"
		else
			rel=$(kernel_release "$series")
			kdir=$(kernel_headers "$rel")
			vmlinuz=$(kernel_image "$rel" "$root/build/vm/kernel")
			kmods=$(kernel_modules "$rel" "$root/build/vm/kernel")
		fi
		dkms_ko=$out/dkms/$series.ko
		case "$spec" in
		*x8)
			smp=8,maxcpus=16
			read -ra expect <<<"$big_guest_tests"
			dkms_ko=	# its series' run tests that one
			limit=$((vm_timeout * 2))
			;;
		esac
		[ -z "${CHECK_GUEST_TESTS:-}" ] ||
			read -ra expect <<<"$CHECK_GUEST_TESTS"
		series=$spec
		if ! build_module "$kdir" "$dir/mod"; then
			echo "FAIL $series: build schedrec.ko for $rel with -Werror (log: ${dir#"$root"/}/mod.log)"
			return
		fi
		echo "PASS $series: build schedrec.ko for $rel with -Werror"
		if features_as_versioned "$rel" "$dir/mod/kmod/.main.o.cmd" \
			>"$dir/features.log" 2>&1; then
			echo "PASS $series: the build's feature probes answer as $rel's version says"
		else
			echo "FAIL $series: the build's feature probes answer as $rel's version says ($(tr '\n' ' ' <"$dir/features.log"))"
		fi
		stage_initramfs "$dir/initramfs" "$root/tests/vm/init.sh"
		if build_ctxtest_module "$kdir" "$dir/ctxmod"; then
			echo "PASS $series: build the test module schedrec_ctxtest.ko with -Werror"
			cp "$dir/ctxmod/schedrec_ctxtest.ko" "$dir/initramfs/lib/"
		else
			echo "FAIL $series: build the test module schedrec_ctxtest.ko with -Werror (log: ${dir#"$root"/}/ctxmod.log)"
		fi
		if [ -s "$dkms_ko" ]; then
			cp "$dkms_ko" "$dir/initramfs/lib/schedrec.ko"
		else
			cp "$dir/mod/kmod/schedrec.ko" "$dir/initramfs/lib/schedrec.ko"
		fi
		cp -r "$out/guest-tests" "$dir/initramfs/tests"
		for t in "$dir"/initramfs/tests/*/*_test; do
			[[ " ${expect[*]} " == *" $(basename "$t") "* ]] || rm "$t"
		done
		cp "$root/build/user/schedrec-static" "$dir/initramfs/bin/schedrec"
		copy_with_libs /usr/bin/hackbench "$dir/initramfs"
		# report_test: the demo workload, its disk (null_blk), perf
		cp "$root/build/user/demo-workload" "$dir/initramfs/bin/demo-workload"
		stage_kernel_modules "$kmods" "$dir/initramfs"
		copy_with_libs "$(perf_binary)" "$dir/initramfs" perf
		pack_initramfs "$dir/initramfs" "$dir/initramfs.cpio.gz"
		# QEMU ahead of the host's other work (the guest's clock is the
		# host's: while QEMU waits, guest timers fire late); skew_tick
		# staggers the two vCPUs' ticks, which otherwise kick
		# single-threaded TCG from one vCPU to the other at the same
		# instant and can leave one without a turn for tens of ms
		# (report_test's ticker woke 30 ms late)
		QEMU_NICE=${QEMU_NICE--10} VM_SMP=$smp VM_MEM=$mem \
			boot_vm "$vmlinuz" "$dir/initramfs.cpio.gz" "$limit" \
			quiet skew_tick=1 >"$dir/console.log"
		awk -v prefix="$series" -v expect="${expect[*]}" \
			-f "$root/tests/vm/tap.awk" "$dir/console.log"
		if ! grep -q '^@@vm dmesg-end' "$dir/console.log"; then
			echo "FAIL $series: the guest ran to the end (console: ${dir#"$root"/}/console.log)"
		elif console_trouble "$dir/console.log" "$dir/boot-trouble.log" \
			>"$dir/trouble.log"; then
			echo "FAIL $series: no kernel oops, BUG, WARNING, lockdep, KASAN or UBSAN report (see ${dir#"$root"/}/trouble.log)"
		else
			echo "PASS $series: no kernel oops, BUG, WARNING, lockdep, KASAN or UBSAN report"
		fi
		# the kernel's own, before /init ran: said, not counted
		if [ -s "$dir/boot-trouble.log" ]; then
			echo "INFO $series: the kernel reported trouble while it booted, before any test ran: $(head -n 1 "$dir/boot-trouble.log" | cut -c1-160) (see ${dir#"$root"/}/boot-trouble.log)"
		fi
		if [ -s "$dkms_ko" ]; then
			if grep -q '^SCHEDREC-BINARY load_test EXIT 0$' "$dir/console.log"; then
				echo "PASS $series: the schedrec.ko dkms built loads in the VM (load_test passes with it)"
			else
				echo "FAIL $series: the schedrec.ko dkms built loads in the VM (load_test fails with it; console: ${dir#"$root"/}/console.log)"
			fi
		fi
		echo "INFO $series: $rel, $(elapsed "$t0")"
	} >"$dir/results" 2>"$dir/stderr.log"
}

report_kernel() {
	local series=$1 verdict name
	while read -r verdict name; do
		case "$verdict" in
		INFO) log "$name" ;;
		*) result "$verdict" "$name" ;;
		esac
	done <"$out/$series/results"
	if [ -s "$out/$series/trouble.log" ]; then
		head -n 20 "$out/$series/trouble.log" | sed 's/^/    /'
	fi
}

summary() {
	local f
	if [ "${#failures[@]}" -gt 0 ]; then
		echo "Failed:"
		for f in "${failures[@]}"; do
			echo "  $f"
		done
	fi
	log "finished in $(elapsed "$started")"
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
}

main() {
	local series s t0 signed= running=()
	[ "$(id -u)" = 0 ] || die "run as root: it installs packages with apt-get"
	mkdir -p "$out"
	t0=$(date +%s)
	if ! (install_deps && extract_kernel_files); then
		result FAIL "install the dependencies (packages, kernels, kernel files)"
		summary
		exit 1
	fi
	log "dependencies ready ($(elapsed "$t0"))"

	if [ "$host_tests" = 1 ]; then
		t0=$(date +%s)
		run_checkpatch
		log "checkpatch done ($(elapsed "$t0"))"

		t0=$(date +%s)
		run_host_suite tests/host
		[ -f "$root/user/Makefile" ] && run_host_suite user
		run_install_checks
		run_browser_checks
		run_fuzz_checks
		log "host tests done ($(elapsed "$t0"))"
	else
		log "CHECK_HOST=0: no checkpatch, no host tests"
	fi

	t0=$(date +%s)
	mkdir -p "$out/dkms"
	for series in $kernels; do
		# once for each Debian series: the debug kernel is not
		# installed, an 8-CPU guest boots a series of the list
		[ "$series" = "$(kernel_series "$series")" ] || continue
		# dkms builds against installed headers; another suite's are
		# only unpacked (they ask for its compiler)
		if [ -n "$(series_suite "$series")" ]; then
			log "dkms: not for $series (its headers do not install on Debian 12)"
			continue
		fi
		run_dkms "$series"
		# signing: once, for the first kernel dkms builds for
		if [ -z "$signed" ]; then
			run_dkms_sign "$series"
			signed=1
		fi
	done
	log "dkms done ($(elapsed "$t0"))"

	if [[ " $kernels " == *" $debug_kernel "* ]]; then
		t0=$(date +%s)
		build_debug_kernel
		log "debug kernel ready ($(elapsed "$t0"))"
	fi

	if build_guest_tests; then
		for series in $kernels; do
			log "kernel $series: build, boot, test"
			run_kernel "$series" &
			running+=("$series")
			if [ "${#running[@]}" -ge "$jobs" ]; then
				wait
				for s in "${running[@]}"; do
					report_kernel "$s"
				done
				running=()
			fi
		done
		wait
		for s in "${running[@]}"; do
			report_kernel "$s"
		done
	fi
	summary
}

main "$@"
