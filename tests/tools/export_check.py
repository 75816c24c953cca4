#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of `schedrec export` output that want a real parser: export_test.c
runs them.  Each prints what is wrong and exits 1, prints "ok" and exits 0,
or exits 77 when what it needs (NumPy) is missing.

  export_check.py perfetto JSON TENANCY_CSV [--threads-selected]
                  [--exclude-pid PID] [--thread PID TID NAME]
                  [--comms PID TID NAME,NAME...]
  export_check.py schedlog TAR [EXPECTED_ROWS]
  export_check.py npz NPZ NAME DTYPE VALUE,VALUE... [--zip64]
  export_check.py csv CSV ROWS
"""
import csv
import decimal
import io
import json
import sys
import tarfile
import zipfile
from collections import defaultdict

CPUS_PID = 1 << 22
SKIP = 77
problems = []


def problem(msg):
    problems.append(msg)


def finish():
    for p in problems[:20]:
        print(p)
    if problems:
        sys.exit(1)
    print("ok")
    sys.exit(0)


def us_to_ns(value, what):
    """A JSON number of microseconds with at most 3 decimals, in ns."""
    d = decimal.Decimal(value)
    ns = d * 1000
    if ns != ns.to_integral_value() or ns < 0:
        problem(f"{what}: {value} is not a whole, positive number of ns")
    return int(ns)


def check_perfetto(args):
    path, tenancy_path = args[0], args[1]
    rest = args[2:]
    threads_selected = False
    exclude = set()
    names_wanted = []
    comms_wanted = []
    while rest:
        opt = rest.pop(0)
        if opt == "--threads-selected":
            threads_selected = True
        elif opt == "--exclude-pid":
            exclude.add(int(rest.pop(0)))
        elif opt == "--thread":
            names_wanted.append((int(rest.pop(0)), int(rest.pop(0)),
                                 rest.pop(0)))
        elif opt == "--comms":
            comms_wanted.append((int(rest.pop(0)), int(rest.pop(0)),
                                 set(rest.pop(0).split(","))))
        else:
            sys.exit(f"unknown option {opt}")

    with open(path, encoding="utf-8") as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    events = doc["traceEvents"]
    # the time base: ts 0 in CLOCK_REALTIME, and the recording's start on
    # the ts axis, agree with the recording's start; no unit to misread
    if "displayTimeUnit" in doc:
        problem("displayTimeUnit is set: older viewers misread ts by it")
    other = doc["otherData"]
    start_ns = us_to_ns(other["start_us"], "start_us")
    if int(other["origin_realtime_ns"]) + start_ns != \
            int(other["start_realtime_ns"]):
        problem(f"origin_realtime_ns {other['origin_realtime_ns']} + "
                f"start_us {other['start_us']} is not start_realtime_ns "
                f"{other['start_realtime_ns']}")
    threads, processes = {}, {}
    for e in events:
        if e["ph"] == "M" and e["name"] == "thread_name":
            key = (e["pid"], e["tid"])
            if key in threads:
                problem(f"thread {key} named twice")
            threads[key] = e["args"]["name"]
        if e["ph"] == "M" and e["name"] == "process_name":
            processes[e["pid"]] = e["args"]["name"]

    tracks = defaultdict(list)
    running = defaultdict(int)          # tid -> ns
    cpu_busy = defaultdict(int)         # cpu -> ns
    comms = defaultdict(set)            # (pid, tid) -> names while running
    for e in events:
        if e["ph"] != "X":
            continue
        key = (e["pid"], e["tid"])
        what = f"slice {e['name']} of {key} at {e['ts']}"
        if key not in threads:
            problem(f"{what}: no thread_name for its pid/tid")
        if e["pid"] not in processes:
            problem(f"{what}: no process_name for its pid")
        start = us_to_ns(e["ts"], what)
        dur = us_to_ns(e["dur"], what)
        tracks[key].append((start, start + dur, e["name"]))
        if e["pid"] == CPUS_PID:
            if e["args"].get("pid") not in exclude:
                cpu_busy[e["tid"] - CPUS_PID - 1] += dur
            continue
        if e["cat"] == "oncpu":
            if e["pid"] not in exclude:
                running[e["tid"]] += dur
            comms[key].add(e["args"]["comm"])
        elif e["cat"] != "offcpu":
            problem(f"{what}: category {e['cat']}")
    for key, slices in tracks.items():
        slices.sort()
        for a, b in zip(slices, slices[1:]):
            if b[0] < a[1]:
                problem(f"track {key}: {b} overlaps {a}")

    oncpu = defaultdict(int)
    per_cpu = defaultdict(int)
    with open(tenancy_path, newline="", errors="replace") as f:
        for row in csv.DictReader(f):
            tid = int(row["tid"])
            if tid > 0:     # not idle (0), not time not known (-1)
                oncpu[tid] += int(row["oncpu_ns"])
                per_cpu[int(row["cpu"])] += int(row["oncpu_ns"])
    if dict(running) != dict(oncpu):
        problem(f"running per tid {dict(running)} != tenancy {dict(oncpu)}")
    if not threads_selected and dict(cpu_busy) != dict(per_cpu):
        problem(f"CPU tracks {dict(cpu_busy)} != tenancy {dict(per_cpu)}")
    for pid, tid, name in names_wanted:
        if threads.get((pid, tid)) != name:
            problem(f"thread {pid}/{tid} is {threads.get((pid, tid))!r}, "
                    f"not {name!r}")
    for pid, tid, names in comms_wanted:
        if comms[(pid, tid)] != names:
            problem(f"thread {pid}/{tid} ran as {comms[(pid, tid)]}, "
                    f"not {names}")
    finish()


def load_npz(data, name):
    """The one array of a .npz held in @data, checked as zip first."""
    import numpy as np
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        bad = z.testzip()
        if bad:
            problem(f"{name}: member {bad} fails its CRC")
        members = z.namelist()
        if members != [name + ".npy"]:
            problem(f"{name}: members {members}")
    npz = np.load(io.BytesIO(data))
    if npz.files != [name]:
        problem(f"{name}: arrays {npz.files}")
    return npz[name]


def check_schedlog(args):
    try:
        import numpy as np
    except ImportError:
        print("no numpy: apt-get install python3-numpy")
        sys.exit(SKIP)
    columns = ["timestamp", "pid", "event", "cpu", "arg0", "arg1"]
    wanted = ["sched_log_traced_events.start"] + \
        [c + ".npz" for c in columns]
    arrays = {}
    table = {}
    # as SchedDisplay opens it: an uncompressed tar, np.load per member
    with tarfile.open(args[0], "r:") as tar:
        if tar.getnames() != wanted:
            problem(f"members {tar.getnames()}, not {wanted}")
        for m in tar:
            data = tar.extractfile(m).read()
            if m.name.endswith(".npz"):
                name = m.name[:-4]
                arrays[name] = load_npz(data, name)
                direct = np.load(tar.extractfile(m))[name]
                if not np.array_equal(direct, arrays[name]):
                    problem(f"{m.name} reads differently from the tar")
            else:
                for line in data.decode().split("\n"):
                    if not line:
                        break
                    value, key = line.split(" ")
                    table[key] = int(value)
    lengths = {k: len(v) for k, v in arrays.items()}
    if len(set(lengths.values())) != 1:
        problem(f"columns of unequal length: {lengths}")
    for k, v in arrays.items():
        if v.dtype != np.dtype("<i8") or v.ndim != 1:
            problem(f"{k}: dtype {v.dtype}, {v.ndim} dimensions")
    if len(set(table.values())) != len(table):
        problem(f"event ids repeat: {table}")
    used = set(int(e) for e in arrays.get("event", []))
    if not used <= set(table.values()):
        problem(f"event ids {used - set(table.values())} not in the table")
    print(f"rows {len(arrays.get('timestamp', []))}")
    if len(args) > 1:
        names = {v: k for k, v in table.items()}
        got = [" ".join([str(int(arrays["timestamp"][i])),
                         str(int(arrays["pid"][i])),
                         names.get(int(arrays["event"][i]), "?"),
                         str(int(arrays["cpu"][i])),
                         str(int(arrays["arg0"][i])),
                         str(int(arrays["arg1"][i]))])
               for i in range(len(arrays["timestamp"]))]
        with open(args[1]) as f:
            want = [line.strip() for line in f if line.strip()]
        if got != want:
            for i, (g, w) in enumerate(zip(got + [""] * len(want),
                                           want + [""] * len(got))):
                if g != w:
                    problem(f"row {i}: got {g!r}, want {w!r}")
    finish()


def check_npz(args):
    try:
        import numpy as np
    except ImportError:
        print("no numpy: apt-get install python3-numpy")
        sys.exit(SKIP)
    path, name, dtype, values = args[:4]
    with open(path, "rb") as f:
        data = f.read()
    a = load_npz(data, name)
    want = np.array([int(v) for v in values.split(",") if v], dtype=dtype)
    if a.dtype != want.dtype or not np.array_equal(a, want):
        problem(f"{a.dtype} {a.tolist()} != {want.dtype} {want.tolist()}")
    if "--zip64" in args[4:]:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            if not z.infolist()[0].extra.startswith(b"\x01\x00"):
                problem("no zip64 extra field")
        if b"PK\x06\x06" not in data or b"PK\x06\x07" not in data:
            problem("no zip64 end of central directory")
    finish()


def check_csv(args):
    with open(args[0], newline="", errors="replace") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    for i, row in enumerate(rows[1:], 2):
        if len(row) != len(header):
            problem(f"line {i}: {len(row)} columns, the header "
                    f"{len(header)}")
    if len(rows) - 1 != int(args[1]):
        problem(f"{len(rows) - 1} rows, want {args[1]}")
    finish()


if __name__ == "__main__":
    checks = {"perfetto": check_perfetto, "schedlog": check_schedlog,
              "npz": check_npz, "csv": check_csv}
    if len(sys.argv) < 3 or sys.argv[1] not in checks:
        sys.exit(__doc__)
    checks[sys.argv[1]](sys.argv[2:])
