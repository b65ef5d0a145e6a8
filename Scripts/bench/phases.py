#!/usr/bin/env python3
"""Where a build's cores sit idle, stage by stage.

    phases.py --thumbforge BIN --corpus NAME=FOLDER[:REPS] ... [--jobs J] [--record]

Builds each FOLDER --force into a fresh catalog REPS times (default 21) with `--timings`, which prints each
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

The result is Scripts/bench/results/phases.json's table `phases` (record.py: every
repetition kept), written to bench-work/results/ and compared with the baseline, or made
the baseline with --record.
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import record

OUTSIDE = "before main, and exit"
# How the page names the stages `--timings` prints.
NAMES = {
    "discovery": "discovery (scan, probe, hash)",
    "rendering": "rendering (a job for every worker)",
    OUTSIDE: "before `main`, and the exit",
    "whole run": "**whole run**",
}


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
    record.corpus_options(
        ap, "a folder to build, under the name its columns take", metavar="NAME=FOLDER[:REPS]")
    ap.add_argument("--jobs", type=int, help="--jobs for the builds (default: one per core)")
    args = ap.parse_args()
    cores = args.jobs or os.cpu_count() or 1
    binary = os.path.abspath(args.thumbforge)
    corpora = []
    for name, rest in record.corpora(args.corpus):
        folder, _, reps = rest.partition(":")
        corpora.append((name, folder, int(reps or 21)))
    rows, described = {}, []
    for name, folder, reps in corpora:
        work = tempfile.mkdtemp(prefix="thumbforge-phases-")
        runs = []
        try:
            for rep in range(reps):
                catalog = os.path.join(work, f"run-{rep}", "Assets.xcassets")
                runs.append(run_once(binary, folder, catalog, args.jobs))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        described.append(f"{reps} builds of `{os.path.basename(folder.rstrip('/'))}` ({name})")
        print(f"{folder}: medians of {reps} builds --force, {cores} cores")
        print(f"  {'stage':30} {'wall ms':>9} {'CPU ms':>9} {'cores':>6} {'idle core-ms':>13}")
        for stage in runs[0]:
            walls = [r[stage][0] for r in runs]
            cpus = [r[stage][1] for r in runs]
            row = rows.setdefault(NAMES.get(stage, stage), {})
            row[f"{name}: wall ms"] = record.figure(walls, digits=3)
            row[f"{name}: CPU ms"] = record.figure(cpus, digits=3)
            row[f"{name}: cores"] = record.figure(
                [c / w for w, c in zip(walls, cpus) if w > 0], digits=3)
            row[f"{name}: idle core-ms"] = record.figure(
                [w * cores - c for w, c in zip(walls, cpus)], digits=3)
            print(f"  {stage:30} {statistics.median(walls):9.1f} {statistics.median(cpus):9.1f}"
                  f" {row[f'{name}: cores']['value']:6.2f} {row[f'{name}: idle core-ms']['value']:13.1f}")
    command = record.corpus_command(
        "phases.py", args.corpus, f" --jobs {args.jobs}" if args.jobs else "")
    doc = record.document(
        "phases", "Where a build's time goes, by phase", command,
        {"phases": {"key": "stage", "rows": rows,
                    "note": "Medians of " + " and ".join(described) + f", on {cores} cores."}},
        {"corpora": [n for n, _, _ in corpora], "jobs": args.jobs}, record.info(binary))
    sys.exit(record.finish(doc, args.record))


if __name__ == "__main__":
    main()
