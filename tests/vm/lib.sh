# SPDX-License-Identifier: GPL-2.0
#
# tests/vm/lib.sh: what the VM test run (tests/check.sh) and the benchmark
# (tests/bench/run.sh) share, sourced by both: installing host packages,
# resolving and fetching Debian's kernels, building schedrec.ko for one of
# them, packing a busybox initramfs, booting it under QEMU TCG and scanning
# the guest's console for kernel trouble.
#
# The caller sets `root` (the repository) and `log_tag` (prefix of messages).

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
	EOF
}

# The meta package that follows a kernel series: 6.1, 6.12 or 6.12-rt.
series_meta() {
	case "$1" in
	6.1) echo linux-headers-amd64 ;;
	6.1-rt) echo linux-headers-rt-amd64 ;;
	*) echo "linux-headers-$1-amd64" ;;
	esac
}

# The newest Debian kernel release of a series, e.g. 6.12.117+deb12-amd64.
kernel_release() {
	local meta rel
	meta=$(series_meta "$1")
	rel=$(apt-cache depends "$meta" 2>/dev/null |
		sed -n 's/^ *Depends: linux-headers-\([0-9].*-amd64\)$/\1/p' |
		sort -V | tail -n 1)
	if [ -z "$rel" ] && [ -z "$apt_updated" ]; then
		apt_update
		kernel_release "$1"
		return
	fi
	[ -n "$rel" ] || die "no $meta in apt; is this Debian 12 with bookworm-updates?"
	echo "$rel"
}

# Headers of a release, installed if missing; prints their directory.
kernel_headers() {
	local dir=/usr/src/linux-headers-$1
	[ -e "$dir/Makefile" ] || apt_install "linux-headers-$1"
	echo "$dir"
}

# vmlinuz of linux-image-<release>-unsigned, cached under $2.
kernel_image() {
	local rel=$1 dir=$2/$1
	if [ ! -s "$dir/vmlinuz" ]; then
		log "downloading linux-image-$rel-unsigned"
		rm -rf "$dir"
		mkdir -p "$dir/deb"
		chmod 777 "$dir/deb"	# apt-get download may drop to _apt
		(cd "$dir/deb" && apt-get download -q "linux-image-$rel-unsigned" \
			2> >(grep -v 'unsandboxed' >&2)) >&2 ||
			die "apt-get download linux-image-$rel-unsigned failed"
		dpkg-deb -x "$dir"/deb/*.deb "$dir/root"
		cp "$dir/root/boot/vmlinuz-$rel" "$dir/vmlinuz"
		rm -rf "$dir/deb" "$dir/root"
	fi
	echo "$dir/vmlinuz"
}

# Build schedrec.ko for the headers in $1 from a private copy of the sources
# in $2 (kbuild writes next to the sources); the log goes to $2.log.
build_module() {
	local kdir=$1 dir=$2
	rm -rf "$dir"
	mkdir -p "$dir/kmod"
	cp -r "$root/Kbuild" "$root/include" "$dir/"
	find "$root/kmod" -maxdepth 1 -type f \
		\( -name '*.c' -o -name '*.h' -o -name Kbuild \) \
		! -name '*.mod.c' -exec cp {} "$dir/kmod/" \;
	make -C "$kdir" M="$dir" modules >"$dir.log" 2>&1 &&
		[ -f "$dir/kmod/schedrec.ko" ]
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
# this is single-threaded TCG.  Extra QEMU options come from QEMU_EXTRA.
boot_vm() {
	local vmlinuz=$1 initrd=$2 limit=$3
	shift 3
	# shellcheck disable=SC2086
	timeout --kill-after=10 "$limit" qemu-system-x86_64 \
		-accel tcg,thread=single -cpu "${QEMU_CPU:-max}" -smp 2 -m 1024 \
		-nographic -no-reboot -kernel "$vmlinuz" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 $*" ${QEMU_EXTRA:-} \
		</dev/null 2>&1 | sed -u 's/\r$//'
}

# Kernel trouble in a guest console log: prints the offending lines.
console_trouble() {
	grep -nE 'Oops|BUG[: ]|WARNING:|lockdep|KASAN|UBSAN|Kernel panic|Call Trace|general protection' "$1"
}
