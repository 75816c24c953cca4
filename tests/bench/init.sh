#!/bin/busybox sh
# /init of the benchmark VM (built by tests/bench/run.sh): mount what the
# tracers need, load schedrec.ko, run schedbench with the arguments given on
# the kernel command line as bench.args=a,b,c (commas become spaces), dump
# the kernel log between markers for the host to check, and power off.
. /lib/guest-setup.sh

args=
for word in $(cat /proc/cmdline); do
	case "$word" in
	bench.args=*) args=$(echo "${word#bench.args=}" | tr , ' ') ;;
	esac
done

echo "@@bench boot uptime=$(cut -d' ' -f1 /proc/uptime)"
if insmod /lib/schedrec.ko; then
	/bin/schedbench $args
	echo "@@bench exit=$?"
else
	echo "@@bench error insmod /lib/schedrec.ko failed"
	echo "@@bench exit=99"
fi
echo "@@bench dmesg-begin"
dmesg
echo "@@bench dmesg-end"
sync
poweroff -f
