#!/usr/bin/env python3
"""What the paired-run benchmarks (mechanisms.py, workloads.py) share: earlier outputs moved
aside instead of deleted before a timed run, and one command timed.

Deleting a folder just before a timed run charges that run: on ext4 a file made soon after
others were deleted costs more (see bench.sh's trash). The trash is emptied by the caller
between timed sections.
"""
import os
import resource
import subprocess
import time


def move_aside(path, trash):
    """Moves `path` (when it exists) into the folder `trash` under a new name."""
    if os.path.exists(path):
        os.makedirs(trash, exist_ok=True)
        os.rename(path, os.path.join(trash, str(time.monotonic_ns())))


def timed_run(command, env=None):
    """Runs `command` (stdout discarded, stderr kept) and waits for it: (wall s, CPU s of it
    and its children, the CompletedProcess). One at a time: the CPU time is the difference of
    this process's RUSAGE_CHILDREN around the run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, result
