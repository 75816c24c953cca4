#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The seed corpus of the harnesses, made by our own tools: the trace of
# every golden case of the reports (tests/tools/golden), compiled by
# tracegen, with a control byte appended (srecfuzz.h), and a few more
# for what the cases lack or what a fuzzer once found (README.md).
#
#   tests/fuzz/make-corpus.sh TRACEGEN [CORPUS_DIR]
#
# TRACEGEN is build/user-tests/tracegen (make -C user
# ../build/user-tests/tracegen); CORPUS_DIR tests/fuzz/corpus by default.
# The files are named after their case, so that running it again over
# the committed corpus changes nothing unless tracegen writes otherwise.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tracegen=${1:?usage: make-corpus.sh TRACEGEN [CORPUS_DIR]}
corpus=${2:-$here/corpus}
golden=$here/../tools/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$corpus/reader" "$corpus/report"

# The reports of report_fuzz.c, in the order of its control byte.
reports=(offcpu tenancy states latency heatmap timeline folded flame)

# seed NAME READER_CONTROL REPORT_CONTROL: $tmp/NAME.txt as the seeds
seed() {
	local name=$1 srec=$tmp/$1.srec report=${reports[$(($3 & 7))]}

	"$tracegen" "$tmp/$name.txt" "$srec"
	{ cat "$srec"; printf "\\x$(printf %02x "$2")"; } \
		>"$corpus/reader/$name"
	{ cat "$srec"; printf "\\x$(printf %02x "$3")"; } \
		>"$corpus/report/$name-$report"
}

# The trace of a golden case, its "--- trace" part.
case_trace() {
	awk '/^--- trace/ { on = 1; next } /^--- / { on = 0 } on' "$1"
}

i=0
for c in "$golden"/*.case; do
	name=$(basename "$c" .case)
	case_trace "$c" >"$tmp/$name.txt"
	[ -s "$tmp/$name.txt" ] || continue
	# its trailer holds 65536 entries, 4.7 MB: the header is what counts
	[ "$name" = many-cpus ] && continue
	# every report in turn; one case in three with its chart, one in
	# four in CSV; the reader with each of its control bits now and then
	seed "$name" $(((i * 37) & 0x3f)) \
		$(((i & 7) | (i % 3 == 0 ? 0x10 : 0) | (i % 4 == 1 ? 0x08 : 0)))
	i=$((i + 1))
done

# Regression inputs too slow to mutate (each takes 0.1 to 4 s under ASan:
# 65536 CPUs), which run.sh runs once each: HARNESS-regress/NAME.
# regress NAME HARNESS CONTROL: $tmp/NAME.txt's trace
regress() {
	mkdir -p "$corpus/$2-regress"
	[ -s "$tmp/$1.srec" ] || "$tracegen" "$tmp/$1.txt" "$tmp/$1.srec"
	{ cat "$tmp/$1.srec"; printf "\\x$(printf %02x "$3")"; } \
		>"$corpus/$2-regress/$1${4:+-$4}"
}

# A header claiming 65536 CPUs, cut short (no trailer, which would hold
# 65536 entries: 4.7 MB), two of them online (c69b4fc: tenancy's chart
# had a key per CPU, 108 s under ASan) or all of them (each cut short:
# the model looked through every loss window for each, tenancy's text and
# timeline's chart too, 20 to 221 s)
{ case_trace "$golden/many-cpus.case" |
	sed 's/^cpus 65536$/&\nonline 0,65535/'; echo notrailer; } \
	>"$tmp/many-cpus-online2.txt"
regress many-cpus-online2 report $((1 | 0x10)) tenancy-svg
{ case_trace "$golden/many-cpus.case"; echo notrailer; } \
	>"$tmp/many-cpus-cut.txt"
regress many-cpus-cut reader 0x33
regress many-cpus-cut report 1 tenancy
regress many-cpus-cut report 0 offcpu
regress many-cpus-cut report $((5 | 0x10)) timeline-svg

# no thread snapshot at all (c69b4fc: srecreader_info_thread() NULL + 0)
case_trace "$golden/wakeup.case" | grep -v '^thread ' >"$tmp/no-threads.txt"
seed no-threads 0 $((2 | 0x80))

# compressed chunks: the pass size makes them large enough to shrink
{ echo "zlib 6"; echo "pass 400"; case_trace "$golden/timeline.case"; } \
	>"$tmp/zlib.txt"
seed zlib 0 5
