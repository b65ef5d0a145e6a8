#!/usr/bin/env python3
"""The wider benchmark: ThumbForge against Pillow-SIMD on the workloads users have beside the
main one (Scripts/bench/workloads/*.yml: enlargements and large PNG outputs, vector masters,
thousands of tiny icons; and the main workload again, for reference in the same run), each on
the corpora it applies to. Recorded as Scripts/bench/results/workloads.json (via record.py).

    workloads.py [--rounds N] [--record] [--only NAME,...]

Run by `Scripts/bench.sh --only workloads` after its build, peers and corpus steps (it uses
their release binary, the Pillow-SIMD venv and bench-work/corpus). Each workload's folder is
the corpus hard-linked with the workload as its thumbforge.yml; plan.py turns it into the
outputs both tools write, check.py verifies both tools' outputs after the timed rounds.

Each round runs, for every workload, ThumbForge and Pillow-SIMD back to back (which first
alternates from round to round) into empty output folders, after a sync; a workload's figure
is the median over rounds of ThumbForge's wall time ÷ Pillow-SIMD's, with its 98 % interval
(record.ratio_figure). Its target: at most 0.6 on the small corpora, 0.5 on the large.
After each pair, ThumbForge's files are written again from memory with no image work (files
alone): the share of its time the file system alone takes.
The result file is rewritten after every round, so a run stopped early keeps what it
finished.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

import record
import runs

ROOT = record.ROOT
BENCH = os.path.join(ROOT, "Scripts", "bench")
WORK = os.path.join(ROOT, "bench-work")
CORPUS = os.path.join(WORK, "corpus")
RUNS = os.path.join(WORK, "runs", "workloads")
TRASH = os.path.join(WORK, "trash")
MAINPY = os.path.join(WORK, "venv", "bin", "python")
SIMDPY = os.path.join(WORK, "venv-simd", "bin", "python")
TF = os.path.join(ROOT, ".build-bench", "release", "thumbforge")

# (name, workload file, corpus in bench-work/corpus, its size class): the size class picks
# the target, ThumbForge ÷ Pillow-SIMD at most 0.6 on the small corpora and 0.5 on the large.
WORKLOADS = [
    ("photos", "thumbforge.yml", "small", "small"),
    ("photos", "thumbforge.yml", "large-8", "large"),
    ("enlarge-png", "workloads/enlarge-png.yml", "small", "small"),
    ("enlarge-png", "workloads/enlarge-png.yml", "large-8", "large"),
    ("vector", "workloads/vector.yml", "svg-40", "small"),
    ("tiny-icons", "workloads/tiny-icons.yml", "tiny-1000", "small"),
]
TARGET = {"small": 0.6, "large": 0.5}


def folder(name, config, corpus):
    """The workload's input folder: the corpus's masters hard-linked, the workload copied in."""
    source = os.path.join(CORPUS, corpus)
    target = os.path.join(RUNS, f"{name}-{corpus}", "in")
    shutil.rmtree(target, ignore_errors=True)
    for root, dirs, files in os.walk(source):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        rel = os.path.relpath(root, source)
        os.makedirs(os.path.join(target, rel), exist_ok=True)
        for f in files:
            if not f.startswith(".") and f != "thumbforge.yml":
                os.link(os.path.join(root, f), os.path.join(target, rel, f))
    shutil.copyfile(os.path.join(BENCH, config), os.path.join(target, "thumbforge.yml"))
    return target


def discard(path):
    """Moves earlier outputs aside (runs.move_aside)."""
    runs.move_aside(path, TRASH)


def timed(command, out):
    """One run into the empty folder `out`: (wall s, CPU s of the process and its children)."""
    discard(out)
    os.makedirs(out)
    os.sync()
    wall, cpu, result, _ = runs.timed_run(command)
    if result.returncode != 0:
        sys.exit(f"workloads.py: {' '.join(command)}: exit {result.returncode}: "
                 f"{result.stderr.decode()[-400:]}")
    return wall, cpu


def files_alone(run):
    """The file system's share: wall seconds to write ThumbForge's last catalog and manifest
    again (every file, each to a temporary name and renamed, as ThumbForge writes them) from
    bytes already in memory, in one process, with no image work."""
    source = os.path.join(run, "thumbforge")
    files = []
    for root, _, names in os.walk(source):
        for name in sorted(names):
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                files.append((os.path.relpath(path, source), f.read()))
    out = os.path.join(run, "files-alone")
    discard(out)
    os.sync()
    start = time.perf_counter()
    made = set()
    for rel, data in files:
        target = os.path.join(out, rel)
        folder = os.path.dirname(target)
        if folder not in made:
            os.makedirs(folder, exist_ok=True)
            made.add(folder)
        temporary = os.path.join(folder, ".tmp-" + os.path.basename(rel))
        with open(temporary, "wb") as f:
            f.write(data)
        os.rename(temporary, target)
    return time.perf_counter() - start


def commands(run, plan):
    tf_out, simd_out = os.path.join(run, "thumbforge"), os.path.join(run, "pillow-simd")
    return {
        "thumbforge": ([TF, "build", os.path.join(run, "in"), "--force", "-q", "-o",
                        os.path.join(tf_out, "Assets.xcassets")], tf_out),
        "pillow-simd": ([SIMDPY, os.path.join(BENCH, "peer_pillow.py"), plan, simd_out], simd_out),
    }


def check(name, run, plan):
    """check.py on both tools' outputs: {tool: verdict} (valid, checked, expected, bytes)."""
    verdict = os.path.join(run, "verdict.json")
    if os.path.exists(verdict):
        os.remove(verdict)
    subprocess.run([MAINPY, os.path.join(BENCH, "check.py"), plan, "--corpus", name,
                    "--json", verdict, "--manifest", os.path.join(run, "thumbforge", "manifest.json"),
                    "thumbforge=" + os.path.join(run, "thumbforge", "Assets.xcassets"),
                    "pillow-simd=" + os.path.join(run, "pillow-simd")], check=True)
    with open(verdict) as f:
        return json.load(f)[name]


def row(times, verdicts, outputs, size):
    tf, simd = times["thumbforge"], times["pillow-simd"]
    wall = record.ratio_figure([a[0] / b[0] for a, b in zip(tf, simd)])
    wall["gate"] = True
    target = TARGET[size]

    def checked(tool):
        v = verdicts.get(tool)
        return "not checked" if v is None else \
            f"{v['checked']}/{v['expected']} " + ("ok" if v["valid"] else "INVALID")

    tf_bytes = verdicts.get("thumbforge", {}).get("bytes")
    simd_bytes = verdicts.get("pillow-simd", {}).get("bytes")
    return {
        "outputs": outputs,
        "ThumbForge wall s": record.figure([t[0] for t in tf]),
        "Pillow-SIMD wall s": record.figure([t[0] for t in simd]),
        "ThumbForge ÷ Pillow-SIMD (wall)": wall,
        "CPU ÷ Pillow-SIMD's": record.ratio_figure([a[1] / b[1] for a, b in zip(tf, simd)]),
        "files alone ÷ Pillow-SIMD (wall)": record.ratio_figure(
            [a / b[0] for a, b in zip(times["files alone"], simd)]),
        "target": target,
        "met": "yes" if wall["high"] <= target else "no" if wall["low"] > target else "cannot tell",
        "output bytes ÷ Pillow-SIMD's":
            record.sig(tf_bytes / simd_bytes, 4) if tf_bytes and simd_bytes else None,
        "outputs checked": f"{checked('thumbforge')}, {checked('pillow-simd')}",
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--record", action="store_true", help="make this run the baseline")
    parser.add_argument("--only", help="workload names, comma-separated")
    args = parser.parse_args()
    for path, what in ((TF, "the release build"), (SIMDPY, "the Pillow-SIMD venv"),
                       (MAINPY, "the main venv")):
        if not os.path.exists(path):
            sys.exit(f"workloads.py: {path} ({what}) is missing: run Scripts/bench.sh "
                     "--only build,peers,corpus first")
    chosen = [w for w in WORKLOADS if not args.only or w[0] in args.only.split(",")]
    runs = []
    for name, config, corpus, size in chosen:
        if not os.path.isdir(os.path.join(CORPUS, corpus)):
            # `small` is the SnowSeeker folder, absent on some machines; the rest bench.sh makes.
            print(f"workloads.py: {name} on {corpus} skipped: bench-work/corpus/{corpus} is "
                  "missing (Scripts/bench.sh --only corpus makes it)", file=sys.stderr)
            continue
        label = f"{name}-{corpus}"
        run = os.path.join(RUNS, label)
        discard(run)
        inputs = folder(name, config, corpus)
        plan = os.path.join(run, "plan.json")
        with open(plan, "w") as f:
            subprocess.run([MAINPY, os.path.join(BENCH, "plan.py"), inputs], stdout=f, check=True)
        with open(plan) as f:
            outputs = json.load(f)["outputs"]
        print(f"{label}: {outputs} outputs", file=sys.stderr)
        runs.append((name, corpus, size, label, run, plan, outputs))
    if not runs:
        sys.exit("workloads.py: no workload's corpus is present")
    times = {r[3]: {"thumbforge": [], "pillow-simd": [], "files alone": []} for r in runs}
    verdicts = {}
    simd_version = subprocess.run([SIMDPY, "-c", "import PIL; print(PIL.__version__)"],
                                  capture_output=True, text=True).stdout.strip()
    about = record.info(thumbforge=TF, peers={"Pillow-SIMD": simd_version})
    for round_ in range(args.rounds):
        last = round_ == args.rounds - 1
        for name, corpus, size, label, run, plan, outputs in runs:
            tools = commands(run, plan)
            order = list(tools) if round_ % 2 == 0 else list(reversed(tools))
            for tool in order:
                times[label][tool].append(timed(*tools[tool]))
            times[label]["files alone"].append(files_alone(run))
            if last:
                verdicts[label] = check(label, run, plan)
        rows = {f"{name}, {corpus}": row(times[label], verdicts.get(label, {}), outputs, size)
                for name, corpus, size, label, _, _, outputs in runs}
        doc = record.document(
            "workloads", "Wider workloads against Pillow-SIMD",
            f"Scripts/bench/workloads.py --rounds {round_ + 1}",
            {"workloads": {
                "key": "workload, corpus", "rows": rows,
                "note": f"Medians of {round_ + 1} rounds; ThumbForge ÷ Pillow-SIMD: the median of "
                        "the rounds' ratios (each round runs the two back to back) with its 98 % "
                        "interval; `met`: yes when the interval is at or under the target, no when "
                        "it is above it; files alone: writing ThumbForge's catalog and manifest "
                        "again from memory (each file to a temporary name, renamed) in one "
                        "process with no image work, the file system's share."}},
            {"rounds": round_ + 1, "workloads": [label for *_, label, _, _, _ in runs]}, about)
        path = os.path.join(record.RUNS, "workloads.json")
        record.write(doc, path)
        print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)
    shutil.rmtree(TRASH, ignore_errors=True)
    for label, cells in rows.items():
        w = cells["ThumbForge ÷ Pillow-SIMD (wall)"]
        size = cells["output bytes ÷ Pillow-SIMD's"]
        print(f"{label:28} {w['value']:.3f} ({w['low']:.3f}–{w['high']:.3f}) target "
              f"{cells['target']}: {cells['met']}; bytes {size}; "
              f"{cells['outputs checked']}")
    if args.record:
        record.record(path)
        return 0
    return record.compare_files(path)


if __name__ == "__main__":
    sys.exit(main())
