#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/check.sh: `make check`, every test of schedrec, run as root on a
# Debian 12 machine (it installs what it needs with apt).
#
#  1. host packages, the newest Debian 6.1, 6.12 and 6.12-rt kernel headers
#     and images, and kselftest_harness.h + checkpatch.pl taken from
#     Debian's linux-source-6.1 tarball into build/;
#  2. checkpatch on every C file (one test per file);
#  3. host tests (tests/host: the ring protocol under ASan+UBSan and TSan;
#     user/: the userspace libraries and tools, when it has tests);
#  4. per kernel: schedrec.ko built with -Werror (one test), then a QEMU TCG
#     boot of that kernel with a busybox initramfs that runs the in-guest
#     tests (tests/kmod, which also run the schedrec command, built
#     static), each kselftest result one test, and one test that
#     the guest kernel logged no oops, BUG, WARNING, lockdep, KASAN or UBSAN
#     report.
#
# Each result is printed as it comes ("ok - name" / "not ok - name"), the
# failures are listed again at the end, and the last line is the summary
# "N passed, N failed".  A skipped test counts as failed.  Logs: build/check/.
#
# Environment: CHECK_KERNELS (default "6.1 6.12 6.12-rt"), CHECK_VM_TIMEOUT
# (seconds per boot, default 900), CHECK_JOBS (VMs booted at once, default 1).
# Exit status: 0 if nothing failed, 1 otherwise.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
log_tag=check
# shellcheck source=tests/vm/lib.sh
. "$root/tests/vm/lib.sh"

out=$root/build/check
kernels=${CHECK_KERNELS:-6.1 6.12 6.12-rt}
vm_timeout=${CHECK_VM_TIMEOUT:-900}
jobs=${CHECK_JOBS:-1}
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

# 1. What the tests need.
install_deps() {
	ensure_vm_tools
	ensure_files <<-EOF
		/usr/bin/perl perl
		/usr/bin/xz xz-utils
		/usr/src/linux-source-6.1.tar.xz linux-source-6.1
		/usr/include/numa.h libnuma-dev
		/usr/include/zlib.h zlib1g-dev
	EOF
	local series rel
	for series in $kernels; do
		rel=$(kernel_release "$series") || exit 1
		kernel_headers "$rel" >/dev/null || exit 1
		kernel_image "$rel" "$root/build/vm/kernel" >/dev/null || exit 1
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

# 4. One kernel: module build, initramfs, boot, results.  Writes the results
# to $dir/results (PASS/FAIL lines) so kernels can run in parallel.
guest_tests=()

build_guest_tests() {
	local logf=$out/guest-tests-build.log
	rm -rf "$out/guest-tests"
	if make -C "$root/tests/kmod" KSFT_DIR="$root/build/ksft" \
		OUT="$out/guest-tests/kmod" OBJ="$out/guest-tests-obj" >"$logf" 2>&1 &&
		make -C "$root/user" static >>"$logf" 2>&1; then
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

run_kernel() {
	local series=$1 rel kdir dir vmlinuz t0
	rel=$(kernel_release "$series")
	kdir=$(kernel_headers "$rel")
	dir=$out/$series
	rm -rf "$dir"
	mkdir -p "$dir"
	{
		t0=$(date +%s)
		if ! build_module "$kdir" "$dir/mod"; then
			echo "FAIL $series: build schedrec.ko for $rel with -Werror (log: ${dir#"$root"/}/mod.log)"
			return
		fi
		echo "PASS $series: build schedrec.ko for $rel with -Werror"
		stage_initramfs "$dir/initramfs" "$root/tests/vm/init.sh"
		cp "$dir/mod/kmod/schedrec.ko" "$dir/initramfs/lib/schedrec.ko"
		cp -r "$out/guest-tests" "$dir/initramfs/tests"
		cp "$root/build/user/schedrec-static" "$dir/initramfs/bin/schedrec"
		copy_with_libs /usr/bin/hackbench "$dir/initramfs"
		pack_initramfs "$dir/initramfs" "$dir/initramfs.cpio.gz"
		vmlinuz=$(kernel_image "$rel" "$root/build/vm/kernel")
		boot_vm "$vmlinuz" "$dir/initramfs.cpio.gz" "$vm_timeout" quiet \
			>"$dir/console.log"
		awk -v prefix="$series" -v expect="${guest_tests[*]}" \
			-f "$root/tests/vm/tap.awk" "$dir/console.log"
		if ! grep -q '^@@vm dmesg-end' "$dir/console.log"; then
			echo "FAIL $series: the guest ran to the end (console: ${dir#"$root"/}/console.log)"
		elif console_trouble "$dir/console.log" >"$dir/trouble.log"; then
			echo "FAIL $series: no kernel oops, BUG, WARNING, lockdep, KASAN or UBSAN report (see ${dir#"$root"/}/trouble.log)"
		else
			echo "PASS $series: no kernel oops, BUG, WARNING, lockdep, KASAN or UBSAN report"
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
	local series s t0 running=()
	[ "$(id -u)" = 0 ] || die "run as root: it installs packages with apt-get"
	mkdir -p "$out"
	t0=$(date +%s)
	if ! (install_deps && extract_kernel_files); then
		result FAIL "install the dependencies (packages, kernels, kernel files)"
		summary
		exit 1
	fi
	log "dependencies ready ($(elapsed "$t0"))"

	t0=$(date +%s)
	run_checkpatch
	log "checkpatch done ($(elapsed "$t0"))"

	t0=$(date +%s)
	run_host_suite tests/host
	[ -f "$root/user/Makefile" ] && run_host_suite user
	log "host tests done ($(elapsed "$t0"))"

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
