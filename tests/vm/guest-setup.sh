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
