#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/install/man_examples.sh SCHEDREC TRACEGEN MAN_DIR: the examples of
# schedrec-report(1) and schedrec-export(1) run.  In a new directory,
# TRACEGEN writes run.srec (a workload of pid 4242 with a thread named
# dw-1, kernel stacks included) and run.0001.srec (the same, as a series
# of one file); every line of the pages' EXAMPLES blocks then runs there,
# as written, paths under /var/lib/ pointed at that directory, and must
# exit 0 and write the files it names.
set -u
schedrec=$(realpath "$1")
tracegen=$(realpath "$2")
man_dir=$(realpath "$3")
problems=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/run.txt" <<'TRACE'
cpus 4
end 13s
drainer 900 900 3
thread 4242 4242 server
thread 4243 4242 dw-1
thread 900 900 schedrec
ksym ffffffff81000000 T do_nanosleep
ksym ffffffff81000100 T hrtimer_nanosleep
ksym ffffffff81000200 T __schedule
10ms cpu3 switch 0 R0 4242
12ms cpu3 stack 4242 ffffffff81000210,ffffffff81000010,ffffffff81000110
12ms cpu3 switch 4242 S 4243
20ms cpu1 waking 4242 irq
21ms cpu3 switch 4243 R 4242
500ms cpu3 switch 4242 D 0
1.2s cpu2 wakeup 4242 waker 4243
1.3s cpu2 switch 0 R0 4242
1.9s cpu2 switch 4242 S 0
12.2s cpu1 switch 0 R0 4243
12.3s cpu1 switch 4243 S 0
TRACE

cd "$work" || exit 1
"$tracegen" run.txt run.srec >/dev/null || { echo "tracegen failed"; exit 1; }
cp run.srec run.0001.srec
mkdir -p var/lib/schedrec var/lib/node_exporter
cp run.0001.srec var/lib/schedrec/run.0001.srec
mkdir -p bin
ln -s "$schedrec" bin/schedrec

# The lines of the .nf/.fi blocks after .SH EXAMPLES, roff escapes undone.
examples_of() {
	awk '/^\.SH EXAMPLES/ { in_ex = 1; next } /^\.SH/ { in_ex = 0 }
	     in_ex && /^\.nf/ { nf = 1; next } /^\.fi/ { nf = 0 }
	     in_ex && nf { print }' "$1" |
		sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\e/\\/g' \
		    -e 's| /var/lib/| var/lib/|g'
}

count=0
for page in schedrec-report.1 schedrec-export.1; do
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		count=$((count + 1))
		if ! out=$(PATH="$work/bin:$PATH" sh -ec "$line" 2>&1 >/dev/null); then
			echo "$page: '$line' failed: $out"
			problems=$((problems + 1))
		fi
	done < <(examples_of "$man_dir/$page")
done
# the files the examples name were written
for f in states.svg heat.svg tl.svg hotcold.folded hotcold.svg \
	run.folded palette.map run.perfetto-trace run.json.gz \
	run.tar run.csv var/lib/node_exporter/schedrec.prom; do
	[ -s "$f" ] || { echo "an example did not write $f"; problems=$((problems + 1)); }
done
[ "$count" -ge 10 ] || { echo "only $count examples found"; problems=$((problems + 1)); }
if [ "$problems" = 0 ]; then
	echo "the $count examples of schedrec-report(1) and schedrec-export(1) ran"
	exit 0
fi
echo "$problems problems"
exit 1
