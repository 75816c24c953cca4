#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The protobuf trace of `schedrec export perfetto`, as protoc decodes it,
against `schedrec export csv` of the same trace and selection: every
record accounted for, every field meaning what Perfetto reads it as.
export_test.c runs it; it prints what is wrong and exits 1, or prints "ok".

  perfetto_check.py DECODED CSV [--release R] [--cpus N] [--filtered]
                    [--no-waking] [--snapshot]
                    [--process PID NAME] [--thread TID NAME]

DECODED is `protoc --decode=Trace tests/tools/perfetto.proto` of the trace
(a field protoc does not know there decodes as a number: a problem).
--process: a process of the start snapshot and its command line;
--thread: a name the thread had before the trace's records; --filtered:
the trace is of `schedrec record --pid` (switches and wakings all whole,
gaps are no loss); --no-waking: sched_waking was not recorded (then
sched_wakeup is written, else left out); --snapshot: the names threads
had at the start are those of the process tree (which --process checks).

What is checked, per CPU, in the order of the records:
  - a switch or a waking is in the compact encoding, except the CPU's
    first switch and the first after a loss (and the wakings before it),
    which are whole events: the compact form leaves out the CPU's current
    thread.  Perfetto takes a compact switch's prev to be the previous
    switch's next; that must be the record's prev_tid.
  - prev_state is the value ftrace records: R 0, S 1, D 2, ..., I 0x80,
    preempted 0x100; common_flags has 0x08 for a waking in interrupt
    context; a whole event's pid is the thread that emitted it.
  - wakeup (if no waking was recorded) and wakeup_new, migrate, fork
    (with a task_newtask), exec, exit and rename are whole events with the
    record's fields.
  - records come in bundles; a loss (a lost record, or a gap in the
    sequence numbers) starts a bundle that says lost_events, and bundles
    of a CPU come in time order.
  - names are "swapper/N" for the idle task, else one the thread had.
"""
import codecs
import csv
import sys
from collections import Counter, defaultdict

problems = []

STATE_VALUE = {"R": 0, "S": 0x1, "D": 0x2, "T": 0x4, "t": 0x8, "X": 0x10,
               "Z": 0x20, "P": 0x40, "I": 0x80}
CLONE_THREAD = 0x10000
HARDIRQ = 0x08
BOOTTIME, MONOTONIC, REALTIME = 6, 3, 1


def problem(msg):
    problems.append(msg)


def parse_text(lines):
    """protoc's text format: {name: [values]}, a message a dict."""
    stack = [defaultdict(list)]
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
            continue
        if line.endswith("{"):
            name = line[:-1].strip()
            child = defaultdict(list)
            stack[-1][name].append(child)
            stack.append(child)
        else:
            name, _, value = line.partition(": ")
            if value.startswith('"'):
                value = codecs.escape_decode(value[1:-1])[0]
            elif value in ("true", "false"):
                value = value == "true"
            else:
                value = int(value)
            stack[-1][name].append(value)
        if name.isdigit():
            problem(f"line {n}: field {name} is not in perfetto.proto")
    return stack[0]


def one(msg, name, default=None):
    values = msg.get(name, [])
    if len(values) > 1:
        problem(f"{name} given {len(values)} times")
    return values[0] if values else default


def deltas(values):
    out, at = [], 0
    for v in values:
        at += v
        out.append(at)
    return out


class Expect:
    """What the records of one CPU must become."""

    def __init__(self):
        self.segments = [Counter()]
        self.whole = True
        self.switches = []      # (ts, prev_tid) in record order

    def loss(self):
        if self.segments[-1] or len(self.segments) == 1:
            self.segments.append(Counter())
        self.whole = True

    def add(self, item):
        self.segments[-1][item] += 1


def name_ok(names, tid, comm, cpu):
    if tid == 0:
        return comm == f"swapper/{cpu}".encode()
    return comm in names[tid] or (not names[tid] and comm == b"")


def expected(csv_path, names, filtered, waking):
    cpus = defaultdict(Expect)
    with open(csv_path, newline="", encoding="latin-1") as f:
        for row in csv.DictReader(f):
            cpu = int(row["cpu"])
            e = cpus[cpu]
            ts = int(row["ts_ns"])
            kind = row["type"]
            if int(row["gap"]) and not filtered:
                e.loss()
            e.whole |= filtered
            if kind == "lost":
                e.loss()
                continue
            if kind == "switch":
                prev, nxt = int(row["prev_tid"]), int(row["next_tid"])
                state = 0x100 if row["preempt"] == "1" else \
                    STATE_VALUE[row["prev_state_letter"]]
                e.switches.append((ts, prev))
                if e.whole:
                    e.add(("switch", ts, prev, state, int(row["prev_prio"]),
                           nxt, int(row["next_prio"])))
                    e.whole = False
                else:
                    e.add(("cswitch", ts, prev, state, nxt,
                           int(row["next_prio"])))
                continue
            if kind in ("fork", "exec", "rename"):
                names[int(row["tid"])].add(row["comm"].encode("latin-1"))
            tid = int(row["tid"]) if row["tid"] else 0
            flags = HARDIRQ if row["irq"] == "1" else 0
            if kind == "wakeup" and waking:
                continue
            if kind == "waking" and not e.whole:
                e.add(("cwaking", ts, tid, int(row["target_cpu"]),
                       int(row["prio"]), flags))
            elif kind in ("waking", "wakeup", "wakeup_new"):
                e.add(("sched_" + kind, ts, int(row["waker_tid"]), flags,
                       tid, int(row["prio"]), int(row["target_cpu"])))
            elif kind == "migrate":
                e.add(("sched_migrate_task", ts, None, tid, int(row["prio"]),
                       int(row["orig_cpu"]), int(row["dest_cpu"])))
            elif kind == "fork":
                parent, tgid = int(row["other_tid"]), int(row["tgid"])
                e.add(("sched_process_fork", ts, parent, parent, tid))
                e.add(("task_newtask", ts, parent, tid,
                       CLONE_THREAD if tid != tgid else 0))
            elif kind == "exec":
                e.add(("sched_process_exec", ts, tid, tid,
                       int(row["other_tid"])))
            elif kind == "exit":
                e.add(("sched_process_exit", ts, tid, tid, int(row["tgid"])))
            elif kind == "rename":
                e.add(("task_rename", ts, tid, tid))
    return cpus


def event_item(ev, cpu, names, comms):
    """An FtraceEvent as the tuple expected() makes, its names aside."""
    ts, pid = one(ev, "timestamp"), one(ev, "pid")
    flags = one(ev, "common_flags", 0)
    kinds = [k for k in ev if k not in ("timestamp", "pid", "common_flags")]
    if len(kinds) != 1:
        problem(f"event at {ts}: {kinds}")
        return None
    kind = kinds[0]
    f = one(ev, kind)
    if kind == "sched_switch":
        comms.append((one(f, "prev_pid"), one(f, "prev_comm")))
        comms.append((one(f, "next_pid"), one(f, "next_comm")))
        if pid != one(f, "prev_pid"):
            problem(f"switch at {ts}: pid {pid}, prev_pid "
                    f"{one(f, 'prev_pid')}")
        return ("switch", ts, one(f, "prev_pid"), one(f, "prev_state"),
                one(f, "prev_prio"), one(f, "next_pid"), one(f, "next_prio"))
    if kind in ("sched_waking", "sched_wakeup", "sched_wakeup_new"):
        comms.append((one(f, "pid"), one(f, "comm")))
        if one(f, "success") != 1:
            problem(f"{kind} at {ts}: success {one(f, 'success')}")
        return (kind, ts, pid, flags, one(f, "pid"), one(f, "prio"),
                one(f, "target_cpu"))
    if kind == "sched_migrate_task":
        comms.append((one(f, "pid"), one(f, "comm")))
        return (kind, ts, pid, one(f, "pid"), one(f, "prio"),
                one(f, "orig_cpu"), one(f, "dest_cpu"))
    if kind == "sched_process_fork":
        comms.append((one(f, "child_pid"), one(f, "child_comm")))
        if one(f, "parent_comm") != one(f, "child_comm"):
            problem(f"fork at {ts}: parent and child named apart")
        return (kind, ts, pid, one(f, "parent_pid"), one(f, "child_pid"))
    if kind == "task_newtask":
        comms.append((one(f, "pid"), one(f, "comm")))
        return (kind, ts, pid, one(f, "pid"), one(f, "clone_flags", 0))
    if kind == "sched_process_exec":
        return (kind, ts, pid, one(f, "pid"), one(f, "old_pid"))
    if kind == "sched_process_exit":
        comms.append((one(f, "pid"), one(f, "comm")))
        return (kind, ts, pid, one(f, "pid"), one(f, "tgid"))
    if kind == "task_rename":
        comms.append((one(f, "pid"), one(f, "newcomm")))
        return (kind, ts, pid, one(f, "pid"))
    problem(f"event at {ts}: unexpected {kind}")
    return None


def actual(packets, names, switches_of):
    """Per CPU: the segments (bundles between losses) as Counters."""
    cpus = defaultdict(lambda: [Counter()])
    last_ts = {}
    for p in packets:
        for bundle in p.get("ftrace_events", []):
            cpu = one(bundle, "cpu")
            segs = cpus[cpu]
            if one(bundle, "lost_events", False):
                segs.append(Counter())
            items, comms = [], []
            for ev in bundle.get("event", []):
                item = event_item(ev, cpu, names, comms)
                if item:
                    items.append(item)
            cs = one(bundle, "compact_sched", {})
            table = cs.get("intern_table", [])
            sts = deltas(cs.get("switch_timestamp", []))
            cols = [cs.get(c, []) for c in (
                "switch_prev_state", "switch_next_pid", "switch_next_prio",
                "switch_next_comm_index")]
            if any(len(c) != len(sts) for c in cols):
                problem(f"cpu {cpu}: switch columns of unequal length")
                continue
            if sts != sorted(sts):
                problem(f"cpu {cpu}: compact switches out of time order")
            for ts, state, nxt, prio, ci in zip(sts, *cols):
                items.append(("cswitch", ts, None, state, nxt, prio))
                comms.append((nxt, table[ci] if ci < len(table) else None))
            wts = deltas(cs.get("waking_timestamp", []))
            cols = [cs.get(c, []) for c in (
                "waking_pid", "waking_target_cpu", "waking_prio",
                "waking_comm_index", "waking_common_flags")]
            if any(len(c) != len(wts) for c in cols):
                problem(f"cpu {cpu}: waking columns of unequal length")
                continue
            for ts, pid, target, prio, ci, flags in zip(wts, *cols):
                items.append(("cwaking", ts, pid, target, prio, flags))
                comms.append((pid, table[ci] if ci < len(table) else None))
            for tid, comm in comms:
                if comm is None or not name_ok(names, tid, comm, cpu):
                    problem(f"cpu {cpu}: thread {tid} named {comm!r}, "
                            f"expected one of {sorted(names[tid])}")
            if not items:
                if not one(bundle, "lost_events", False):
                    problem(f"cpu {cpu}: an empty bundle")
                continue
            first, last = min(i[1] for i in items), max(i[1] for i in items)
            if first < last_ts.get(cpu, 0):
                problem(f"cpu {cpu}: a bundle from {first} after one "
                        f"that ended at {last_ts[cpu]}")
            last_ts[cpu] = last
            # Perfetto's prev of a compact switch: the switch before's next
            sw = sorted((i for i in items if i[0].endswith("switch")),
                        key=lambda i: i[1])
            for item in items:
                if item[0] != "cswitch":
                    segs[-1][item] += 1
            prev = switches_of.setdefault(cpu, [None])
            for i in sw:
                if i[0] == "cswitch":
                    i = ("cswitch", i[1], prev[-1]) + i[3:]
                    segs[-1][i] += 1
                prev.append(i[5] if i[0] == "switch" else i[4])
    return cpus


def check_header(packets, opts):
    clocks = {}
    for p in packets:
        for snap in p.get("clock_snapshot", []):
            for c in snap.get("clocks", []):
                clocks[one(c, "clock_id")] = one(c, "timestamp")
            if one(snap, "primary_trace_clock") != BOOTTIME:
                problem("the primary clock is not BOOTTIME")
    if clocks.get(BOOTTIME) != clocks.get(MONOTONIC) or REALTIME not in clocks:
        problem(f"clocks {clocks}: BOOTTIME = MONOTONIC, and REALTIME")
    infos = [i for p in packets for i in p.get("system_info", [])]
    if len(infos) != 1:
        problem(f"{len(infos)} system_info packets")
    else:
        uts = one(infos[0], "utsname", {})
        if opts["release"] and one(uts, "release") != opts["release"]:
            problem(f"release {one(uts, 'release')!r}")
        if opts["cpus"] and one(infos[0], "num_cpus") != opts["cpus"]:
            problem(f"num_cpus {one(infos[0], 'num_cpus')}")
    procs, threads = {}, []
    for p in packets:
        for tree in p.get("process_tree", []):
            for pr in tree.get("processes", []):
                procs[one(pr, "pid")] = one(pr, "cmdline")
            threads += tree.get("threads", [])
    for pid, name in opts["processes"]:
        if procs.get(pid) != name:
            problem(f"process {pid}: {procs.get(pid)!r}, expected {name!r}")
    for t in threads:
        if one(t, "tgid") not in procs:
            problem(f"thread {one(t, 'tid')}: its process is not listed")


def main(argv):
    decoded, csv_path = argv[0], argv[1]
    rest = argv[2:]
    opts = {"release": None, "cpus": None, "processes": [],
            "filtered": False, "waking": True, "snapshot": False}
    names = defaultdict(set)
    while rest:
        opt = rest.pop(0)
        if opt == "--release":
            opts["release"] = rest.pop(0).encode()
        elif opt == "--filtered":
            opts["filtered"] = True
        elif opt == "--no-waking":
            opts["waking"] = False
        elif opt == "--snapshot":
            opts["snapshot"] = True
        elif opt == "--cpus":
            opts["cpus"] = int(rest.pop(0))
        elif opt == "--process":
            opts["processes"].append((int(rest.pop(0)),
                                      rest.pop(0).encode()))
        elif opt == "--thread":
            names[int(rest.pop(0))].add(rest.pop(0).encode())
        else:
            sys.exit(f"unknown option {opt}")
    with open(decoded, encoding="latin-1") as f:
        trace = parse_text(f)
    packets = trace.get("packet", [])
    check_header(packets, opts)
    if opts["snapshot"]:
        for p in packets:
            for tree in p.get("process_tree", []):
                for t in tree.get("threads", []):
                    names[one(t, "tid")].add(one(t, "name"))
    want = expected(csv_path, names, opts["filtered"], opts["waking"])
    got = actual(packets, names, {})
    for cpu in sorted(set(want) | set(got)):
        w = want[cpu].segments if cpu in want else [Counter()]
        g = got[cpu] if cpu in got else [Counter()]
        if len(w) != len(g):
            problem(f"cpu {cpu}: {len(g)} runs between losses, expected "
                    f"{len(w)}")
        for n, (a, b) in enumerate(zip(w, g)):
            if a != b:
                problem(f"cpu {cpu}, run {n}: missing {list((a - b))[:3]}, "
                        f"unexpected {list((b - a))[:3]}")
    for p in problems[:20]:
        print(p)
    if problems:
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main(sys.argv[1:])
