#!/usr/bin/env python3
"""The decode-plus-encode floor of a build, beside ThumbForge's own time.

    floor.py --thumbforge BIN --corpus NAME=FOLDER ... [--reps N] [--record]

The floor is what no tool making the same files can go below with the same libraries and
settings: every master decoded once, in full (a vector master rendered once at its largest
output's size), and every rendered output encoded once from its final pixels (read back
from a catalog ThumbForge built, untimed) with the workload's settings — JPEG at the
recipe's quality with optimized Huffman tables when the workload asks for them, PNG at
zlib level 6, metadata stripped. Copied outputs cost only their master's decode (ThumbForge
decodes a copied master in full to verify it). Nothing else is counted: no resize, mask,
hashing, file writing or start-up. Measured as CPU time in this one process, libvips
single-threaded (VIPS_CONCURRENCY=1), median of --reps.

The binary builds each FOLDER into an empty catalog --reps times (wall and CPU time of
the process), and the result states ThumbForge's distance to the floor: its CPU time over
the floor's, and its wall time over the floor spread on this machine's cores (medians of
each repetition's ratio). Needs pyvips and PyYAML (bench.sh's venv:
bench-work/venv/bin/python). The result is Scripts/bench/results/floor.json's table
`floor` (record.py: every repetition kept), written to bench-work/results/ and compared
with the baseline, or made the baseline with --record.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("VIPS_CONCURRENCY", "1")
import pyvips  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import record  # noqa: E402


def plan(folder):
    result = subprocess.run([sys.executable, os.path.join(HERE, "plan.py"), folder],
                            check=True, capture_output=True)
    return json.loads(result.stdout)


def build(binary, folder, out):
    """One ThumbForge build into an empty catalog: (wall s, CPU s)."""
    shutil.rmtree(out, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([binary, "build", folder, "-q", "-o", os.path.join(out, "Assets.xcassets")],
                   check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def decode_seconds(folder, job_plan):
    """CPU seconds to decode every master once, by master format."""
    largest = {}
    for job in job_plan["jobs"]:
        for output in job["outputs"]:
            width = largest.get(output["master"], 0)
            largest[output["master"]] = max(width, output["resize"][0])
    spent = {}
    for job in job_plan["jobs"]:
        for master in job["masters"]:
            if master["path"] not in largest:
                continue
            path = os.path.join(folder, master["path"])
            start = time.process_time()
            if master["vector"]:
                scale = largest[master["path"]] / master["width"]
                image = pyvips.Image.new_from_file(path, scale=scale)
            else:
                image = pyvips.Image.new_from_file(path, access="sequential")
            image.avg()
            kind = "svg" if master["vector"] else ("jpeg" if master["ext"] in ("jpg", "jpeg")
                                                   else master["ext"])
            spent[kind] = spent.get(kind, 0.0) + time.process_time() - start
    return spent


def encode_seconds(catalog, job_plan):
    """CPU seconds to encode every rendered output once, by output format."""
    spent = {}
    for job in job_plan["jobs"]:
        for output in job["outputs"]:
            if output["mode"] == "copy":
                continue
            pixels = pyvips.Image.new_from_file(os.path.join(catalog, output["path"])).copy_memory()
            start = time.process_time()
            if output["format"] == "jpeg":
                pixels.jpegsave_buffer(Q=output["quality"], optimize_coding=output["optimize"],
                                       strip=True)
            else:
                pixels.pngsave_buffer(compression=6, strip=True)
            spent[output["format"]] = spent.get(output["format"], 0.0) + time.process_time() - start
    return spent


def measure(binary, name, folder, reps, cores):
    """One corpus's row: the floor's decode and encode, ThumbForge's builds, the distances."""
    job_plan = plan(folder)
    work = tempfile.mkdtemp(prefix="thumbforge-floor-")
    try:
        catalog = os.path.join(work, "reference", "Assets.xcassets")
        build(binary, folder, os.path.dirname(catalog))
        decodes = [sum(decode_seconds(folder, job_plan).values()) for _ in range(reps)]
        encodes = [sum(encode_seconds(catalog, job_plan).values()) for _ in range(reps)]
        runs = [build(binary, folder, os.path.join(work, "run")) for _ in range(reps)]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    floors = [d + e for d, e in zip(decodes, encodes)]
    walls, cpus = [r[0] for r in runs], [r[1] for r in runs]
    row = {
        "outputs": job_plan["outputs"],
        "floor: decode CPU s": record.figure(decodes, digits=3),
        "floor: encode CPU s": record.figure(encodes, digits=3),
        "floor: CPU s": record.figure(floors, digits=3),
        f"floor on {cores} cores, s": record.figure([f / cores for f in floors], digits=3),
        "ThumbForge wall s": record.figure(walls, digits=3),
        "ThumbForge CPU s": record.figure(cpus, digits=3),
        "ThumbForge CPU ÷ floor": record.figure([c / f for c, f in zip(cpus, floors)], digits=3),
        "ThumbForge wall ÷ floor on the cores": record.figure(
            [w / (f / cores) for w, f in zip(walls, floors)], digits=3),
    }
    print(f"{name} ({folder}): {job_plan['outputs']} outputs, medians of {reps}, {cores} cores")
    for column, cell in row.items():
        print(f"  {column:40} {cell['value'] if isinstance(cell, dict) else cell}")
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    record.corpus_options(parser, "a folder to measure, under the name its row takes")
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    binary = os.path.abspath(args.thumbforge)
    cores = os.cpu_count() or 1
    corpora = record.corpora(args.corpus)
    rows = {name: measure(binary, name, os.path.abspath(folder), args.reps, cores)
            for name, folder in corpora}
    command = record.corpus_command(
        "floor.py", args.corpus, f" --reps {args.reps}" if args.reps != 5 else "")
    doc = record.document(
        "floor", "Distance to the floor", command,
        {"floor": {"key": "corpus", "rows": rows,
                   "note": f"Medians of {args.reps}, the floor and ThumbForge measured in the same "
                           f"run; the ratios are the medians of each repetition's."}},
        {"corpora": [n for n, _ in corpora], "reps": args.reps}, record.info(binary))
    sys.exit(record.finish(doc, args.record))


if __name__ == "__main__":
    main()
