#!/usr/bin/env python3
"""Writes docs/performance.md's tables from the checked-in result files (record.py).

    performance_page.py            rewrite every generated block of the page
    performance_page.py --check    exit 1 when the page differs from what this would write,
                                   or its hand-written prose holds a date, a commit hash, an
                                   issue or run number  [--page FILE: check another copy]

A block is `<!-- generated: WORKLOAD/TABLE -->` … `<!-- end generated -->`: the table TABLE
of Scripts/bench/results/WORKLOAD.json, its note and where it comes from; and
`<!-- generated: environment -->`, the machine and tools of full-builds.json. Everything
outside the blocks is hand-written: what each workload is and how to reproduce it.
"""
import argparse
import difflib
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESULTS = os.path.join(ROOT, "Scripts", "bench", "results")
PAGE = os.path.join(ROOT, "docs", "performance.md")
BLOCK = re.compile(r"(<!-- generated: (\S+) -->\n)(.*?)(<!-- end generated -->)", re.S)
# What the prose may not hold: issue or run numbers, commit hashes, dates.
FORBIDDEN = re.compile(r"issue [0-9]+|run [0-9]+|\b[0-9a-f]{7,40}\b|\b20[0-9]{2}-[01][0-9]-[0-3][0-9]")


def number(x):
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return f"{x:,}".replace(",", " ") if abs(x) >= 10000 else str(x)
    text = f"{x:.6g}"
    return text if "e" not in text else f"{x:f}"


def cell(c):
    if c is None:
        return "–"
    if isinstance(c, dict):
        if "low" in c and "high" in c:  # a median with its interval (mechanisms.py)
            return f"{number(c['value'])} ({number(c['low'])}–{number(c['high'])})"
        return number(c["value"])
    if isinstance(c, list):
        return "–".join(number(x) for x in c)
    if isinstance(c, (int, float)):
        return number(c)
    return str(c)


def source(doc, name):
    path = f"`Scripts/bench/results/{name}.json`"
    if doc.get("provenance", "measured") != "measured":
        version, m = doc["tools"].get("thumbforge"), doc["machine"]
        machine = ", ".join(str(x) for x in (m.get("cpu"), m.get("cores") and f"{m['cores']} cores",
                                             " ".join(m.get("cpu_flags") or [])) if x)
        about = "; ".join(x for x in (version and f"ThumbForge {version}", machine) if x)
        return f"From {path}: {doc['provenance']}" + (f" ({about})." if about else ".")
    m, version = doc["machine"], doc["tools"].get("thumbforge")
    tool = f"ThumbForge {version}, " if version else ""
    return f"From {path}: `{doc['command']}`, {tool}{m['cores']} cores."


def table(doc, name, key):
    t = doc["tables"][key]
    columns = list(dict.fromkeys(c for row in t["rows"].values() for c in row))
    numeric = [all(isinstance(row.get(c), (int, float, dict, list, type(None))) for row in t["rows"].values())
               for c in columns]
    lines = ["| " + " | ".join([t.get("key", "")] + columns) + " |",
             "|---|" + "".join("---:|" if n else "---|" for n in numeric)]
    for row, cells in t["rows"].items():
        lines.append("| " + " | ".join([row] + [cell(cells.get(c)) for c in columns]) + " |")
    lines.append("")
    if t.get("note"):
        lines.append(t["note"])
    lines.append(source(doc, name))
    return "\n".join(lines) + "\n"


def environment(doc):
    m, t = doc["machine"], doc["tools"]
    peers = ", ".join(f"{k} {v}" for k, v in t.get("peers", {}).items())
    flags = " ".join(m.get("cpu_flags", [])) or "none of the SIMD flags"
    noise = [c["noise"] for tbl in doc["tables"].values() for row in tbl["rows"].values()
             for c in row.values() if isinstance(c, dict) and c.get("gate") and c.get("noise") is not None]
    line = (f"The latest full builds ran on **{m['cores']} cores, {m['cpu']}** (CPU flags: {flags}), "
            f"{m['memory_gib']} GiB, {m['os']}; libvips {t.get('libvips')}, {t.get('swift')}, "
            f"ThumbForge {t.get('thumbforge')} (release build, Swift runtime linked statically); "
            f"peers {peers}.")
    load = doc.get("conditions", {})
    if load.get("load_average_at_start") and load.get("load_average_at_end"):
        line += (f" Load average (1, 5, 15 min) at the run's start: "
                 f"{' '.join(map(str, load['load_average_at_start']))}; at its end: "
                 f"{' '.join(map(str, load['load_average_at_end']))}.")
    if noise:
        line += (f" In it the repetitions of a ThumbForge ÷ peer ratio spread by "
                 f"{min(noise):.0%}–{max(noise):.0%} of its median.")
    return line + "\n"


def render(text, docs):
    def block(match):
        what = match.group(2)
        if what == "environment":
            body = environment(docs["full-builds"])
        else:
            name, key = what.split("/", 1)
            if name not in docs or key not in docs[name]["tables"]:
                sys.exit(f"performance_page.py: no table {key} in Scripts/bench/results/{name}.json")
            body = table(docs[name], name, key)
        return match.group(1) + body + match.group(4)
    return BLOCK.sub(block, text)


def prose_problems(text):
    prose = BLOCK.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return [f"{i}: {line}" for i, line in enumerate(prose.splitlines(), 1) if FORBIDDEN.search(line)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--page", default=PAGE)
    args = parser.parse_args()
    docs = {}
    for path in sorted(glob.glob(os.path.join(RESULTS, "*.json"))):
        with open(path) as f:
            docs[os.path.basename(path)[:-5]] = json.load(f)
    with open(args.page) as f:
        text = f.read()
    wanted = render(text, docs)
    if not args.check:
        with open(args.page, "w") as f:
            f.write(wanted)
        return
    status = 0
    if wanted != text:
        sys.stdout.writelines(difflib.unified_diff(
            text.splitlines(True), wanted.splitlines(True), "the page", "generated from the results"))
        print("performance_page.py: the page's tables differ from the result files; "
              "run Scripts/bench/performance_page.py")
        status = 1
    for problem in prose_problems(text):
        print(f"performance_page.py: the page's prose, line {problem}")
        status = 1
    sys.exit(status)


if __name__ == "__main__":
    main()
