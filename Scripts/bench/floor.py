#!/usr/bin/env python3
"""The decode-plus-encode floor of a build, beside ThumbForge's own time.

    floor.py FOLDER [--thumbforge BIN] [--reps N] [--json FILE]

The floor is what no tool making the same files can go below with the same libraries and
settings: every master decoded once, in full (a vector master rendered once at its largest
output's size), and every rendered output encoded once from its final pixels (read back
from a catalog ThumbForge built, untimed) with the workload's settings — JPEG at the
recipe's quality with optimized Huffman tables when the workload asks for them, PNG at
zlib level 6, metadata stripped. Copied outputs cost only their master's decode (ThumbForge
decodes a copied master in full to verify it). Nothing else is counted: no resize, mask,
hashing, file writing or start-up. Measured as CPU time in this one process, libvips
single-threaded (VIPS_CONCURRENCY=1), median of --reps.

With --thumbforge, the binary builds FOLDER into an empty catalog --reps times (wall and
CPU time of the process, medians), and the report states ThumbForge's distance to the
floor: its CPU time over the floor's, and its wall time over the floor spread on this
machine's cores. Needs pyvips and PyYAML (bench.sh's venv: bench-work/venv/bin/python).
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("VIPS_CONCURRENCY", "1")
import pyvips  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


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


def median_by_key(runs):
    keys = sorted({key for run in runs for key in run})
    return {key: statistics.median(run.get(key, 0.0) for run in runs) for key in keys}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--thumbforge", metavar="BIN")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    folder = os.path.abspath(args.folder)
    job_plan = plan(folder)
    cores = os.cpu_count() or 1
    work = tempfile.mkdtemp(prefix="thumbforge-floor-")
    try:
        binary = args.thumbforge or shutil.which("thumbforge")
        if not binary:
            sys.exit("floor.py: the floor's encodes read a built catalog: pass --thumbforge BIN")
        catalog = os.path.join(work, "reference", "Assets.xcassets")
        build(binary, folder, os.path.dirname(catalog))
        decode = median_by_key([decode_seconds(folder, job_plan) for _ in range(args.reps)])
        encode = median_by_key([encode_seconds(catalog, job_plan) for _ in range(args.reps)])
        floor = sum(decode.values()) + sum(encode.values())
        report = {"folder": args.folder, "outputs": job_plan["outputs"], "cores": cores,
                  "decode_cpu_s": decode, "encode_cpu_s": encode, "floor_cpu_s": floor,
                  "floor_wall_s": floor / cores}
        if args.thumbforge:
            runs = [build(binary, folder, os.path.join(work, "run")) for _ in range(args.reps)]
            wall = statistics.median(run[0] for run in runs)
            cpu = statistics.median(run[1] for run in runs)
            report.update({"thumbforge_wall_s": wall, "thumbforge_cpu_s": cpu,
                           "cpu_over_floor": cpu / floor, "wall_over_floor": wall / (floor / cores)})
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(report, out, indent=1)
    print(f"{args.folder}: {job_plan['outputs']} outputs, medians of {args.reps}, {cores} cores")
    for name, spent in [("decode", decode), ("encode", encode)]:
        parts = ", ".join(f"{key} {value:.3f}" for key, value in spent.items())
        print(f"  {name:7} {sum(spent.values()):.3f} CPU s ({parts})")
    print(f"  floor   {floor:.3f} CPU s, {floor / cores:.3f} s on {cores} cores")
    if args.thumbforge:
        print(f"  ThumbForge {report['thumbforge_wall_s']:.3f} s wall, "
              f"{report['thumbforge_cpu_s']:.3f} CPU s: {report['cpu_over_floor']:.2f}× the floor's "
              f"CPU, {report['wall_over_floor']:.2f}× its wall time on {cores} cores")


if __name__ == "__main__":
    main()
