#!/usr/bin/env python3
"""Turns one bench.sh run's raw measurements (bench-work/results-MODE-*.jsonl, verdict-MODE.json,
info-MODE.json) into result files (record.py): full-builds.json from the comparison,
incremental.json from the tiny-source and growth sections; `-quick` is appended to both
names in quick mode. Then compares each with its baseline, or records it (--record).

    bench_results.py --work bench-work --mode full|quick --sections compare,tiny,growth
                     --command "Scripts/bench.sh ..." [--record]

Exit status 1 when a gated figure regressed beyond the noise (see record.py).
"""
import argparse
import json
import os
import statistics
import sys

import record
from report import load as load_lines

TOOLS = {
    "thumbforge": "ThumbForge",
    "pillow-simd": "Pillow-SIMD",
    "pillow": "Pillow",
    "pyvips-thumbnail": "pyvips, `thumbnail` per output",
    "pyvips-derive": "pyvips, decode once + derive",
    "vipsthumbnail": "vipsthumbnail per output",
}


def cpu(r):
    return r["user"] + r["sys"]


def full_builds(compare, verdicts, info):
    """One table per corpus (every tool) and one of ThumbForge against Pillow-SIMD."""
    tables, simd = {}, {}
    corpora = list(dict.fromkeys(r["corpus"] for r in compare))
    for corpus in corpora:
        name = "small" if corpus == "small" else "large"
        ok = [r for r in compare if r["corpus"] == corpus and r["rc"] == 0]
        timed = {t: {r["rep"]: r for r in ok if r["tool"] == t and r["section"] == "compare"} for t in TOOLS}
        tf = timed["thumbforge"]
        if not tf:
            continue
        rows = {}
        for tool, label in TOOLS.items():
            runs = timed[tool]
            if not runs:
                continue
            every = [r for r in ok if r["tool"] == tool]
            trees = [r["tree_rss_mb"] for r in every if r.get("tree_rss_mb") is not None]
            paired = [tf[k]["wall"] / runs[k]["wall"] for k in sorted(set(tf) & set(runs))]
            verdict = verdicts.get(corpus, {}).get(tool)
            rows[label] = {
                "wall s": record.figure([r["wall"] for r in runs.values()]),
                "CPU s": record.figure([cpu(r) for r in runs.values()]),
                "peak RSS MB": record.figure([r["maxrss_mb"] for r in every], of=max),
                "process tree MB": record.figure(trees, of=max) if trees else None,
                "ThumbForge ÷ tool (wall)": record.figure(paired, gate=tool != "thumbforge"),
                "outputs checked": "not checked" if verdict is None else
                f"{verdict['checked']}/{verdict['expected']} " + ("ok" if verdict["valid"] else "INVALID"),
            }
        reps = len(tf)
        sampled = len({r["rep"] for r in ok if r["section"] == "compare-rss"})
        tables[name] = {
            "key": "tool", "rows": rows,
            "note": f"`{corpus}` {info.get('corpora', {}).get(corpus, '')}: medians of {reps} timed runs; "
                    f"peak RSS: the largest process over all {reps + sampled} runs, process tree: "
                    f"sampled in {sampled} runs of their own; ThumbForge ÷ tool: the median of the "
                    "repetitions' ratios (each repetition runs the tools back to back)."}
        peer = timed["pillow-simd"]
        if not peer:
            continue
        paired = [tf[k]["wall"] / peer[k]["wall"] for k in sorted(set(tf) & set(peer))]
        v = verdicts.get(corpus, {})
        tf_bytes, simd_bytes = v.get("thumbforge", {}).get("bytes"), v.get("pillow-simd", {}).get("bytes")
        trees = [r["tree_rss_mb"] for r in ok if r["tool"] == "pillow-simd" and r.get("tree_rss_mb")]
        simd[name] = {
            "wall ÷ Pillow-SIMD's": record.figure(paired),
            "lowest and highest repetition": [record.sig(min(paired)), record.sig(max(paired))],
            "output bytes ÷ Pillow-SIMD's": record.sig(tf_bytes / simd_bytes, 4) if tf_bytes and simd_bytes else None,
            "output bytes, ThumbForge": tf_bytes,
            "output bytes, Pillow-SIMD": simd_bytes,
            "cores busy (CPU ÷ wall)": record.figure([cpu(r) / r["wall"] for r in tf.values()]),
            "peak RSS MB, ThumbForge": record.sig(max(r["maxrss_mb"] for r in ok if r["tool"] == "thumbforge")),
            "peak RSS MB, Pillow-SIMD's process tree": record.sig(max(trees)) if trees else None,
        }
    if simd:
        rows = {}
        for column, figures in simd.items():
            for row, cell in figures.items():
                rows.setdefault(row, {})[column] = cell
        tables["pillow-simd"] = {"key": "", "rows": rows}
    return tables


def incremental(tiny, growth):
    tables = {}
    if tiny:
        rows = {}
        labels = {"tiny-initial": "first build", "tiny-rebuild": "no-change rebuild",
                  "tiny-check": "`check`", "assets-rebuild": "no-change build of the sample folder (`Assets/`)"}
        for section, label in labels.items():
            runs = [r for r in tiny if r["section"] == section]
            if not runs:
                continue
            if section.startswith("tiny"):
                label = f"{int(runs[0]['corpus'].split('-')[-1]):,} tiny sources: {label}".replace(",", " ")
            failed = [r["rc"] for r in runs if r["rc"] != 0]
            rows[label + (f" (FAILED, exit {failed[0]})" if failed else "")] = {
                "wall s": record.figure([r["wall"] for r in runs], gate=True),
                "CPU s": record.figure([cpu(r) for r in runs]),
                "peak RSS MB": record.figure([r["maxrss_mb"] for r in runs], of=max),
            }
        tables["incremental"] = {"key": "build", "rows": rows,
                                 "note": "Medians of the repetitions; peak RSS: the largest of them."}
    if growth:
        rows = {}
        for corpus in dict.fromkeys(r["corpus"] for r in growth):
            runs = [r for r in growth if r["corpus"] == corpus]
            rows[corpus.split("-")[-1]] = {
                "outputs": runs[0]["outputs"],
                "wall s": record.figure([r["wall"] for r in runs], gate=True),
                "peak RSS MB": record.figure([r["maxrss_mb"] for r in runs]),
            }
        reps = len(growth) // len(rows)
        tables["growth"] = {"key": "photos", "rows": rows,
                            "note": f"Full builds of the large corpus at each size, medians of {reps}."}
    return tables


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", required=True)
    parser.add_argument("--mode", required=True)
    parser.add_argument("--sections", default="compare,tiny,growth")
    parser.add_argument("--command", required=True)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    w, m = args.work, args.mode
    sections = args.sections.split(",")
    suffix = "" if m == "full" else f"-{m}"
    with open(os.path.join(w, f"info-{m}.json")) as f:
        info = json.load(f)
    about = {"machine": info["machine"], "tools": info["tools"]}
    docs = []
    compare = load_lines(os.path.join(w, f"results-{m}-compare.jsonl")) if "compare" in sections else []
    if compare:
        path = os.path.join(w, f"verdict-{m}.json")
        verdicts = json.load(open(path)) if os.path.exists(path) else {}
        photos = next(r["corpus"] for r in compare if r["corpus"].startswith("large")).split("-")[-1]
        docs.append(record.document(
            "full-builds" + suffix, "Full builds against other tools", args.command,
            full_builds(compare, verdicts, info), {"mode": m, "corpora": info.get("corpora", {}),
                                                   "photos": int(photos)}, about))
    tiny = load_lines(os.path.join(w, f"results-{m}-tiny.jsonl")) if "tiny" in sections else []
    growth = load_lines(os.path.join(w, f"results-{m}-growth.jsonl")) if "growth" in sections else []
    if tiny or growth:
        docs.append(record.document(
            "incremental" + suffix, "Incremental builds and large folders", args.command,
            incremental(tiny, growth),
            {"mode": m, "tiny": next((r["corpus"] for r in tiny), None),
             "growth": list(dict.fromkeys(r["corpus"] for r in growth)) or None}, about))
    # What else ran on the machine: the load averages bench.sh noted at the start and the end.
    conditions = {key: [float(x) for x in info[key].split(":")[1].split()]
                  for key in ("load", "load_end") if ":" in info.get(key, "")}
    status = 0
    for doc in docs:
        doc["conditions"] = {"load_average_at_start": conditions.get("load"),
                             "load_average_at_end": conditions.get("load_end")}
        status |= record.finish(doc, args.record)
    sys.exit(status)


if __name__ == "__main__":
    main()
