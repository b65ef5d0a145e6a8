#!/usr/bin/env python3
"""Sharded builds on this machine: 1, 2 and 4 shards started at once (each its own process),
then `merge`; each shard alone (what one machine of N would take); the fixed cost every
shard pays; and `merge` of a folder of many small sources.

    shards.py --thumbforge BIN --corpus NAME=FOLDER --tiny FOLDER [--reps N] [--record]

FOLDER is built in full into empty catalogs REPS times (default 3) in each arrangement; the
merged catalogs of 1, 2 and 4 shards must equal the single build's, byte for byte, or the
run fails. The fixed cost is a `--dry-run` of the whole folder: the scan, the hashes and the
plan every shard makes before it renders its share. The tiny folder is built once in 4
shards and merged REPS times.

The result is Scripts/bench/results/shards.json's tables `shards` and `fixed` (record.py:
every repetition kept), written to bench-work/results/ and compared with the baseline, or
made the baseline with --record. The builds' outputs go to a temporary folder, removed at
the end.
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time

import record

ARRANGEMENTS = (1, 2, 4)


def timed(commands):
    """Starts every command at once, waits for all; the wall seconds. Exits on a failure."""
    start = time.perf_counter()
    procs = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for c in commands]
    for proc, command in zip(procs, commands):
        _, err = proc.communicate()
        if proc.returncode != 0:
            sys.exit(f"shards.py: {' '.join(command)} exited {proc.returncode}:\n{err.decode()}")
    return time.perf_counter() - start


def digest(catalog):
    """{relative path: SHA-256} of every file of a catalog, its caches left out."""
    files = {}
    for folder, _, names in os.walk(catalog):
        for name in names:
            if name.startswith(".thumbforge-"):
                continue
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, catalog)] = hashlib.sha256(f.read()).hexdigest()
    return files


class Runs:
    def __init__(self, binary, work):
        self.binary, self.work, self.count = binary, work, 0

    def folder(self, label):
        self.count += 1
        return os.path.join(self.work, f"{self.count}-{label}")

    def single(self, corpus):
        out = self.folder("single")
        return timed([[self.binary, "build", corpus, "-q", "-o", f"{out}/Assets.xcassets"]]), out

    def shards(self, corpus, n, together=True):
        """The n shards (together: started at once, one job each when n ≥ 2; else one after
        another with every core, each timed), then merge: (shard times, merge time, catalog)."""
        out = self.folder(f"shards-{n}")
        parts = [f"{out}/parts/{i}" for i in range(1, n + 1)]
        command = [[self.binary, "build", corpus, "-q", "--shard", f"{i}/{n}", "--part", parts[i - 1]]
                   + (["--jobs", "1" if n >= 2 else "2"] if together else [])
                   for i in range(1, n + 1)]
        built = [timed(command)] if together else [timed([c]) for c in command]
        catalog = f"{out}/merged/Assets.xcassets"
        merge = timed([[self.binary, "merge", "-q", *parts, "--output", catalog]])
        return built, merge, catalog


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    record.corpus_options(ap, "the folder to build, under the name the note gives it")
    ap.add_argument("--tiny", required=True, help="a folder of many small sources, for merge")
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    (name, corpus), = record.corpora(args.corpus[:1])
    binary = os.path.abspath(args.thumbforge)
    work = tempfile.mkdtemp(prefix="thumbforge-shards-")
    runs = Runs(binary, work)
    single, dry, together, merges, alone, reference = [], [], {}, {}, {}, None
    try:
        for rep in range(args.reps):
            seconds, out = runs.single(corpus)
            single.append(seconds)
            check = reference is None
            if check:
                reference = digest(f"{out}/Assets.xcassets")
            dry.append(timed([[binary, "build", corpus, "-q", "--dry-run",
                               "-o", f"{runs.folder('dry')}/Assets.xcassets"]]))
            for n in ARRANGEMENTS:
                built, merge, catalog = runs.shards(corpus, n)
                together.setdefault(n, []).append(built[0])
                merges.setdefault(n, []).append(merge)
                if check and digest(catalog) != reference:
                    sys.exit(f"shards.py: the merged catalog of {n} shards differs from the single build's")
                if n > 1:
                    built, _, _ = runs.shards(corpus, n, together=False)
                    alone.setdefault(n, []).append(max(built))
            shutil.rmtree(work)
            os.makedirs(work)
            print(f"round {rep + 1}/{args.reps} done", flush=True)
        tiny_parts = os.path.join(work, "tiny")
        for i in range(1, 5):
            timed([[binary, "build", args.tiny, "-q", "--shard", f"{i}/4", "--part", f"{tiny_parts}/{i}"]])
        tiny_merges = []
        for rep in range(args.reps):
            catalog = f"{runs.folder('tiny-merged')}/Assets.xcassets"
            tiny_merges.append(timed([[binary, "merge", "-q",
                                       *[f"{tiny_parts}/{i}" for i in range(1, 5)], "--output", catalog]]))
        files, folders = 0, 0
        for _, dirs, names in os.walk(catalog):
            files += len([n for n in names if not n.startswith(".thumbforge-")])
            folders += len(dirs)
        outputs = sum(1 for path in reference if not path.endswith("Contents.json"))
        sources = sum(len([n for n in names if not n.startswith(".") and n != "thumbforge.yml"])
                      for _, _, names in os.walk(args.tiny))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    rows = {}
    for n in ARRANGEMENTS:
        slowest = alone.get(n, single)
        totals = [b + m for b, m in zip(together[n], merges[n])]
        projected = [s + m for s, m in zip(slowest, merges[n])]
        rows[str(n)] = {
            "all shards on this machine, s": record.figure(together[n], digits=3),
            "merge, s": record.figure(merges[n], digits=3),
            "total, s": record.figure(totals, digits=3),
            "one build ÷ total": record.figure([s / t for s, t in zip(single, totals)], digits=3),
            "slowest shard alone, s": record.figure(slowest, digits=3),
            "projected on N machines: slowest shard + merge, s": record.figure(projected, digits=3),
            "one build ÷ projected": record.figure([s / p for s, p in zip(single, projected)], digits=3),
        }
    fixed = {
        "one build of the whole corpus": {"s": record.figure(single, digits=3)},
        "fixed cost of every shard: scanning, hashing and planning the whole folder (`--dry-run`)":
            {"s": record.figure(dry, digits=3)},
        f"merge of this corpus's {outputs} outputs, 4 shards": {"s": record.figure(merges[4], digits=3)},
        f"merge of {sources} tiny sources in 4 shards ({files} files, {folders} folders)":
            {"s": record.figure(tiny_merges, digits=3)},
    }
    for row, cells in rows.items():
        print(f"{row} shards: " + ", ".join(f"{k} {v['value']}" for k, v in cells.items()))
    for row, cells in fixed.items():
        print(f"{row}: {cells['s']['value']} s")
    command = (f"Scripts/bench/shards.py --thumbforge BIN --corpus {args.corpus[0]} "
               f"--tiny {args.tiny} --reps {args.reps}")
    note = (f"Full builds of `{os.path.basename(corpus.rstrip('/'))}` ({name}) into empty catalogs, "
            f"medians of {args.reps}; shards started together run one job each.")
    doc = record.document(
        "shards", "Sharded builds", command,
        {"shards": {"key": "shards", "rows": rows, "note": note},
         "fixed": {"key": "", "rows": fixed}},
        {"corpus": name, "reps": args.reps}, record.info(binary))
    sys.exit(record.finish(doc, args.record))


if __name__ == "__main__":
    main()
