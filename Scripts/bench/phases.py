#!/usr/bin/env python3
"""Where a build's cores sit idle, stage by stage.

    phases.py FOLDER --thumbforge BIN [--reps N] [--jobs J] [--json FILE]

Builds FOLDER --force into a fresh catalog N times with `--timings`, which prints each
stage's wall and CPU time (the whole process's, every thread) as measured inside the
process, from the first line of `main` to the end of the commit. What lies outside — the
dynamic loader mapping and relocating the libraries before `main`, and the process's exit
(the kernel tearing its memory down, the parent waking) — is the run's wall and CPU time
as this script measures them (wait4's rusage), less the stages' sums.

For each stage: medians of wall ms, CPU ms, cores busy (CPU / wall) and the cores' idle
time (wall × cores − CPU, in core-ms), where `cores` is the machine's (or --jobs). The idle
column says where a build loses its "cores busy" figure: a build keeps C cores busy on
average exactly when the idle column sums to wall × (cores − C).

Each catalog is moved aside, not deleted, while the runs go on: ext4 is slow to create files
in a folder where many were deleted in the last half-minute (recently deleted inodes are
skipped when allocating), which would slow the next run's writes.
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

OUTSIDE = "before main, and exit"


def run_once(binary, folder, catalog, jobs):
    command = [binary, "build", folder, "--force", "-q", "--timings", "-o", catalog]
    if jobs:
        command += ["--jobs", str(jobs)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    if proc.returncode != 0:
        sys.exit(f"phases.py: the build exited {proc.returncode}:\n{proc.stderr}")
    stages = parse(proc.stderr)
    inside = stages.pop("total")
    stages[OUTSIDE] = (wall - inside[0], cpu - inside[1])
    stages["whole run"] = (wall, cpu)
    return stages


def parse(stderr):
    """The `--timings` table: {stage: (wall ms, CPU ms)}, in order."""
    lines = stderr.splitlines()
    try:
        header = next(i for i, line in enumerate(lines) if line.startswith("timings:"))
    except StopIteration:
        sys.exit("phases.py: no --timings table in the build's stderr:\n" + stderr)
    stages = {}
    for line in lines[header + 1:]:
        if not line.startswith("  "):
            break
        *name, wall, cpu, _cores = line.split()
        stages[" ".join(name)] = (float(wall), float(cpu))
    return stages


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--thumbforge", required=True, help="the thumbforge binary to run")
    ap.add_argument("--reps", type=int, default=21)
    ap.add_argument("--jobs", type=int, help="--jobs for the builds (default: one per core)")
    ap.add_argument("--json", help="also write the medians to this file")
    args = ap.parse_args()
    cores = args.jobs or os.cpu_count() or 1
    work = tempfile.mkdtemp(prefix="thumbforge-phases-")
    runs = []
    try:
        for rep in range(args.reps):
            catalog = os.path.join(work, f"run-{rep}", "Assets.xcassets")
            runs.append(run_once(args.thumbforge, args.folder, catalog, args.jobs))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{args.folder}: medians of {args.reps} builds --force, {cores} cores")
    print(f"  {'stage':30} {'wall ms':>9} {'CPU ms':>9} {'cores':>6} {'idle core-ms':>13}")
    report = []
    for name in runs[0]:
        wall = statistics.median(r[name][0] for r in runs)
        cpu = statistics.median(r[name][1] for r in runs)
        idle = statistics.median(r[name][0] * cores - r[name][1] for r in runs)
        busy = statistics.median(r[name][1] / r[name][0] for r in runs if r[name][0] > 0)
        report.append({"stage": name, "wall_ms": wall, "cpu_ms": cpu, "cores_busy": busy,
                       "idle_core_ms": idle})
        if name == "whole run":
            print("  " + "-" * 70)
        print(f"  {name:30} {wall:9.1f} {cpu:9.1f} {busy:6.2f} {idle:13.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"folder": args.folder, "cores": cores, "reps": args.reps,
                       "stages": report}, f, indent=2)


if __name__ == "__main__":
    main()
