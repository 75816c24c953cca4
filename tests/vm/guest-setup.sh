# /lib/guest-setup.sh of every test VM (tests/vm/lib.sh puts it there),
# sourced by each /init: busybox's commands, and the filesystems the tests
# and tracers need.
/bin/busybox --install -s /bin
export PATH=/bin HOME=/tmp

mkdir -p /proc /sys /dev /tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
chmod 755 /

# Load kernel module $1 from /lib/modules (stage_kernel_modules in
# tests/vm/lib.sh puts it there), after the modules it depends on; the
# other arguments are its parameters.
guest_load_module() {
	local name=$1 dep
	shift
	for dep in $(cat "/lib/modules/$name.deps"); do
		[ -d "/sys/module/$dep" ] || insmod "/lib/modules/$dep.ko" || return 1
	done
	insmod "/lib/modules/$name.ko" "$@"
}

# Send file $1 to the host through the second serial port, ttyS1 (QEMU
# options from vm_out_args in tests/vm/lib.sh), under the name $2 (one
# word; default: its base name): a "@@file-begin NAME SIZE SHA256" line,
# the file's gzip in base64, and "@@file-end NAME".  vm_receive on the
# host checks and decodes it.
#
# The port stays open on fd 9 from the first send on: each last close
# shuts the UART down, and its synchronize_irq() against the port's
# interrupt on the other vCPU could hold both for over 20 s under
# single-threaded TCG (an RCU stall, seen after sending 30 MB).  Without
# a close to wait for the output to drain, a line of spaces longer than
# the port's transmit buffer (a page) follows each file: when its write
# returns, the file has left the guest, whatever comes next (poweroff).
guest_send() {
	local file=$1 name=${2:-$(basename "$1")} port=/dev/ttyS1
	if [ ! -r "$file" ] || [ ! -c "$port" ]; then
		echo "guest_send: cannot send $file through $port"
		return 1
	fi
	if [ -z "$guest_send_open" ]; then
		command exec 9>"$port" || return 1
		stty -F "$port" raw -echo 2>/dev/null
		guest_send_open=1
	fi
	{
		echo "@@file-begin $name $(wc -c <"$file") $(sha256sum "$file" | cut -d' ' -f1)"
		gzip -c "$file" | base64
		echo "@@file-end $name"
		printf '%8192s\n' ''
	} >&9
}
