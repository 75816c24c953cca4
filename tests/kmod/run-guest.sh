#!/bin/sh
# Run every schedrec test binary next to this script, one after the other,
# inside the guest (busybox sh).  Each test's output goes to stdout; after
# each, one line says how it ended:
#   SCHEDREC-BINARY <name> EXIT <code>
# They run in name order (the shell sorts the glob): zz_sigenforce_test,
# which turns on lockdown and module.sig_enforce for the rest of the boot,
# must come last.
dir=$(dirname "$0")
for test in "$dir"/*_test; do
	[ -x "$test" ] || continue
	name=$(basename "$test")
	"$test" 2>&1
	code=$?
	echo "SCHEDREC-BINARY $name EXIT $code"
done
