#!/usr/bin/env python3
"""Two `thumbforge serve` replicas behind nginx under load, one stopped with SIGTERM mid-run:
the runs of Scripts/replicas-check.sh recorded as Scripts/bench/results/replicas.json (via
record.py).

    replicas.py --thumbforge BIN [--runs N] [--connections "16 64"] [--duration S] [--record]

Runs `replicas-check.sh --json` N times (default 3) at each concurrency (wrk's connections to
nginx) and records each run's figures: requests and requests/s (every run kept), answers that
were not 2xx/3xx and socket errors (summed: both must be 0, or the check itself fails),
requests nginx retried on the other replica, requests the stopped replica answered while
draining, its exit status and how long it took to exit. Written to bench-work/results/ and
compared with the baseline, or made the baseline with --record.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import record


def runs_at(binary, connections, count, duration):
    """`count` runs of replicas-check.sh at `connections`: their JSON lines."""
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as out:
        for run in range(count):
            print(f"replicas.py: {connections} connections, run {run + 1}/{count}",
                  file=sys.stderr)
            check = subprocess.run(
                [os.path.join(record.ROOT, "Scripts", "replicas-check.sh"), "--duration",
                 str(duration), "--connections", str(connections), "--json", out.name],
                env=dict(os.environ, THUMBFORGE_BIN=binary), stdout=subprocess.DEVNULL)
            if check.returncode != 0:
                sys.exit(f"replicas.py: replicas-check.sh failed at {connections} connections "
                         "(run it alone to see why)")
        with open(out.name) as f:
            return [json.loads(line) for line in f if line.strip()]


def row(runs):
    stops = sorted(r["stop_seconds"] for r in runs)
    exits = sorted({r["replica_exit"] for r in runs})
    return {
        "requests": record.figure([r["requests"] for r in runs], digits=4),
        "req/s": record.figure([r["rps"] for r in runs], digits=3),
        "non-2xx/3xx answers": sum(r["non_2xx_3xx"] for r in runs),
        "socket errors": sum(r["socket_errors"] for r in runs),
        "retried on the other replica": record.figure([r["retried"] for r in runs], digits=3),
        "answered while draining": record.figure(
            [r["answered_while_draining"] for r in runs], digits=3),
        "stopped replica": f"exit {', '.join(map(str, exits))} after "
                           + (f"{stops[0]:.2f} s" if stops[0] == stops[-1]
                              else f"{stops[0]:.2f}–{stops[-1]:.2f} s"),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--thumbforge", metavar="BIN", required=True,
                        help="the thumbforge binary the replicas run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--connections", default="16 64")
    parser.add_argument("--duration", type=int, default=8)
    parser.add_argument("--record", action="store_true", help="make this run the baseline")
    args = parser.parse_args()
    binary = os.path.abspath(args.thumbforge)
    rows = {}
    for connections in map(int, args.connections.split()):
        runs = runs_at(binary, connections, args.runs, args.duration)
        rows[f"{connections} connections"] = row(runs)
    table = {"key": "wrk's connections to nginx", "rows": rows,
             "note": f"{args.runs} runs each of {args.duration} s of distinct renders through "
                     "nginx to two replicas, SIGTERM to one after 40 % of the run; wrk with 2 "
                     "threads on the same machine"}
    doc = record.document(
        "replicas", "Replicas behind nginx",
        f"Scripts/bench/replicas.py --thumbforge BIN --runs {args.runs} "
        f"--connections \"{args.connections}\" --duration {args.duration}",
        {"replicas": table},
        parameters={"runs": args.runs, "duration": args.duration},
        about=record.info(thumbforge=binary, peers={"nginx": "Debian's"}))
    return record.finish(doc, args.record)


if __name__ == "__main__":
    sys.exit(main())
