# SPDX-License-Identifier: GPL-2.0
#
# tests/demo/facts.awk: checks, from the raw records of a trace, that
# demo-workload behaved as designed, independently of `schedrec report`:
#
#   awk -f facts.awk threads.txt <(srecdump demo.srec)
#
# threads.txt holds demo-workload's "name tid" lines (and its lines
# "ticker-min-ns N" and "ticker-max-ns N", the bounds of the ticker's fact,
# and "ticker-longest-sleep-ns N", shown with that fact).  For
# each fact it prints "ok" or "NOT MET" and what it measured; the exit
# status is the number of facts not met.
#
# An off-CPU interval runs from a thread's switch-out to its next
# switch-in (any CPU), labelled with the state at the switch-out; a thread's
# on-CPU time on a CPU runs from its switch-in there to its switch-out.

function ms(ns) { return sprintf("%.2f ms", ns / 1e6) }

function verdict(ok, what) {
	printf "%-7s %s\n", ok ? "ok" : "NOT MET", what
	if (!ok)
		failed++
}

# the first file: "name tid"
FNR == NR && $1 == "ticker-longest-sleep-ns" {
	own_sleep = $2
	next
}

FNR == NR && $1 == "ticker-min-ns" {
	ticker_min = $2
	next
}

FNR == NR && $1 == "ticker-max-ns" {
	ticker_max = $2
	next
}

FNR == NR {
	tid[$1] = $2
	name[$2] = $1
	next
}

# srecdump: CPU TS SEQ EVENT fields...
$4 == "switch" && $5 == "prev" {
	cpu = $1; ts = $2
	split($6, p, "/"); prev = p[1]; state = substr($7, 1, 1)
	split($9, n, "/"); next_tid = n[1]
	if (prev in name) {
		if (prev in on_ts)
			oncpu[prev, cpu] += ts - on_ts[prev]
		delete on_ts[prev]
		out_ts[prev] = ts
		out_state[prev] = state
		switchouts[prev, state]++
		if (state == "R")
			usurped[prev, next_tid]++
	}
	if (next_tid in name) {
		if (next_tid in out_ts) {
			len = ts - out_ts[next_tid]
			st = out_state[next_tid]
			intervals[next_tid, st]++
			if (len > max_len[next_tid]) {
				max_len[next_tid] = len
				max_state[next_tid] = st
			}
			if (!((next_tid, st) in st_min) || len < st_min[next_tid, st])
				st_min[next_tid, st] = len
			if (len > st_max[next_tid, st])
				st_max[next_tid, st] = len
			delete out_ts[next_tid]
		}
		on_ts[next_tid] = ts
	}
	next
}

($4 == "waking" || $4 == "wakeup_new") && $5 == "tid" {
	split($6, wk, "/")
	if (wk[1] in name)
		wakers[wk[1], $10 + 0]++
	next
}

END {
	failed = 0

	t = tid["ticker"]
	verdict(ticker_max != "" && max_len[t] >= ticker_min + 0 &&
		max_len[t] <= ticker_max + 0 && max_state[t] == "S",
		sprintf("ticker %s: longest off-CPU %s in %s (%s..%s, S); %d S intervals %s..%s%s",
			t, ms(max_len[t]), max_state[t], ms(ticker_min),
			ms(ticker_max), intervals[t, "S"],
			ms(st_min[t, "S"]), ms(st_max[t, "S"]),
			own_sleep == "" ? "" : sprintf("; its longest sleep by its own clock %s", ms(own_sleep))))

	t = tid["pinned"]
	total = oncpu[t, 0] + oncpu[t, 1]
	share = total ? oncpu[t, 1] / total : 0
	verdict(share >= 0.99, sprintf("pinned %s: %.2f%% of its %s on CPU (>= 99%%) on CPU 1",
		t, 100 * share, ms(total)))

	a = tid["hog-a"]; b = tid["hog-b"]
	verdict(usurped[a, b] >= 10 && usurped[b, a] >= 10,
		sprintf("hog-a %s / hog-b %s: R switch-outs to each other %d / %d (of %d / %d R switch-outs)",
			a, b, usurped[a, b], usurped[b, a],
			switchouts[a, "R"], switchouts[b, "R"]))

	t = tid["diskio"]
	verdict(switchouts[t, "D"] >= 10,
		sprintf("diskio %s: %d switch-outs in D, off CPU %s..%s each",
			t, switchouts[t, "D"], ms(st_min[t, "D"]),
			ms(st_max[t, "D"])))

	w = tid["waiter"]; l = tid["locker"]
	all = 0; others = ""
	for (k in wakers) {
		split(k, kk, SUBSEP)
		if (kk[1] != w)
			continue
		all += wakers[k]
		if (kk[2] != l)
			others = others sprintf(" %s x%d", kk[2], wakers[k])
	}
	verdict(all >= 10 && wakers[w, l] == all,
		sprintf("waiter %s: %d of %d wakeups from locker %s%s",
			w, wakers[w, l], all, l,
			others == "" ? "" : "; others:" others))
	exit failed
}
