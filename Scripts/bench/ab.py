#!/usr/bin/env python3
"""Two or more thumbforge binaries side by side on one corpus, runs interleaved (A B A B …)
so that the machine's drift affects each alike; prints the median and minimum wall time.

    ab.py [--runs N] [--mode full|rebuild|check] CORPUS LABEL=BINARY LABEL=BINARY...

full: every run builds into an empty catalog. rebuild / check: a no-change `build` /
`check` of a catalog each binary built once beforehand (in its own folder: catalogs of
different tool versions are stale for each other). Outputs go to bench-work/runs/ab/.
Used for the README's before/after figures, e.g. against REV, the revision before a change:

    git worktree add /tmp/before REV && (cd /tmp/before && swift build -c release \\
      --product thumbforge --scratch-path .build-bench --static-swift-stdlib)
    Scripts/bench/ab.py --runs 7 bench-work/corpus/small \\
      before=/tmp/before/.build-bench/release/thumbforge now=.build-bench/release/thumbforge
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--mode", choices=["full", "rebuild", "check"], default="full")
    parser.add_argument("corpus")
    parser.add_argument("binaries", nargs="+", metavar="LABEL=BINARY")
    args = parser.parse_args()
    binaries = [spec.split("=", 1) for spec in args.binaries]
    corpus = os.path.abspath(args.corpus)
    work = os.path.join(ROOT, "bench-work", "runs", "ab", os.path.basename(corpus))
    times = {label: [] for label, _ in binaries}

    def run(label, binary, verb):
        out = os.path.join(work, label)
        if args.mode == "full":
            shutil.rmtree(out, ignore_errors=True)
        command = [binary, verb, corpus, "-q", "-o", os.path.join(out, "Assets.xcassets")]
        start = time.perf_counter()
        result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            sys.exit(f"ab.py: {' '.join(command)} exited {result.returncode}: "
                     f"{result.stderr.decode()[-500:]}")
        return elapsed

    if args.mode != "full":
        for label, binary in binaries:
            run(label, binary, "build")  # the catalog the no-change runs compare with
    verb = "check" if args.mode == "check" else "build"
    for _ in range(args.runs):
        for label, binary in binaries:
            times[label].append(run(label, binary, verb))
    first = statistics.median(times[binaries[0][0]])
    print(f"{os.path.relpath(corpus, ROOT)}, {args.mode}, {args.runs} runs each (interleaved):")
    for label, _ in binaries:
        median = statistics.median(times[label])
        print(f"  {label:12} median {median:.3f} s  min {min(times[label]):.3f} s  "
              f"({median / first:.3f}× {binaries[0][0]})")


if __name__ == "__main__":
    main()
