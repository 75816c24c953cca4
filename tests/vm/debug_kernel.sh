#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/vm/debug_kernel.sh: the debug kernel `make check` also runs every
# in-guest test on: Debian's linux-source-6.12, x86_64 defconfig plus
# tests/vm/debug.config (KASAN, lockdep, PROVE_RCU, atomic-sleep and
# preempt checks, UBSAN, list and SLUB debugging, KFENCE).
#
# It is built once and cached, keyed by what goes into it: the
# linux-source-6.12 version, debug.config, this script and the compiler.
# The cache lives outside the work tree (a fresh clone reuses it):
# $SCHEDREC_CACHE, default /var/cache/schedrec; only the newest key is
# kept.  Prints the directory that holds:
#   vmlinuz   the kernel to boot
#   release   its release (uname -r)
#   build/    the object tree, to build modules against (make -C build M=)
#   modules/  null_blk.ko and null_blk.deps, as tests/vm/lib.sh keeps them
# Progress goes to stderr; the kernel build's log to build.log there.
# Exit status: 0 with the directory printed, 1 if it could not be built.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
log_tag=debug-kernel
# shellcheck source=tests/vm/lib.sh
. "$root/tests/vm/lib.sh"

cache=$schedrec_cache/debug-kernel
fragment=$root/tests/vm/debug.config
tarball=/usr/src/linux-source-6.12.tar.xz

ensure_files <<-EOF
	$tarball linux-source-6.12
	/usr/bin/bc bc
	/usr/bin/bison bison
	/usr/bin/flex flex
	/usr/include/libelf.h libelf-dev
	/usr/include/openssl/ssl.h libssl-dev
	/usr/bin/gcc gcc
	/usr/bin/make make
EOF

version=$(dpkg-query -W -f '${Version}' linux-source-6.12)
key=$({
	echo "$version"
	cat "$fragment" "${BASH_SOURCE[0]}"
	gcc --version | head -n 1
} | sha256sum | cut -c1-16)
dir=$cache/$key

if [ -e "$dir/done" ]; then
	log "cached: $dir (linux-source-6.12 $version)"
	echo "$dir"
	exit 0
fi

# Options of the fragment that must hold: "CONFIG_X=y|m" lines.
wanted() {
	grep -E '^CONFIG_[A-Z0-9_]+=[ym]$' "$fragment"
}

# Every step's failure ends the build (set -e does not hold inside the
# "if ! build" below).
build() {
	local src obj jobs missing
	rm -rf "$cache"
	mkdir -p "$dir"
	log "unpacking $tarball"
	tar -xJf "$tarball" -C "$dir" || return 1
	src=$(find "$dir" -maxdepth 1 -type d -name 'linux-source-*' -print -quit)
	mv "$src" "$dir/src" || return 1
	src=$dir/src
	obj=$dir/build
	mkdir -p "$obj"
	jobs=$(nproc)
	log "configuring (defconfig + ${fragment#"$root"/})"
	{
		make -C "$src" O="$obj" defconfig &&
			"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
				"$obj/.config" "$fragment" &&
			make -C "$src" O="$obj" olddefconfig
	} >"$dir/build.log" 2>&1 || return 1
	missing=$(wanted | while read -r line; do
		grep -qx "$line" "$obj/.config" || echo "${line%=*}"
	done)
	if [ -n "$missing" ]; then
		log "the configuration lacks: $(echo $missing)"
		return 1
	fi
	log "building with $jobs jobs (log: $dir/build.log); the first time takes a while"
	{
		make -C "$src" O="$obj" -j"$jobs" bzImage modules &&
			make -s -C "$src" O="$obj" kernelrelease >"$dir/release" &&
			cp "$obj/arch/x86/boot/bzImage" "$dir/vmlinuz" &&
			# the modules as a kernel package holds them
			make -C "$src" O="$obj" INSTALL_MOD_PATH="$dir/pkg" \
				modules_install
	} >>"$dir/build.log" 2>&1 || return 1
	(keep_vm_kernel_modules "$dir/pkg" "$dir/modules") || return 1
	rm -rf "$dir/pkg"
	# objects are not needed to build modules against the tree
	find "$obj" -name '*.o' ! -path '*/scripts/*' ! -path '*/tools/*' -delete
	touch "$dir/done"
}

t0=$(date +%s)
if ! build; then
	log "could not build the debug kernel; the log's end:"
	tail -n 30 "$dir/build.log" >&2 || true
	exit 1
fi
log "built $(cat "$dir/release") in $(($(date +%s) - t0)) s: $dir"
echo "$dir"
