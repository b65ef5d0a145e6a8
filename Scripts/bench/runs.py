#!/usr/bin/env python3
"""What the paired-run benchmarks (mechanisms.py, workloads.py) share: earlier outputs moved
aside instead of deleted before a timed run, and one command timed.

Deleting a folder just before a timed run charges that run: on ext4 a file made soon after
others were deleted costs more (see bench.sh's trash). The trash is emptied by the caller
between timed sections.
"""
import os
import subprocess
import time


def move_aside(path, trash):
    """Moves `path` (when it exists) into the folder `trash` under a new name."""
    if os.path.exists(path):
        os.makedirs(trash, exist_ok=True)
        os.rename(path, os.path.join(trash, str(time.monotonic_ns())))


def timed_run(command, env=None):
    """Runs `command` (stdout discarded, stderr kept) and waits for it: (wall s, CPU s, the
    CompletedProcess, peak MB). CPU time and the peak resident set are the child's own
    (os.wait4's rusage: GNU time's %U + %S and %M)."""
    start = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    child.stderr.close()
    result = subprocess.CompletedProcess(command, child.returncode, None, stderr)
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, result, usage.ru_maxrss / 1024
