# SPDX-License-Identifier: GPL-2.0
#
# tests/vm/lib.sh: what the VM test run (tests/check.sh) and the benchmark
# (tests/bench/run.sh) share, sourced by both: installing host packages,
# resolving and fetching Debian's kernels, building schedrec.ko for one of
# them, packing a busybox initramfs, booting it under QEMU TCG, taking
# files out of the guest (vm_receive) and scanning the guest's console for
# kernel trouble.
#
# The caller sets `root` (the repository) and `log_tag` (prefix of messages).

# What is expensive to make (sid's chroot, the debug kernel) is kept here,
# outside the work tree, so that a fresh clone reuses it.
schedrec_cache=${SCHEDREC_CACHE:-/var/cache/schedrec}

log() { echo "${log_tag:-schedrec}: $*" >&2; }
die() {
	log "$*"
	exit 1
}

apt_updated=
apt_update() {
	if [ -z "$apt_updated" ]; then
		log "apt-get update"
		apt-get update -qq >&2 || die "apt-get update failed; is the network to Debian's mirror up?"
		apt_updated=1
	fi
}

apt_install() {
	apt_update
	log "installing $*"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "$@" >&2 ||
		die "apt-get install $* failed"
}

# Install the packages whose files are missing; arguments are "file package"
# lines on stdin.
ensure_files() {
	local missing=() file pkg
	while read -r file pkg; do
		[ -n "$file" ] || continue
		[ -e "$file" ] || missing+=("$pkg")
	done
	if [ "${#missing[@]}" -gt 0 ]; then
		apt_install "${missing[@]}"
	fi
	# busybox (not busybox-static) would need its libraries in the guest
	if [ -e /bin/busybox ] && ldd /bin/busybox >/dev/null 2>&1; then
		apt_install busybox-static
	fi
}

# What every VM run needs on the host.
ensure_vm_tools() {
	ensure_files <<-EOF
		/usr/bin/qemu-system-x86_64 qemu-system-x86
		/bin/busybox busybox-static
		/usr/bin/cpio cpio
		/usr/bin/gcc gcc
		/usr/bin/make make
		/usr/lib/x86_64-linux-gnu/libc.a libc6-dev
		/usr/bin/hackbench rt-tests
		/usr/sbin/modinfo kmod
		/usr/bin/xz xz-utils
	EOF
}

# The meta package that follows a kernel series: 5.10, 6.1, 6.12, 6.12-rt,
# or sid (the newest kernel of Debian's unstable suite).
series_meta() {
	case "$1" in
	5.10 | 6.1 | sid) echo linux-headers-amd64 ;;
	6.1-rt) echo linux-headers-rt-amd64 ;;
	*) echo "linux-headers-$1-amd64" ;;
	esac
}

# The Debian suite other than the host's (Debian 12) that has a series,
# or a release of it; "" for the host's own.  kernel_release notes in
# build/apt/releases the suite of each release it found in one.
series_suite() {
	case "$1" in
	5.10 | 5.10.*) echo bullseye ;;
	sid) echo sid ;;
	*) awk -v rel="$1" '$1 == rel { print $2; exit }' \
		"$root/build/apt/releases" 2>/dev/null ;;
	esac
}

# apt-get (or apt-cache, as $2) for suite $1, the rest its arguments: an
# apt of the project's own under build/apt/SUITE (sources list, package
# lists, cache); the machine's apt configuration stays as it is.  The
# lists are fetched once per run of the calling script.
declare -A suite_updated
suite_apt() {
	local suite=$1 cmd=$2 dir=$root/build/apt/$1 key
	shift 2
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	if [ ! -s "$dir/sources.list" ]; then
		mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
		printf 'deb [signed-by=%s] http://deb.debian.org/debian %s main\n' \
			"$key" "$suite" >"$dir/sources.list"
		# sid has no security suite: fixes arrive in sid itself
		[ "$suite" = sid ] ||
			printf 'deb [signed-by=%s] http://deb.debian.org/debian-security %s-security main\n' \
				"$key" "$suite" >>"$dir/sources.list"
	fi
	local opts=(-o Dir::Etc::SourceList="$dir/sources.list"
		-o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$dir/lists"
		-o Dir::Cache="$dir/cache" -o Dir::State::status=/dev/null)
	if [ -z "${suite_updated[$suite]:-}" ]; then
		log "apt-get update ($suite, lists in build/apt/$suite)"
		apt-get "${opts[@]}" update -qq >&2 ||
			die "apt-get update of $suite failed; is the network to Debian's mirror up?"
		suite_updated[$suite]=1
	fi
	"$cmd" "${opts[@]}" "$@"
}

# apt-cache, or apt-get, for the suite of series or release $1 (the
# host's if none).
series_apt_cache() {
	series_apt apt-cache "$@"
}

series_apt_get() {
	series_apt apt-get "$@"
}

series_apt() {
	local cmd=$1 suite
	suite=$(series_suite "$2")
	shift 2
	if [ -n "$suite" ]; then
		suite_apt "$suite" "$cmd" "$@"
	else
		"$cmd" "$@"
	fi
}

# The newest Debian kernel release of a series, e.g. 6.12.117+deb12-amd64.
kernel_release() {
	local meta rel suite
	meta=$(series_meta "$1")
	rel=$(series_apt_cache "$1" depends "$meta" 2>/dev/null |
		sed -n 's/^ *Depends: linux-headers-\([0-9].*-amd64\)$/\1/p' |
		sort -V | tail -n 1)
	if [ -z "$rel" ] && [ -z "$apt_updated" ] && [ -z "$(series_suite "$1")" ]; then
		apt_update
		kernel_release "$1"
		return
	fi
	[ -n "$rel" ] || die "no $meta for kernel series $1 in apt"
	suite=$(series_suite "$1")
	if [ -n "$suite" ] && [ -z "$(series_suite "$rel")" ]; then
		echo "$rel $suite" >>"$root/build/apt/releases"
	fi
	echo "$rel"
}

# Headers of a release, installed if missing; prints their directory.  A
# release of another suite is not installed here (its packages ask for that
# suite's compiler).  Sid's go into a chroot of sid (sid_chroot), with
# sid's compiler, which kernel_make then runs in.  Bullseye's 5.10 builds
# with gcc-12: its headers and kbuild are unpacked into
# build/vm/headers/RELEASE, their Makefile pointed there.
kernel_headers() {
	local dir=/usr/src/linux-headers-$1 suite tmp common pkg chroot
	suite=$(series_suite "$1")
	if [ -z "$suite" ]; then
		[ -e "$dir/Makefile" ] || apt_install "linux-headers-$1"
		echo "$dir"
		return
	fi
	if [ "$suite" = sid ]; then
		chroot=$(sid_chroot) || exit 1
		if [ ! -e "$chroot$dir/Makefile" ]; then
			log "installing linux-headers-$1 in $chroot"
			# the mirror may serve sid's lists past their Valid-Until
			chroot "$chroot" apt-get -o Acquire::Check-Valid-Until=false \
				-o Acquire::Check-Date=false \
				update -qq >&2 &&
				DEBIAN_FRONTEND=noninteractive chroot "$chroot" \
					apt-get install -y -qq --no-install-recommends \
					"linux-headers-$1" >&2 ||
				die "cannot install linux-headers-$1 in $chroot"
		fi
		echo "$chroot$dir"
		return
	fi
	dir=$root/build/vm/headers/$1
	if [ ! -e "$dir/done" ]; then
		rm -rf "$dir"
		mkdir -p "$dir/deb"
		chmod 777 "$dir/deb"	# apt-get download may drop to _apt
		common=$(suite_apt "$suite" apt-cache depends "linux-headers-$1" |
			sed -n 's/^ *Depends: \(linux-\(headers\|kbuild\)-[^ ]*\)$/\1/p')
		log "downloading linux-headers-$1 and $(echo $common) ($suite)"
		# shellcheck disable=SC2086
		(cd "$dir/deb" && suite_apt "$suite" apt-get download -q \
			"linux-headers-$1" $common 2> >(grep -v unsandboxed >&2)) >&2 ||
			die "cannot download the headers of $1 from $suite"
		for pkg in "$dir"/deb/*.deb; do
			dpkg-deb -x "$pkg" "$dir/root" || die "cannot unpack $pkg"
		done
		rm -rf "$dir/deb"
		sed -i "s#^include /usr/src/#include $dir/root/usr/src/#" \
			"$dir/root/usr/src/linux-headers-$1/Makefile"
		touch "$dir/done"
	fi
	echo "$dir/root/usr/src/linux-headers-$1"
}

# A minimal chroot of Debian sid with its compiler and make, made once with
# debootstrap and kept in $schedrec_cache, keyed by what it is made of;
# prints its directory.
# Sid's kernel headers ask for sid's newest gcc, which Debian 12 lacks.
sid_chroot_packages="make,gcc,libc6-dev,ca-certificates"

sid_chroot() {
	local cache=$schedrec_cache key dir
	key=$(echo "sid $sid_chroot_packages" | sha256sum | cut -c1-12)
	dir=$cache/chroot-sid-$key
	if [ ! -e "$dir/.schedrec-done" ]; then
		command -v debootstrap >/dev/null || apt_install debootstrap
		rm -rf "$cache"/chroot-sid-*
		mkdir -p "$cache"
		log "making a chroot of sid in $dir (debootstrap, once)"
		debootstrap --variant=minbase --include="$sid_chroot_packages" \
			sid "$dir" http://deb.debian.org/debian >&2 ||
			die "debootstrap of sid into $dir failed"
		touch "$dir/.schedrec-done"
	fi
	echo "$dir"
}

# make for the headers in $1 (further arguments: make's): in sid's chroot
# when they are there, the module's directory (M=, $2) bound into it at
# the same path, in a mount namespace of its own that goes with it.
kernel_make() {
	local kdir=$1 mdir=$2 cache=$schedrec_cache
	shift 2
	case "$kdir" in
	"$cache"/chroot-sid-*/usr/src/*)
		local chroot=${kdir%%/usr/src/*}
		# shellcheck disable=SC2016
		# objtool reads /proc
		unshare -m sh -c 'c=$1 m=$2 k=$3 && shift 3 &&
			mkdir -p "$c$m" && mount --bind "$m" "$c$m" &&
			mount -t proc proc "$c/proc" &&
			chroot "$c" make -C "$k" M="$m" "$@" modules' sh \
			"$chroot" "$mdir" "${kdir#"$chroot"}" "$@"
		;;
	*)
		# shellcheck disable=SC2046
		make -C "$kdir" M="$mdir" $(kernel_make_args "$kdir") "$@" \
			modules
		;;
	esac
}

# What make needs besides M= for the headers in $1: the compiler they name
# (.kernelvariables) when this machine has another (5.10's gcc-10: gcc-12
# builds them).
kernel_make_args() {
	local want
	want=$(sed -n 's/^CC = .*\(gcc-[0-9]*\)$/\1/p' "$1/.kernelvariables" 2>/dev/null)
	if [ -n "$want" ] && ! command -v "$want" >/dev/null; then
		echo CC=gcc
	fi
}

# Kernel modules VM runs load besides schedrec.ko, kept (with what they
# depend on) next to each cached vmlinuz: null_blk, a disk for the demo
# workload's synchronous reads.
vm_kernel_modules="null_blk"

# Unpack the kernel and modules of <release> into a new directory under $2;
# prints it.  Debian 11 and 12 ship them in linux-image-<release>-unsigned;
# sid in linux-binary-<release> (vmlinuz) and linux-modules-<release>.
kernel_package_unpack() {
	local rel=$1 tmp pkgs pkg
	tmp=$(mktemp -d "$2/unpack.XXXXXX") || die "cannot create a directory in $2"
	mkdir "$tmp/deb"
	chmod 777 "$tmp/deb"	# apt-get download may drop to _apt
	pkgs=("linux-image-$rel-unsigned")
	series_apt_cache "$rel" show "${pkgs[0]}" >/dev/null 2>&1 ||
		pkgs=("linux-binary-$rel" "linux-modules-$rel")
	log "downloading ${pkgs[*]}"
	(cd "$tmp/deb" && series_apt_get "$rel" download -q \
		"${pkgs[@]}" 2> >(grep -v 'unsandboxed' >&2)) >&2 ||
		die "apt-get download ${pkgs[*]} failed"
	for pkg in "$tmp"/deb/*.deb; do
		dpkg-deb -x "$pkg" "$tmp/root" || die "cannot unpack $pkg"
	done
	rm -rf "$tmp/deb"
	echo "$tmp"
}

# The vmlinuz of <release> in the tree unpacked in $2.
kernel_package_vmlinuz() {
	local f
	for f in "$2/boot/vmlinuz-$1" "$2/usr/lib/modules/$1/vmlinuz"; do
		[ -e "$f" ] && echo "$f" && return 0
	done
	die "no vmlinuz of $1 in its packages"
}

# Copy module $3 of the kernel tree unpacked in $1, and the modules it
# depends on, uncompressed into $2 as NAME.ko (busybox insmod loads only
# plain .ko files); NAME.deps lists what must be loaded before it, in
# order.  guest_load_module (guest-setup.sh) loads them.
keep_kernel_module() {
	local tree=$1 dest=$2 name=$3 src dep deps=() more
	[ -e "$dest/$name.deps" ] && return 0
	src=$(find "$tree/lib/modules" "$tree/usr/lib/modules" \
		\( -name "$name.ko*" -o \
		-name "${name//_/-}.ko*" \) -print -quit 2>/dev/null)
	[ -n "$src" ] || die "no module $name in the kernel package"
	case "$src" in
	*.ko.xz) xz -dc "$src" >"$dest/$name.ko.tmp" ;;
	*.ko.gz) gzip -dc "$src" >"$dest/$name.ko.tmp" ;;
	*.ko) cp "$src" "$dest/$name.ko.tmp" ;;
	*) die "cannot decompress $src" ;;
	esac || die "cannot decompress $src"
	mv "$dest/$name.ko.tmp" "$dest/$name.ko"
	for dep in $(modinfo -F depends "$dest/$name.ko" | tr , ' '); do
		keep_kernel_module "$tree" "$dest" "$dep"
		mapfile -t more <"$dest/$dep.deps"
		deps+=("${more[@]}" "$dep")
	done
	printf '%s\n' "${deps[@]}" | awk 'NF && !seen[$0]++' >"$dest/$name.deps.tmp"
	mv "$dest/$name.deps.tmp" "$dest/$name.deps"
}

keep_vm_kernel_modules() {
	local tree=$1 dest=$2 name
	mkdir -p "$dest"
	for name in $vm_kernel_modules; do
		keep_kernel_module "$tree" "$dest" "$name"
	done
}

# vmlinuz of linux-image-<release>-unsigned, cached under $2, with the
# modules of $vm_kernel_modules.
kernel_image() {
	local rel=$1 dir=$2/$1 tmp
	if [ ! -s "$dir/vmlinuz" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		tmp=$(kernel_package_unpack "$rel" "$dir") || exit 1
		keep_vm_kernel_modules "$tmp/root" "$dir/modules"
		cp "$(kernel_package_vmlinuz "$rel" "$tmp/root")" "$dir/vmlinuz.tmp"
		mv "$dir/vmlinuz.tmp" "$dir/vmlinuz"
		rm -rf "$tmp"
	fi
	echo "$dir/vmlinuz"
}

# The directory of the modules of $vm_kernel_modules for <release> (see
# keep_kernel_module), fetched into the cache $2 if an older run kept only
# vmlinuz.
kernel_modules() {
	local rel=$1 dir=$2/$1 tmp name incomplete=
	for name in $vm_kernel_modules; do
		[ -e "$dir/modules/$name.deps" ] || incomplete=1
	done
	if [ -n "$incomplete" ]; then
		mkdir -p "$dir"
		tmp=$(kernel_package_unpack "$rel" "$dir") || exit 1
		keep_vm_kernel_modules "$tmp/root" "$dir/modules"
		rm -rf "$tmp"
	fi
	echo "$dir/modules"
}

# Copy the kept modules of directory $1 to /lib/modules of staging
# directory $2.
stage_kernel_modules() {
	mkdir -p "$2/lib/modules"
	cp "$1"/*.ko "$1"/*.deps "$2/lib/modules/"
}

# Kbuild's record of a compile, $1, shows that it ran with a plain
# -Werror (the kernel's own flags hold some -Werror=... of their own).
werror_applied() {
	grep -qE -- '-Werror( |$)' "$1" || {
		echo "$1: compiled without -Werror" >&2
		return 1
	}
}

# Build schedrec.ko for the headers in $1 from a private copy of the sources
# in $2 (kbuild writes next to the sources); the log goes to $2.log.
build_module() {
	local kdir=$1 dir=$2
	rm -rf "$dir"
	mkdir -p "$dir/kmod"
	cp -r "$root/Kbuild" "$root/VERSION" "$root/include" "$dir/"
	cp -r "$root/kmod/feature" "$dir/kmod/"
	find "$root/kmod" -maxdepth 1 -type f \
		\( -name '*.c' -o -name '*.h' -o -name Kbuild \) \
		! -name '*.mod.c' -exec cp {} "$dir/kmod/" \;
	kernel_make "$kdir" "$dir" KCFLAGS=-Werror >"$dir.log" 2>&1 &&
		[ -f "$dir/kmod/schedrec.ko" ] && werror_applied "$dir/kmod/.main.o.cmd"
}

# Build the test-only module of tests/kmod/ctxmod (schedrec_ctxtest.ko,
# for context_test) for the headers in $1, in directory $2; the log goes
# to $2.log.
build_ctxtest_module() {
	local kdir=$1 dir=$2
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$root"/tests/kmod/ctxmod/{Kbuild,*.c} "$dir/"
	kernel_make "$kdir" "$dir" KCFLAGS=-Werror >"$dir.log" 2>&1 &&
		[ -f "$dir/schedrec_ctxtest.ko" ] && werror_applied "$dir/.ctxtest.o.cmd"
}

# The real perf binary: Debian's /usr/bin/perf is either it or a wrapper
# script that execs /usr/bin/perf_<version>.
perf_binary() {
	local p=/usr/bin/perf
	if [ "$(head -c 4 "$p" | tr -d '\0')" = $'\x7fELF' ]; then
		echo "$p"
		return
	fi
	p=$(ls /usr/bin/perf_[0-9]* 2>/dev/null | sort -V | tail -n 1)
	[ -n "$p" ] || die "no real perf binary next to the /usr/bin/perf wrapper"
	echo "$p"
}

# Copy a dynamically linked program to $2/bin, with every shared library it
# loads at the same path as on the host.
copy_with_libs() {
	local src=$1 stage=$2 name=${3:-$(basename "$1")} lib
	cp -L "$src" "$stage/bin/$name"
	for lib in $(ldd "$src" | awk '/=> \// { print $3 } /^\t\// { print $1 }'); do
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

# A staging directory with busybox, /init, /lib/guest-setup.sh (which /init
# sources) and the usual mount points.
stage_initramfs() {
	local stage=$1 init=$2
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,dev,lib,proc,sys,tmp}
	chmod 755 "$stage"
	cp /bin/busybox "$stage/bin/busybox"
	install -m 755 "$init" "$stage/init"
	cp "$root/tests/vm/guest-setup.sh" "$stage/lib/guest-setup.sh"
	mknod -m 600 "$stage/dev/console" c 5 1
}

pack_initramfs() {
	(cd "$1" && find . | cpio -o -H newc --quiet) | gzip -1 >"$2"
}

# Boot vmlinuz $1 with initramfs $2 under QEMU TCG, 2 vCPUs, killed after
# $3 seconds, the whole console on stdout; further arguments are appended to
# the kernel command line.  /dev/kvm exists on these hosts but hangs, and
# multi-threaded TCG occasionally corrupts the guest's text patching, so
# this is single-threaded TCG, with VM_MEM MiB (1024) and VM_SMP (2, or
# a -smp value such as "8,maxcpus=16").  Extra QEMU options
# come from QEMU_EXTRA; QEMU_NICE, if set, is QEMU's nice value on the host
# (the guest's clock follows the host's, so a QEMU kept waiting by host load
# sees its timers fire late).
boot_vm() {
	local vmlinuz=$1 initrd=$2 limit=$3
	shift 3
	# shellcheck disable=SC2086
	${QEMU_NICE:+nice -n "$QEMU_NICE"} \
		timeout --kill-after=10 "$limit" qemu-system-x86_64 \
		-accel tcg,thread=single -cpu "${QEMU_CPU:-max}" -smp "${VM_SMP:-2}" \
		-m "${VM_MEM:-1024}" \
		-nographic -no-reboot -kernel "$vmlinuz" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 $*" ${QEMU_EXTRA:-} \
		</dev/null 2>&1 | sed -u 's/\r$//'
}

# QEMU options (for QEMU_EXTRA) of a second serial port, the guest's
# ttyS1, whose output goes to file $1 (a path without spaces): guest_send
# (guest-setup.sh) writes files there, vm_receive takes them out.  A PCI
# 16550, not a second ISA one: the ISA port's edge-triggered interrupt,
# threaded on PREEMPT_RT, storms while QEMU sends ("irq 3: nobody cared",
# the IRQ disabled, 600 KiB taking 19 s); the PCI port's is level-triggered
# and masked while its thread runs.  The kernels probe it right after the
# legacy ttyS0, as ttyS1.  Any serial option turns off -nographic's
# default one, so the console (ttyS0, with the monitor, on stdio) is
# spelled out first.
vm_out_args() {
	echo "-serial mon:stdio -chardev file,id=vmout,path=$1 -device pci-serial,chardev=vmout"
}

# Take the file that guest_send sent as NAME ($2) out of the capture of the
# guest's ttyS1 ($1) into $3: its gzip, in base64 between
# "@@file-begin NAME SIZE SHA256" and "@@file-end NAME" lines.  Fails,
# saying why, if it is missing, cut short, or its size or SHA-256 differs
# from what the guest computed.
vm_receive() {
	local capture=$1 name=$2 dest=$3 size sum got
	# awk reads to the end: an early exit would fail tr under pipefail
	read -r size sum < <(tr -d '\r' <"$capture" |
		awk -v n="$name" '$1 == "@@file-begin" && $2 == n && !seen++ { print $3, $4 }')
	if [ -z "${sum:-}" ]; then
		log "the guest sent no file $name (capture: $capture)"
		return 1
	fi
	if ! tr -d '\r' <"$capture" | awk -v n="$name" '
		done { next }
		$1 == "@@file-begin" && $2 == n { on = 1; next }
		on && $1 == "@@file-end" && $2 == n { done = 1; next }
		on { print }
		END { exit !done }' >"$dest.b64"; then
		log "file $name from the guest is cut short (no end marker in $capture)"
		rm -f "$dest.b64"
		return 1
	fi
	if ! base64 -d "$dest.b64" | gzip -dc >"$dest.part"; then
		log "file $name from the guest does not decode (base64, gzip): corrupt in transfer"
		rm -f "$dest.b64" "$dest.part"
		return 1
	fi
	rm -f "$dest.b64"
	got="$(stat -c %s "$dest.part") $(sha256sum "$dest.part" | cut -d' ' -f1)"
	if [ "$got" != "$size $sum" ]; then
		log "file $name from the guest differs from what it sent: size and SHA-256 $got, the guest said $size $sum"
		rm -f "$dest.part"
		return 1
	fi
	mv "$dest.part" "$dest"
}

# Kernel trouble in a guest console log: prints the offending lines.  The
# debug kernel's reports start so too (KASAN, KFENCE and the atomic-sleep
# check with "BUG:", lockdep and RCU checks with "WARNING:"); a task hung
# for two minutes is trouble as well.  A lockdep kernel says at boot that
# RCU's checks are on: not trouble.  With a file $2, the reports the kernel
# made while it booted, before the guest's /init said "@@vm boot" (on the
# console before that line, or stamped before its uptime in the dmesg
# dump), go there instead: no test had run yet.
console_trouble() {
	local boot_line boot_uptime
	boot_line=$(grep -n -m 1 '@@vm boot uptime=' "$1" | cut -d: -f1)
	boot_uptime=$(sed -n 's/.*@@vm boot uptime=\([0-9.]*\).*/\1/p' "$1" | head -n 1)
	grep -nE 'Oops|BUG[: ]|WARNING:|lockdep|KASAN|UBSAN|KFENCE|Kernel panic|Call Trace|general protection|sleeping function called from invalid context|blocked for more than [0-9]+ seconds' "$1" |
		grep -v 'RCU lockdep checking is enabled\.$' |
		awk -v early="${2:-}" -v line="${boot_line:-0}" \
			-v up="${boot_uptime:-0}" '
		{
			n = $0; sub(/:.*/, "", n)
			ts = -1
			if (match($0, /^[0-9]+:\[ *[0-9]+\.[0-9]+\]/)) {
				ts = substr($0, RSTART, RLENGTH)
				sub(/^[0-9]+:\[ */, "", ts); sub(/\]/, "", ts)
			}
			if (early != "" && (n + 0 < line + 0 ||
			    (ts >= 0 && ts + 0 < up + 0))) {
				print >early
				next
			}
			print
			found = 1
		}
		END { exit !found }'
}
