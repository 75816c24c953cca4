# tests/vm/tap.awk: turn kselftest output into one "PASS name" or
# "FAIL name" line per test, for tests/check.sh to count.
#
#   awk -v prefix=6.12 -v expect="a_test b_test" -f tap.awk console.log
#
# Counted: every top-level "ok N name" (PASS) and "not ok N name" (FAIL).
# A skipped test ("ok N name # SKIP why") is a FAIL: a test that did not run
# proved nothing.  "SCHEDREC-BINARY <name> EXIT <code>" lines end each test
# binary's output: its results are named "<prefix>: <binary>: <test>"; a
# binary that exited non-zero without a failed test (a crash, a harness
# error), or that ran no test, is a FAIL of its own; and every binary named
# in `expect` that never reported (the guest died, the run timed out) is a
# FAIL.  A failed test's line carries its first reason from the log: the
# first "# FAILED: ..." diagnostic after its "#  RUN" line, or else the first
# assertion the harness reported ("# file.c:LINE:test:Expected ..."), so that
# a CI log that shows only the summary lines still says why.
function flush(binary,	i, p)
{
	p = prefix == "" ? "" : prefix ": "
	if (binary != "")
		p = p binary ": "
	for (i = 1; i <= n; i++)
		print verdict[i] " " p name[i]
	n = 0
}

/^#  RUN / {
	why = ""
	next
}

why == "" && /^# FAILED: / {
	why = substr($0, 3)
}

why == "" && /^# [^ :]+\.c:[0-9]+:/ {
	why = substr($0, 3)
}

/^(not )?ok [0-9]+ / {
	line = $0
	bad = (line ~ /^not ok/)
	sub(/^(not )?ok [0-9]+ /, "", line)
	n++
	if (!bad && line ~ /# SKIP/) {
		verdict[n] = "FAIL"
		name[n] = line " (skipped)"
	} else {
		verdict[n] = bad ? "FAIL" : "PASS"
		name[n] = line
		if (bad && why != "")
			name[n] = line " -- " substr(why, 1, 300)
	}
	why = ""
	failed += bad
	next
}

/^SCHEDREC-BINARY [^ ]+ EXIT [0-9]+$/ {
	seen[$2] = 1
	if ($4 != 0 && !failed) {
		n++
		verdict[n] = "FAIL"
		name[n] = "exited with status " $4
	} else if (!n) {
		n++
		verdict[n] = "FAIL"
		name[n] = "ran no test"
	}
	flush($2)
	failed = 0
}

END {
	flush("")
	count = split(expect, names, " ")
	for (i = 1; i <= count; i++)
		if (!(names[i] in seen))
			print "FAIL " (prefix == "" ? "" : prefix ": ") names[i] ": did not finish"
}
