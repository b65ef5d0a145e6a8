#!/usr/bin/env python3
"""Turns the measurements of one bench.sh run into a Markdown report.

    report.py --work bench-work --mode quick|full > results.md

Reads results-MODE-{compare,tiny,growth}.jsonl (one record per run, from measure.py),
verdict-MODE.json (check.py) and info-MODE.json (machine and versions).
Medians over repetitions; CPU = user + sys of the tool and all its processes; ratio = the
peer's median wall time / ThumbForge's on the same corpus (> 1 means ThumbForge is faster).
Times come from the full builds' timed runs (section `compare`, nothing sampling beside them);
the largest process's peak RSS from every run, the process tree's from the runs that sampled it
(section `compare-rss`).

With verdict-MODE.previous.json and info-MODE.previous.json (bench.sh keeps the previous
comparison's), the issue 26 table also says whether ThumbForge's outputs kept their bytes.
"""
import argparse
import json
import os
import statistics

LABELS = {
    "thumbforge": "ThumbForge (default --jobs)",
    "pillow-simd": "Pillow-SIMD, Pool(2)",
    "pillow": "Pillow, Pool(2)",
    "pyvips-thumbnail": "pyvips thumbnail per output, Pool(2)",
    "pyvips-derive": "pyvips decode once + derive, Pool(2)",
    "vipsthumbnail": "vipsthumbnail per output, xargs -P2",
}
ORDER = list(LABELS)


def load(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def load_json(path):
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def med(values):
    return statistics.median(values) if values else float("nan")


def fmt(x, digits=2):
    return "–" if x != x else f"{x:.{digits}f}"


def timed(records):
    """The runs whose times count: the full builds' timed runs (and every run of the other
    sections), not the runs that sampled the process tree's memory."""
    return [r for r in records if r["section"] != "compare-rss"]


def targets(compare, tiny, growth, corpora, verdicts):
    """Issue 6's targets, as ThumbForge's figure ÷ the peer's (ratios of median walls)."""
    rows = []

    def wall(corpus, tool):
        runs = [r["wall"] for r in timed(compare) if r["corpus"] == corpus and r["tool"] == tool and r["rc"] == 0]
        return med(runs) if runs else None

    for corpus in corpora:
        tf = wall(corpus, "thumbforge")
        if tf is None:
            continue
        for tool, limit in (("pillow-simd", 1.0), ("pyvips-thumbnail", 0.3), ("pyvips-derive", 0.3),
                            ("vipsthumbnail", 0.2)):
            peer = wall(corpus, tool)
            if peer is None:
                continue
            ratio = tf / peer
            rows.append((f"`{corpus}`: ThumbForge wall ÷ {tool}", f"≤ {limit:.1f}", f"{ratio:.2f}", ratio <= limit))
        if corpus.startswith("large"):
            rss = max(r["maxrss_mb"] for r in compare if r["corpus"] == corpus and r["tool"] == "thumbforge")
            rows.append((f"`{corpus}`: ThumbForge peak RSS", "≤ 250 MB", f"{rss:.0f} MB", rss <= 250))
    if growth:
        sizes = []
        for r in growth:
            if r["corpus"] not in sizes:
                sizes.append(r["corpus"])
        first = med([r["maxrss_mb"] for r in growth if r["corpus"] == sizes[0]])
        last = med([r["maxrss_mb"] for r in growth if r["corpus"] == sizes[-1]])
        pct = (last / first - 1) * 100
        a, b = sizes[0].split("-")[-1], sizes[-1].split("-")[-1]
        rows.append((f"peak RSS growth {a} → {b} photos", "< 10 % (100 → 400)", f"{pct:+.1f} %",
                     (pct < 10) if (a, b) == ("100", "400") else None))
        rss = max(r["maxrss_mb"] for r in growth)
        rows.append(("peak RSS over the growth series", "≤ 250 MB", f"{rss:.0f} MB", rss <= 250))
    for section, label, limit in (("tiny-rebuild", "no-change rebuild", 1.0), ("tiny-check", "`check`", 2.0)):
        runs = [r for r in tiny if r["section"] == section]
        if runs:
            value = med([r["wall"] for r in runs])
            n = runs[0]["corpus"].split("-")[-1]
            ok = value <= limit if n == "10000" else None  # the target is for 10 000 sources
            rows.append((f"{label}, {n} sources", f"≤ {limit:.0f} s (10 000 sources)", f"{value:.2f} s", ok))
    if not rows:
        return []
    out = ["## Issue 6 targets", "", "| target | limit | measured | met |", "|---|---|---:|---|"]
    met = {True: "yes", False: "**no**", None: "n/a (smaller corpus than the target's)"}
    out += [f"| {a} | {b} | {c} | {met[ok]} |" for a, b, c, ok in rows]
    return out + [""]


def issue26(compare, corpora, verdicts, previous, previous_info):
    """Issue 26's targets, from this run alone: per corpus, ThumbForge's wall ÷ Pillow-SIMD's,
    output bytes ÷ Pillow-SIMD's, cores busy, peak RSS against Pillow-SIMD's process tree,
    and whether ThumbForge's outputs have the previous run's bytes; then each repetition.

    Wall ratio: of the medians (as in the tables above), with the median and range of the
    per-repetition ratios beside it (each repetition runs the tools back to back, so its
    ratio is less exposed to the machine's speed changing over the run). Cores busy: a
    run's CPU ÷ its wall, median over the repetitions, with their range."""
    limits = {"small": 0.6}
    rows, reps_lines = [], []
    for corpus in corpora:
        if corpus != "small" and not corpus.startswith("large"):
            continue
        runs = {t: {r["rep"]: r for r in timed(compare)
                    if r["corpus"] == corpus and r["tool"] == t and r["rc"] == 0}
                for t in ("thumbforge", "pillow-simd")}
        tf, simd = runs["thumbforge"], runs["pillow-simd"]
        if not tf or not simd:
            continue
        limit = limits.get(corpus, 0.5)
        ratio = med([r["wall"] for r in tf.values()]) / med([r["wall"] for r in simd.values()])
        paired = [tf[k]["wall"] / simd[k]["wall"] for k in sorted(set(tf) & set(simd))]
        rows.append((f"`{corpus}`: wall ÷ Pillow-SIMD's", f"≤ {limit}",
                     f"{ratio:.3f} (per repetition: median {med(paired):.3f}, "
                     f"{min(paired):.3f}–{max(paired):.3f})", ratio <= limit))
        v = verdicts.get(corpus, {})
        if "bytes" in v.get("thumbforge", {}) and "bytes" in v.get("pillow-simd", {}):
            share = v["thumbforge"]["bytes"] / v["pillow-simd"]["bytes"]
            rows.append((f"`{corpus}`: output bytes ÷ Pillow-SIMD's", "≤ 1",
                         f"{share:.4f} ({v['thumbforge']['bytes']:,} / {v['pillow-simd']['bytes']:,})",
                         share <= 1))
        cores = [(r["user"] + r["sys"]) / r["wall"] for r in tf.values()]
        rows.append((f"`{corpus}`: cores busy (CPU ÷ wall)", "≥ 1.8",
                     f"{med(cores):.3f} ({min(cores):.3f}–{max(cores):.3f})", med(cores) >= 1.8))
        every = [r for r in compare if r["corpus"] == corpus and r["rc"] == 0]
        tf_rss = max(r["maxrss_mb"] for r in every if r["tool"] == "thumbforge")
        trees = [r["tree_rss_mb"] for r in every if r["tool"] == "pillow-simd" and r.get("tree_rss_mb") is not None]
        if trees:
            rows.append((f"`{corpus}`: peak RSS ≤ Pillow-SIMD's (its process tree)", "≤ 1",
                         f"{tf_rss:.0f} vs {max(trees):.0f} MB", tf_rss <= max(trees)))
        now = v.get("thumbforge", {}).get("hashes")
        before = previous.get(corpus, {}).get("thumbforge", {}).get("hashes")
        if now and before:
            differ = sorted(p for p in set(now) | set(before) if now.get(p) != before.get(p))
            source = previous_info.get("source", "an unrecorded source")
            state = "all identical" if not differ else f"{len(differ)} of {len(now)} differ, e.g. {differ[0]}"
            rows.append((f"`{corpus}`: ThumbForge's outputs against the previous run ({source}, "
                         f"{previous_info.get('date', '?')})", "same bytes unless a default changed",
                         state, None if differ else True))
        reps_lines += [f"| {corpus} | {k} | {tf[k]['wall']:.3f} | {tf[k]['user'] + tf[k]['sys']:.3f} | "
                       f"{(tf[k]['user'] + tf[k]['sys']) / tf[k]['wall']:.2f} | {simd[k]['wall']:.3f} | "
                       f"{tf[k]['wall'] / simd[k]['wall']:.3f} |" for k in sorted(set(tf) & set(simd))]
    if not rows:
        return []
    met = {True: "yes", False: "**no**", None: "see the change"}
    out = ["## Issue 26 targets", "", "| target | limit | measured | met |", "|---|---|---|---|"]
    out += [f"| {a} | {b} | {c} | {met[ok]} |" for a, b, c, ok in rows]
    out += ["", "| corpus | repetition | ThumbForge wall s | CPU s | cores | Pillow-SIMD wall s | ratio |",
            "|---|---:|---:|---:|---:|---:|---:|"] + reps_lines
    return out + [""]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--mode", required=True)
    args = ap.parse_args()
    w, m = args.work, args.mode
    info = load_json(os.path.join(w, f"info-{m}.json"))
    verdicts = load_json(os.path.join(w, f"verdict-{m}.json"))
    compare = load(os.path.join(w, f"results-{m}-compare.jsonl"))
    previous = load_json(os.path.join(w, f"verdict-{m}.previous.json"))
    previous_info = load_json(os.path.join(w, f"info-{m}.previous.json"))
    tiny = load(os.path.join(w, f"results-{m}-tiny.jsonl"))
    growth = load(os.path.join(w, f"results-{m}-growth.jsonl"))
    labels = dict(LABELS)
    if info.get("simd_label"):
        labels["pillow-simd"] = info["simd_label"] + ", Pool(2)"

    lines = [f"# ThumbForge benchmark ({m} mode)", ""]
    if info:
        lines += ["| machine | |", "|---|---|"]
        facts = {**info.get("machine", {}), **info.get("tools", {}), **info.get("tools", {}).get("peers", {})}
        facts.pop("peers", None)
        facts.update({k: info[k] for k in ("date", "load", "load_end", "source", "reps", "command") if k in info})
        for key, value in facts.items():
            if isinstance(value, list):
                value = " ".join(value)
            lines.append(f"| {key.replace('_', ' ')} | {value} |")
        lines.append("")

    corpora = []
    for r in compare:
        if r["corpus"] not in corpora:
            corpora.append(r["corpus"])
    for corpus in corpora:
        rows = [r for r in compare if r["corpus"] == corpus]
        desc = info.get("corpora", {}).get(corpus, "")
        lines += [f"## Full build: `{corpus}` {desc}", ""]
        plan_verdict = verdicts.get(corpus, {}).get("_plan")
        if plan_verdict and not plan_verdict["valid"]:
            lines += ["**The benchmark's plan and ThumbForge's manifest disagree; see the check output.**", ""]
        lines += ["| tool | wall s (median) | CPU s | peak RSS MB (largest process) | peak RSS MB (process tree) | outputs/s | wall ÷ ThumbForge's | check |",
                  "|---|---:|---:|---:|---:|---:|---:|---|"]
        tf_wall = med([r["wall"] for r in timed(rows) if r["tool"] == "thumbforge" and r["rc"] == 0])
        tools = [t for t in ORDER if any(r["tool"] == t for r in rows)]
        for tool in tools:
            runs = [r for r in rows if r["tool"] == tool]
            ok = [r for r in runs if r["rc"] == 0]
            verdict = verdicts.get(corpus, {}).get(tool)
            if not ok:
                lines.append(f"| {labels[tool]} | FAILED (exit {runs[0]['rc']}) | | | | | | |")
                continue
            wall = med([r["wall"] for r in timed(ok)])
            cpu = med([r["user"] + r["sys"] for r in timed(ok)])
            rss = max(r["maxrss_mb"] for r in ok)
            trees = [r["tree_rss_mb"] for r in ok if r.get("tree_rss_mb") is not None]
            tree = max(trees) if trees else float("nan")
            outputs = ok[0]["outputs"]
            if verdict is None:
                state = "not checked"
            elif verdict["valid"]:
                state = f"ok ({verdict['checked']}/{verdict['expected']})"
            else:
                state = f"**INVALID** ({len(verdict['problems'])} problems)"
            ratio = "1.00" if tool == "thumbforge" else fmt(wall / tf_wall)
            name = labels[tool]
            if verdict is not None and not verdict["valid"]:
                name += " (INVALID)"
            lines.append(f"| {name} | {fmt(wall)} | {fmt(cpu)} | {fmt(rss, 0)} | {fmt(tree, 0)} | "
                         f"{fmt(outputs / wall, 1)} | {ratio} | {state} |")
        sampled = len(set(r["rep"] for r in rows if r["section"] == "compare-rss"))
        lines += ["", f"{len(set(r['rep'] for r in timed(rows)))} timed repetition(s) and {sampled} with the "
                  "process trees' memory sampled, round-robin over the tools; every tool starts from an "
                  "empty output folder.", ""]

    if tiny:
        lines += ["## Incremental: ThumbForge on tiny sources", "",
                  "| run | corpus | wall s (median) | CPU s | peak RSS MB | reps |", "|---|---|---:|---:|---:|---:|"]
        for section, label in (("tiny-initial", "first full build"), ("tiny-rebuild", "no-change rebuild"),
                               ("tiny-check", "`thumbforge check`")):
            runs = [r for r in tiny if r["section"] == section]
            if not runs:
                continue
            note = " (FAILED)" if any(r["rc"] != 0 for r in runs) else ""
            lines.append(f"| {label}{note} | {runs[0]['corpus']} | {fmt(med([r['wall'] for r in runs]), 3)} | "
                         f"{fmt(med([r['user'] + r['sys'] for r in runs]), 3)} | "
                         f"{fmt(max(r['maxrss_mb'] for r in runs), 0)} | {len(runs)} |")
        if info.get("tiny_note"):
            lines += ["", info["tiny_note"]]
        lines.append("")

    if growth:
        lines += ["## ThumbForge peak RSS as the photo corpus grows", "",
                  "| photos | outputs | wall s (median) | peak RSS MB (median) | vs smallest |", "|---:|---:|---:|---:|---:|"]
        sizes = []
        for r in growth:
            if r["corpus"] not in sizes:
                sizes.append(r["corpus"])
        first = None
        for corpus in sizes:
            runs = [r for r in growth if r["corpus"] == corpus]
            rss = med([r["maxrss_mb"] for r in runs])
            first = first or rss
            photos = corpus.split("-")[-1]
            lines.append(f"| {photos} | {runs[0]['outputs']} | {fmt(med([r['wall'] for r in runs]))} | "
                         f"{fmt(rss, 0)} | {(rss / first - 1) * 100:+.1f} % |")
        lines.append("")

    lines += targets(compare, tiny, growth, corpora, verdicts)
    lines += issue26(compare, corpora, verdicts, previous, previous_info)
    lines += ["Peak RSS (largest process) is GNU time's %M (ru_maxrss), the largest of every run; the "
              "process-tree figure is sampled every 20 ms in runs of its own (the sampler's wake-ups "
              "would take turns from the timed runs' threads) and sums every process (Pool workers, "
              "xargs children). "
              "Outputs are verified by Scripts/bench/check.py: count, format, exact pixel size, "
              "flag alpha (transparent corners, opaque centre, anti-aliased edge, dark border) "
              "and a content fingerprint against the master.", ""]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
