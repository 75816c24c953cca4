#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of `schedrec export openmetrics` that want a real parser: the
text is read by the Prometheus client library's own parsers (Debian's
python3-prometheus-client), and compared with the CSV of the reports.
openmetrics_test.c runs them.  Each prints what is wrong and exits 1,
prints "ok" and exits 0, or exits 77 when the library is missing.

  openmetrics_check.py values PROM DIR [--expect NAME=VALUE]...
      every value of PROM (exported with --top 0) equals its report's:
      DIR holds tenancy.csv, states.csv, offcpu.csv, offcpu_process.csv,
      latency.csv, latency_process.csv (each `schedrec report ... --csv`
      with the same selection) and loss.txt (their stderr, the loss
      warning); NAME=VALUE: a sample without labels and its value
  openmetrics_check.py hist PROM HIST_CSV
      the buckets of every latency histogram of PROM, added up, are
      `report latency --csv --hist` of the same selection
  openmetrics_check.py top PROM DIR N
      PROM (exported with --top N) has the N most active threads and
      processes, by on-CPU time plus time runnable (DIR as for values,
      of the whole selection)
  openmetrics_check.py same PROM OM
      OM (--format openmetrics) is valid OpenMetrics, and holds the same
      samples as PROM
  openmetrics_check.py label PROM TID COMM
      thread TID's comm label reads back as COMM
"""
import codecs
import csv
import io
import re
import sys
from collections import defaultdict

SKIP = 77
problems = []

try:
    from prometheus_client.parser import text_string_to_metric_families
    from prometheus_client.openmetrics.parser import (
        text_string_to_metric_families as openmetrics_families)
except ImportError:
    print("the Prometheus client library is missing: "
          "apt-get install python3-prometheus-client")
    sys.exit(SKIP)

STATES = "RSDITtXZP?"
KINDS = ("wakeup", "runqueue")
# the finite buckets: report latency's log2 slots 0..23 of microseconds
BUCKETS = [(2 << slot) * 1000 - 1 for slot in range(24)]


def problem(msg):
    problems.append(msg)


def finish():
    for p in problems[:30]:
        print(p)
    if len(problems) > 30:
        print(f"... and {len(problems) - 30} more")
    if problems:
        sys.exit(1)
    print("ok")
    sys.exit(0)


# A comm is any bytes; a label value is UTF-8, where schedrec writes a byte
# that is not UTF-8 as the Latin-1 character of that value.
codecs.register_error(
    "latin1", lambda e: (e.object[e.start:e.end].decode("latin-1"), e.end))


def read_csv(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "latin1")
    return list(csv.DictReader(io.StringIO(text, newline="")))


def ns(seconds):
    """A value in seconds as whole nanoseconds (exact below 2^53 ns)."""
    return round(seconds * 1e9)


class Samples:
    """The samples of an exposition: (name, labels) -> value."""

    def __init__(self, families):
        self.values = {}
        self.types = {}
        self.order = []
        for fam in families:
            self.types[fam.name] = fam.type
            for s in fam.samples:
                key = (s.name, tuple(sorted(s.labels.items())))
                if key in self.values:
                    problem(f"{s.name}{s.labels}: more than once")
                self.values[key] = s.value
                self.order.append((s.name, s.labels, s.value))

    def of(self, name):
        """[(labels dict, value)] of sample name @name."""
        return [(lab, v) for n, lab, v in self.order if n == name]


def load_prometheus(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if "# EOF" in text or "# UNIT" in text:
        problem(f"{path}: OpenMetrics lines in the Prometheus text format")
    return Samples(text_string_to_metric_families(text)), text


def thread_key(row):
    """(pid, tid, comm) of a report row: pid = tid when not known."""
    return (row["pid"] or row["tid"], row["tid"], row["comm"])


def labels_key(lab, who):
    if who == "thread":
        return (lab["pid"], lab["tid"], lab["comm"])
    return lab["pid"]


def expect_equal(what, got, want):
    if got != want:
        problem(f"{what}: exported {got}, the report says {want}")


def compare_map(what, got, want):
    for k in sorted(set(got) | set(want), key=str):
        if k not in got:
            problem(f"{what} {k}: not exported, the report says {want[k]}")
        elif k not in want:
            problem(f"{what} {k}: exported {got[k]}, no such report row")
        elif got[k] != want[k]:
            problem(f"{what} {k}: exported {got[k]}, the report says "
                    f"{want[k]}")


def exported(samples, name, who, extra, to_int=ns):
    """{(series key, extra label value): value} of sample name @name."""
    got = {}
    for lab, v in samples.of(name):
        key = labels_key(lab, who)
        got[(key, lab[extra]) if extra else key] = to_int(v)
    return got


def check_values(args):
    prom, d, rest = args[0], args[1], args[2:]
    expects = []
    while rest:
        opt = rest.pop(0)
        if opt != "--expect" or not rest:
            sys.exit(f"unknown option {opt}")
        expects.append(rest.pop(0).split("=", 1))
    samples, _ = load_prometheus(prom)
    tenancy = read_csv(f"{d}/tenancy.csv")
    states = read_csv(f"{d}/states.csv")
    offcpu = read_csv(f"{d}/offcpu.csv")
    offcpu_p = read_csv(f"{d}/offcpu_process.csv")
    latency = read_csv(f"{d}/latency.csv")
    latency_p = read_csv(f"{d}/latency_process.csv")
    with open(f"{d}/loss.txt", encoding="utf-8", errors="replace") as f:
        loss = f.read()

    for name, value in expects:
        got = samples.values.get((name, ()))
        if got is None or abs(got - float(value)) > 1e-12:
            problem(f"{name}: {got}, wanted {value}")

    # tenancy: per thread and CPU, idle per CPU; processes summed
    oncpu, p_oncpu, idle = defaultdict(int), defaultdict(int), {}
    for r in tenancy:
        if r["tid"] == "0":
            idle[r["cpu"]] = int(r["oncpu_ns"])
            continue
        if r["tid"] == "-1":
            continue    # time not known: no thread's
        key = thread_key(r)
        oncpu[(key, r["cpu"])] += int(r["oncpu_ns"])
        p_oncpu[(key[0], r["cpu"])] += int(r["oncpu_ns"])
    compare_map("on-CPU", exported(samples,
                "schedrec_thread_oncpu_seconds_total", "thread", "cpu"),
                oncpu)
    compare_map("process on-CPU", exported(samples,
                "schedrec_process_oncpu_seconds_total", "process", "cpu"),
                p_oncpu)
    got = {lab["cpu"]: ns(v) for lab, v in
           samples.of("schedrec_cpu_idle_seconds_total")}
    for cpu, v in got.items():
        expect_equal(f"idle of CPU {cpu}", v, idle.get(cpu, 0))
    for cpu in idle:
        if cpu not in got:
            problem(f"idle of CPU {cpu}: not exported")

    # states: off-CPU time and switch-outs per (thread, state)
    off, sw = defaultdict(int), defaultdict(int)
    p_off, p_sw = defaultdict(int), defaultdict(int)
    for r in states:
        key = thread_key(r)
        off[(key, r["state"])] += int(r["offcpu_ns"])
        sw[(key, r["state"])] += int(r["switchouts"])
        p_off[(key[0], r["state"])] += int(r["offcpu_ns"])
        p_sw[(key[0], r["state"])] += int(r["switchouts"])
    compare_map("off-CPU time", exported(samples,
                "schedrec_thread_offcpu_seconds_total", "thread", "state"),
                off)
    compare_map("switch-outs", exported(samples,
                "schedrec_thread_switches_total", "thread", "state", int),
                sw)
    compare_map("process off-CPU time", exported(samples,
                "schedrec_process_offcpu_seconds_total", "process",
                "state"), p_off)
    compare_map("process switch-outs", exported(samples,
                "schedrec_process_switches_total", "process", "state",
                int), p_sw)

    # offcpu: the longest complete interval, over the states
    for who, rows, keyf in (("thread", offcpu, thread_key),
                            ("process", offcpu_p, lambda r: r["pid"])):
        want = {}
        for r in rows:
            if int(r["count"]) == 0:
                continue
            key = keyf(r)
            if key not in want or int(r["max_ns"]) > want[key][0]:
                want[key] = (int(r["max_ns"]), r["max_state"])
        got = defaultdict(dict)
        for (key, state), v in exported(
                samples, f"schedrec_{who}_offcpu_max_seconds", who,
                "state").items():
            got[key][state] = v
        for key in sorted(set(got) | set(want), key=str):
            if key not in want:
                problem(f"{who} {key}: a maximum is exported, but report "
                        f"offcpu counts no complete interval")
            elif key not in got:
                problem(f"{who} {key}: no maximum exported, report offcpu "
                        f"says {want[key]}")
            else:
                expect_equal(f"{who} {key} longest off-CPU",
                             max(got[key].values()), want[key][0])
                expect_equal(f"{who} {key} longest off-CPU in "
                             f"{want[key][1]}", got[key].get(want[key][1]),
                             want[key][0])
        if who == "process":
            for r in offcpu_p:
                names = {lab["comm"] for lab, _ in
                         samples.of("schedrec_process_switches_total")
                         if lab["pid"] == r["pid"]}
                if names and names != {r["comm"]}:
                    problem(f"process {r['pid']}: named {names}, report "
                            f"offcpu --by process says {r['comm']}")

    # latency: count and total per kind
    for who, rows, keyf in (("thread", latency, thread_key),
                            ("process", latency_p, lambda r: r["pid"])):
        for kind in KINDS:
            name = f"schedrec_{who}_{kind}_latency_seconds"
            want_count, want_sum = defaultdict(int), defaultdict(int)
            for r in rows:
                if r["kind"] == kind:
                    want_count[keyf(r)] += int(r["count"])
                    want_sum[keyf(r)] += int(r["total_ns"])
            compare_map(f"{kind} latency count",
                        exported(samples, name + "_count", who, None, int),
                        want_count)
            compare_map(f"{kind} latency sum",
                        exported(samples, name + "_sum", who, None),
                        want_sum)

    # lost events, per CPU: the loss warning's
    want = {cpu: int(n) for cpu, n in
            re.findall(r"CPU (\d+): (\d+) between", loss)}
    got = {lab["cpu"]: int(v) for lab, v in
           samples.of("schedrec_lost_events_total")}
    for cpu in sorted(set(got) | set(want)):
        expect_equal(f"events lost on CPU {cpu}", got.get(cpu),
                     want.get(cpu, 0))
    check_histograms(samples)
    finish()


def histograms(samples):
    """{(family, series labels): [(le, cumulative count)], count, sum}"""
    series = defaultdict(lambda: {"buckets": [], "count": None,
                                  "sum": None})
    for name, lab, v in samples.order:
        for suffix in ("_bucket", "_count", "_sum"):
            if name.endswith("_latency_seconds" + suffix):
                fam = name[:-len(suffix)]
                rest = tuple(sorted((k, x) for k, x in lab.items()
                                    if k != "le"))
                s = series[(fam, rest)]
                if suffix == "_bucket":
                    s["buckets"].append((lab["le"], v))
                else:
                    s[suffix[1:]] = v
    return series


def check_histograms(samples):
    """Every histogram: the same canonical buckets, cumulative, +Inf last
    and equal to _count."""
    want_le = [repr(high / 1e9) for high in BUCKETS] + ["+Inf"]
    for (fam, lab), s in histograms(samples).items():
        what = f"{fam}{dict(lab)}"
        les = [le for le, _ in s["buckets"]]
        if les != want_le:
            problem(f"{what}: buckets {les}, wanted {want_le}")
        counts = [v for _, v in s["buckets"]]
        if counts != sorted(counts):
            problem(f"{what}: buckets not cumulative: {counts}")
        if not counts or counts[-1] != s["count"]:
            problem(f"{what}: +Inf bucket {counts[-1:]} is not _count "
                    f"{s['count']}")
        if s["sum"] is None or s["count"] is None or s["count"] <= 0:
            problem(f"{what}: no _count or _sum, or an empty histogram")


def check_hist(args):
    samples, _ = load_prometheus(args[0])
    rows = read_csv(args[1])
    for kind in KINDS:
        # the report's log2 slots, as bucket increments: finite ones by
        # their highest value, +Inf for what is above the last
        want = defaultdict(int)
        for r in rows:
            if r["kind"] != kind:
                continue
            high = int(r["high_ns"])
            if int(r["low_ns"]) != (0 if high == BUCKETS[0] else
                                    (high + 1) // 2):
                problem(f"report --hist row {r}: not a log2 slot")
            want[high if high in BUCKETS else "+Inf"] += int(r["count"])
        got = defaultdict(int)
        for (fam, _), s in histograms(samples).items():
            if not fam.startswith("schedrec_thread_" + kind):
                continue
            below = 0
            for le, v in s["buckets"]:
                key = "+Inf" if le == "+Inf" else ns(float(le))
                got[key] += int(v) - below
                below = int(v)
        compare_map(f"{kind} histogram bucket", {k: v for k, v in
                    got.items() if v}, dict(want))
    finish()


def activity_ranks(d):
    """Threads and processes, most active (on CPU + runnable) first."""
    threads, procs = defaultdict(int), defaultdict(int)
    for r in read_csv(f"{d}/tenancy.csv"):
        if r["tid"] not in ("0", "-1"):
            threads[thread_key(r)] += int(r["oncpu_ns"])
    for r in read_csv(f"{d}/states.csv"):
        threads[thread_key(r)] += int(r["offcpu_ns"]) * (r["state"] == "R")
    for r in read_csv(f"{d}/latency.csv"):
        threads[thread_key(r)] += 0
    for (pid, tid, comm), v in threads.items():
        procs[pid] += v
    t = sorted(threads, key=lambda k: (-threads[k], int(k[1]), int(k[0]),
                                       k[2].encode()))
    p = sorted(procs, key=lambda k: (-procs[k], int(k)))
    return t, p


def check_top(args):
    samples, _ = load_prometheus(args[0])
    n = int(args[2])
    threads, procs = activity_ranks(args[1])
    got_t = {labels_key(lab, "thread") for name, lab, _ in samples.order
             if name.startswith("schedrec_thread_")}
    got_p = {labels_key(lab, "process") for name, lab, _ in samples.order
             if name.startswith("schedrec_process_")}
    if got_t != set(threads[:n]):
        problem(f"threads exported {sorted(got_t)}, the {n} most active "
                f"are {threads[:n]}")
    if got_p != set(procs[:n]):
        problem(f"processes exported {sorted(got_p)}, the {n} most active "
                f"are {procs[:n]}")
    if len(threads) <= n or len(procs) <= n:
        problem(f"{len(threads)} threads, {len(procs)} processes: "
                f"--top {n} leaves none out, a weak test")
    finish()


def check_same(args):
    prom, _ = load_prometheus(args[0])
    with open(args[1], encoding="utf-8") as f:
        text = f.read()
    if not text.endswith("\n# EOF\n"):
        problem(f"{args[1]}: does not end with # EOF")
    # the strict parser: metadata, names, suffixes, histograms, EOF
    try:
        om = Samples(openmetrics_families(text))
    except ValueError as e:
        problem(f"{args[1]}: not OpenMetrics: {e}")
        finish()
    for name, typ in om.types.items():
        if name.endswith("_seconds") and \
                f"# UNIT {name} seconds\n" not in text:
            problem(f"{name}: no # UNIT line")
        if typ == "counter" and name.endswith("_total"):
            problem(f"{name}: a counter family named with _total")
    if set(prom.values) != set(om.values):
        problem(f"not the same samples: {len(prom.values)} in the "
                f"Prometheus text, {len(om.values)} in OpenMetrics; "
                f"only in one: "
                f"{sorted(set(prom.values) ^ set(om.values))[:5]}")
    for key, v in prom.values.items():
        if key in om.values and om.values[key] != v:
            problem(f"{key}: {v} in the Prometheus text, {om.values[key]} "
                    f"in OpenMetrics")
    finish()


def check_label(args):
    samples, _ = load_prometheus(args[0])
    names = {lab["comm"] for name, lab, _ in samples.order
             if lab.get("tid") == args[1]}
    if names != {args[2]}:
        problem(f"thread {args[1]}: comm {names}, wanted {{{args[2]!r}}}")
    finish()


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    commands = {"values": check_values, "hist": check_hist,
                "top": check_top, "same": check_same,
                "label": check_label}
    if sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
