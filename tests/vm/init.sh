#!/bin/busybox sh
# /init of the test VM (built by tests/check.sh): mount what the tests need,
# run every test suite under /tests (each directory's run-guest.sh), dump
# the kernel log between markers for the host to scan, and power off.
. /lib/guest-setup.sh

echo "@@vm boot uptime=$(cut -d' ' -f1 /proc/uptime) kernel=$(uname -r) cpus=$(grep -c ^processor /proc/cpuinfo)"
for suite in /tests/*/run-guest.sh; do
	[ -x "$suite" ] || continue
	echo "@@vm suite $(basename "$(dirname "$suite")")"
	"$suite"
done
echo "@@vm done uptime=$(cut -d' ' -f1 /proc/uptime)"
echo "@@vm dmesg-begin"
dmesg
echo "@@vm dmesg-end"
sync
poweroff -f
