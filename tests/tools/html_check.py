#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of `schedrec report html`'s page that want a real HTML parser:
html_test.c runs them.  Each prints what is wrong and exits 1, or prints
"ok" (and what it was asked to print) and exits 0.

  html_check.py page DIR [--views N]
      DIR/index.html is well-formed (every element closed, in order), has
      the page's parts (summary, heat map, the second's views, the
      tables), references only files that exist in DIR (href, src, data
      and the views' files), holds no http:// or https:// address, and
      has N per-second views; prints "trace T" (the trace's path in the
      views' data), "views S,S,..." (their seconds, the busiest first),
      "second S" (the one shown when the page opens) and "summary: ..."
      (the text of the recording's section).
  html_check.py table DIR NAME CSV [--limit N]
      the table of report part NAME (id table-NAME) of DIR/index.html has the columns of the CSV file
      (data-col) and its rows, cell by cell (a cell's data-v, else its
      text), the first N of them (default 200).
"""
import csv
import json
import os
import re
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}
problems = []


def problem(msg):
    problems.append(msg)


def finish(lines=()):
    for p in problems[:20]:
        print(p)
    if problems:
        sys.exit(1)
    for line in lines:
        print(line)
    print("ok")
    sys.exit(0)


class Page(HTMLParser):
    """The elements of a page: its structure checked as it is read."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.ids = {}
        self.refs = []
        self.tables = {}
        self.table = None	# [columns, rows] being read
        self.cell = None	# [data-v or None, text]
        self.script_id = None
        self.scripts = {}
        self.summary_depth = None
        self.summary = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in VOID:
            self.stack.append(tag)
        if "id" in a:
            if a["id"] in self.ids:
                problem(f"id {a['id']} twice")
            self.ids[a["id"]] = (tag, a)
        for key in ("href", "src", "data"):
            if key in a and not (key == "data" and tag != "object"):
                self.refs.append(a[key])
        if tag == "table" and "id" in a:
            self.table = [[], []]
            self.tables[a["id"]] = self.table
        elif tag == "th" and self.table is not None:
            self.table[0].append(a.get("data-col"))
        elif tag == "tr" and self.table is not None and \
                "tbody" in self.stack:
            self.table[1].append([])
        elif tag == "td" and self.table is not None:
            self.cell = [a.get("data-v"), ""]
        elif tag == "script":
            self.script_id = a.get("id", "")
            self.scripts[self.script_id] = ""
        if tag == "section" and a.get("id") == "summary":
            self.summary_depth = len(self.stack)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            problem(f"line {self.getpos()[0]}: </{tag}> closes "
                    f"<{self.stack[-1] if self.stack else 'nothing'}>")
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
            return
        if tag == "section" and self.summary_depth == len(self.stack):
            self.summary_depth = None
        self.stack.pop()
        if tag == "td" and self.cell is not None:
            v, text = self.cell
            self.table[1][-1].append(v if v is not None else text)
            self.cell = None
        elif tag == "table":
            self.table = None
        elif tag == "script":
            self.script_id = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1] += data
        if self.script_id is not None:
            self.scripts[self.script_id] += data
        if self.summary_depth is not None:
            self.summary.append(data)


def read_page(d):
    path = os.path.join(d, "index.html")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    page = Page()
    page.feed(text)
    page.close()
    if page.stack:
        problem(f"elements never closed: {page.stack}")
    return text, page


def check_page(args):
    d = args[0]
    views_wanted = None
    if "--views" in args:
        views_wanted = int(args[args.index("--views") + 1])
    text, page = read_page(d)
    m = re.search(r"https?://", text)
    if m:
        problem(f"an address needs the network: "
                f"{text[max(0, m.start() - 40):m.end() + 40]!r}")
    if not text.startswith("<!DOCTYPE html>"):
        problem("no <!DOCTYPE html>")
    for want in ("summary", "heatmap", "heat", "second", "second-title",
                 "second-timeline", "second-flame", "offcpu", "tenancy",
                 "states", "latency", "flame", "files", "loss",
                 "views-data", "table-offcpu", "table-tenancy",
                 "table-states", "table-states-usurpers", "table-latency",
                 "table-latency-wakers"):
        if want not in page.ids:
            problem(f"no element with id {want}")
    if page.ids.get("heat", ("",))[0] != "svg":
        problem("the heat map is not an inline <svg>")
    data = json.loads(page.scripts.get("views-data", "{}"))
    refs = list(page.refs)
    for v in data.get("views", []):
        for kind in ("timeline", "flame"):
            refs += [v[kind]["src"], v[kind]["text"]]
            if not (v[kind]["w"] > 0 and v[kind]["h"] > 0):
                problem(f"second {v['second']}: {kind} has no size")
    for ref in refs:
        if ref.startswith("#"):
            if ref[1:] not in page.ids:
                problem(f"link to #{ref[1:]}, which is not in the page")
            continue
        if ":" in ref or ref.startswith("/") or ".." in ref.split("/"):
            problem(f"{ref}: not a file of the directory")
            continue
        if not os.path.isfile(os.path.join(d, ref)):
            problem(f"{ref}: no such file in {d}")
    views = [str(v["second"]) for v in data.get("views", [])]
    if views_wanted is not None and len(views) != views_wanted:
        problem(f"{len(views)} per-second views, not {views_wanted}")
    shown = re.search(r'<h2 id="second-title">Second (\d+)', text)
    summary = " ".join(" ".join(page.summary).split())
    finish([f"trace {data.get('trace')}",
            f"views {','.join(views)}",
            f"second {shown.group(1) if shown else '-'}",
            f"summary: {summary}"])


def check_table(args):
    d, table_id, csv_path = args[0], "table-" + args[1], args[2]
    limit = 200
    if "--limit" in args:
        limit = int(args[args.index("--limit") + 1])
    _, page = read_page(d)
    if table_id not in page.tables:
        problem(f"no table {table_id}")
        finish()
    columns, rows = page.tables[table_id]
    with open(csv_path, newline="", encoding="utf-8") as f:
        want = list(csv.reader(f))
    if not want:
        problem(f"{csv_path} is empty")
        finish()
    if columns != want[0]:
        problem(f"{table_id}: columns {columns}, CSV {want[0]}")
    want = want[1:]
    if len(rows) != min(len(want), limit):
        problem(f"{table_id}: {len(rows)} rows, CSV {len(want)}")
    for i, (got, exp) in enumerate(zip(rows, want)):
        if got != exp:
            problem(f"{table_id} row {i + 1}: {got} != CSV {exp}")
    finish([f"rows {len(rows)}"])


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    if sys.argv[1] == "page":
        check_page(sys.argv[2:])
    elif sys.argv[1] == "table":
        check_table(sys.argv[2:])
    else:
        print(__doc__)
        sys.exit(2)


main()
