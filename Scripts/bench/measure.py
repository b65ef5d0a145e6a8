#!/usr/bin/env python3
"""Runs one command and appends one JSON record of what it cost to a results file.

    measure.py --results FILE --section S --corpus C --tool T --rep N [--outputs K]
               [--expect-rc 0] [--env K=V ...] [--tree-rss] -- COMMAND ARGS...

wall: elapsed seconds; user/sys: CPU seconds of the command and every descendant it waited
for (os.wait4's rusage, the same figure as GNU time's %U/%S); maxrss_mb: the largest resident
set of any single process (GNU time's %M). With --tree-rss, tree_rss_mb: the peak of the summed
RSS of the whole process tree, sampled every 20 ms from /proc (what Pool(2) or xargs -P2 really
hold at once); without it, null and nothing runs beside the command.

The sampler is opt-in because it is not free for the command it watches: on 2 cores its
wake-ups every 20 ms take turns from the command's threads, and a ThumbForge build of the small
corpus kept measurably fewer cores busy (CPU ÷ wall) with it than without (alternated
pairs). bench.sh therefore times runs unobserved and samples the tree in runs of their own.
The command's stdout is saved to --stdout FILE when given; its stderr passes through.
"""
import argparse
import json
import os
import subprocess
import sys
import threading
import time

PAGE = os.sysconf("SC_PAGE_SIZE")


def _rss(pid):
    """Resident bytes of one process (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


# Whether the kernel lists each thread's children (CONFIG_PROC_CHILDREN), checked once: a
# file missing later means only that a thread or process has just exited.
HAVE_CHILDREN_LISTS = os.path.exists(f"/proc/self/task/{os.getpid()}/children")


def _children(pid):
    """Child pids of every thread of pid (none once it is gone)."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found = []
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                found.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return found


def _tree_rss_by_scan(root):
    """The same by reading every process in /proc: for kernels without children lists."""
    children = {}
    rss = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            pid = int(name)
            children.setdefault(int(fields[1]), []).append(pid)
            rss[pid] = int(fields[21]) * PAGE
        except (OSError, IndexError, ValueError):
            continue
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


def tree_rss(root):
    """Summed RSS (bytes) of root and its descendants. Walks down from root through the
    kernel's per-thread children lists: a few reads per sample, where scanning all of /proc
    cost about 2 ms every 20 ms, taken from the tool being measured."""
    if not HAVE_CHILDREN_LISTS:
        return _tree_rss_by_scan(root)
    total, stack, seen = 0, [root], set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += _rss(pid)
        stack.extend(_children(pid))
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True)
    ap.add_argument("--section", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--rep", type=int, default=1)
    ap.add_argument("--outputs", type=int, default=0)
    ap.add_argument("--expect-rc", type=int, default=0)
    ap.add_argument("--stdout")
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--tree-rss", action="store_true",
                    help="sample the process tree's summed RSS every 20 ms (costs the command time)")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    env = dict(os.environ)
    for item in args.env:
        key, _, value = item.partition("=")
        env[key] = value
    out = open(args.stdout, "w") if args.stdout else subprocess.DEVNULL
    peak = [0]
    done = threading.Event()
    # Every tool starts with the disk quiet: what the previous tool wrote is flushed here,
    # outside the timing, rather than written back during the next tool's run.
    os.sync()
    start = time.perf_counter()
    proc = subprocess.Popen(command, env=env, stdout=out)

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss(proc.pid))
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True) if args.tree_rss else None
    if sampler:
        sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    if sampler:
        sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    record = {
        "section": args.section, "corpus": args.corpus, "tool": args.tool, "rep": args.rep,
        "wall": round(wall, 4), "user": round(usage.ru_utime, 4), "sys": round(usage.ru_stime, 4),
        "maxrss_mb": round(usage.ru_maxrss / 1024, 1),
        "tree_rss_mb": round(peak[0] / 2**20, 1) if sampler else None,
        "outputs": args.outputs, "rc": proc.returncode,
    }
    with open(args.results, "a") as f:
        f.write(json.dumps(record) + "\n")
    tree = f", {record['tree_rss_mb']:7.1f} MB tree RSS" if sampler else ""
    print(f"    {args.tool:<28} rep {args.rep}: {wall:7.2f} s wall, "
          f"{usage.ru_utime + usage.ru_stime:7.2f} s CPU, {record['maxrss_mb']:7.1f} MB max RSS"
          f"{tree}, rc {proc.returncode}", flush=True)
    if proc.returncode != args.expect_rc:
        print(f"    !! {args.tool} exited {proc.returncode} (expected {args.expect_rc})", flush=True)
        sys.exit(3)


if __name__ == "__main__":
    main()
