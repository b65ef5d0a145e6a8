#!/usr/bin/env python3
"""The hostile-request suite: the rows of Scripts/attack/rows.py against real `thumbforge
serve` processes, which Scripts/attack.sh starts and stops when asked (run it through that
script; see Host below). One line per row on the results descriptor: PASS, FAIL or SKIP
(reason), with what was measured; exits 1 if any row failed.

 1  a 1×2 000 000 single-colour PNG through fill and tile at 3x: 4xx, server alive
 2  no global stall: a slow render (smart crop of a 2000×90000 PNG) runs, a trivial render
    asked 0.3 s later answers in < 1 s (2 render workers: --jobs 2, or --workers 2)
 3  serve.timeout: 1 and a slow render: 503, then thumbforge_renders_cancelled_total ≥ 1
    within 2 s (the render was stopped)
 4  masters swapped after start (limit-input-pixels: 1000000): a 2000×2000 PNG renamed over
    a served master, requested at once and after the reload; also a stealth swap (same
    size and modification time): never a 200 of the big image, never a 5xx
 5  untrusted-sources: an SVG referencing a file outside the folder and a BMP named .png
    are 4xx; under `strace -f -y -e trace=open,openat` (when installed) no file outside
    the folder, the cache and the system's libraries/fonts/locale is opened (failed
    attempts are only counted), and never the outside file
 6  slowloris: 1 500 connections (100 of them trickling a header line every 2 s) against a
    server with ulimit -n 1024: /healthz < 1 s meanwhile, all closed by the server in 15 s
 7  slow readers: 50 clients read a ~26 MB PNG output at 1 KB/s: they add < 100 MB to the
    server's peak RSS (each write waits for the connection: BodyPacing), and < 600 MB in all
 8  flood: 200 concurrent distinct large renders (20–26 MP outputs of 6000×6000 RGBA
    masters; 8 render workers, serve.memory-budget: 1024, max-output-pixels raised, queue: 16,
    timeout: 15): only 200, 429 or 503, peak RSS < 1024 + 150 MB
 9  small leaks: (a) 404 bodies (unknown assets, near misses, an output the recipe does not
    make) name no master file (but the one asked for) nor byte size; (b) a signature with "=",
    a %-encoded character, or a non-canonical last character (same bytes) is 403; (c) a 1-byte
    key is refused (message names 32 bytes); (d) a name with an accent answers the same in
    NFC and NFD, also after a reload; (e) 300 small renders with cache-size: 1 leave du -sk
    of the cache ≤ 1.1 MB
10  through nginx with Examples/nginx/thumbforge.conf: /unsafe/…, /, /metrics are nginx's
    404, a signed path is 200 (nginx from apt-get when missing, else SKIP)
11  --metrics-port: /metrics is 404 on the public port and 200 on the metrics port
12  the Kubernetes example's pod (a 1.5 GiB cgroup v1 memory limit, 2 workers, defaults:
    the budget from the cgroup) under 120 concurrent renders of the largest outputs the
    defaults allow: only 200, 429 or 503, no OOM kill, peak RSS < 1536 MB (SKIP without a
    writable cgroup)

Throughout, every server's /healthz is polled every 0.2 s: a row fails if /healthz took
more than 1 s or its server died; each row prints the worst /healthz latency and the
server's peak RSS (VmHWM). The hostile masters are generated (Scripts/attack/gen.py): no
checked-in file is used.
"""
import argparse
import json
import os
import shutil
import sys
import time
import traceback

import attack
import gen
import rows
from common import StartError


class Host:
    """Scripts/attack.sh, which starts and stops the servers: a request is one line of
    tab-separated words written to it, its answer one line read back (see the script)."""

    def __init__(self, requests, answers):
        self.requests, self.answers = requests, answers

    def ask(self, *words):
        self.requests.write("\t".join(str(word) for word in words) + "\n")
        self.requests.flush()
        line = self.answers.readline()
        if not line:
            sys.exit("suite.py: attack.sh stopped answering")
        return line.rstrip("\n").split("\t")


class Server:
    """A running `thumbforge serve`: its port, its process id, its log and monitor files."""

    def __init__(self, name, port, pid, log, monitor):
        self.name, self.port, self.pid = name, int(port), int(pid)
        self.log, self.monitor = log, monitor


class Row:
    """One row's run: its servers, the figures their monitors saw, the reasons it fails."""

    def __init__(self, suite):
        self.suite, self.work, self.binary = suite, suite.work, suite.binary
        self.server = None
        self.health_ms, self.health_failed, self.rss_mb = 0, 0, 0
        self.deaths, self.fails = [], []

    def fail(self, reason):
        self.fails.append(reason)

    def finish(self, detail):
        """FAIL with the collected reasons, else PASS."""
        if self.fails:
            return "FAIL", "; ".join(self.fails) + f" [measured: {detail}]"
        return "PASS", detail

    def start(self, name, folder, *arguments, nofile=None, strace=None, cgroup=None,
              key=None, salt=None):
        """Starts `thumbforge serve FOLDER ARGUMENTS…` through attack.sh (with NOFILE
        descriptors, under strace writing to STRACE, in the cgroup folder CGROUP, with the
        signing KEY and SALT); raises StartError."""
        options = [f"{option}={value}" for option, value in (
            ("nofile", nofile), ("strace", strace), ("cgroup", cgroup), ("key", key),
            ("salt", salt)) if value is not None]
        answer = self.suite.host.ask("serve", name, folder, *options, "--", *arguments)
        if answer[0] != "ok":
            raise StartError(answer[1], answer[2] if len(answer) > 2 else "")
        self.server = Server(name, *answer[1:5])
        return self.server

    def stop(self):
        """Stops the server and folds its monitor's figures into the row's: worst /healthz,
        failed polls, peak RSS, death."""
        server, self.server = self.server, None
        answer = self.suite.host.ask("stop")
        if answer[0] == "died":
            last = [line for line in read_text(server.log).splitlines() if line.strip()][-1:]
            self.deaths.append(f"the server ({server.name}) died (exit {answer[1]}): "
                               + "".join(last)[:200])
        try:
            with open(server.monitor) as file:
                seen = json.load(file)
        except (OSError, ValueError):
            return
        self.health_ms = max(self.health_ms, seen["worst_ms"])
        self.health_failed += seen["failed"]
        self.rss_mb = max(self.rss_mb, seen["peak_rss_kb"] // 1024)

    def alive(self):
        """Whether the server still runs (for checks in the middle of a row)."""
        return attack.alive(self.server.pid)

    # ------------------------------------------------------------ folders and inputs
    def folder(self, name, *serve_lines, top=None):
        """A fresh asset folder WORK/NAME/assets with a thumbforge.yml: TOP (lines) at the top
        level, and under serve: ad-hoc boxes on, the result cache in WORK/NAME/cache, and the
        lines given ("timeout: 1")."""
        root = os.path.join(self.work, name)
        shutil.rmtree(root, ignore_errors=True)
        folder = os.path.join(root, "assets")
        os.makedirs(folder)
        lines = ["output: ../Build/Assets.xcassets"] + ([top] if top else [])
        lines += ["serve:", "  ad-hoc: true", "  cache: ../cache"]
        lines += [f"  {line}" for line in serve_lines]
        with open(os.path.join(folder, "thumbforge.yml"), "w") as file:
            file.write("\n".join(lines) + "\n")
        return folder

    def input(self, name, width, height, **options):
        """A generated PNG (gen.png) in WORK/inputs, made once."""
        path = os.path.join(self.work, "inputs", name)
        if not os.path.isfile(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            gen.png(path, width, height, **options)
        return path

    # ------------------------------------------------------------ requests
    def http(self, path, port=None):
        """(status, seconds, body) of a GET on the server (or PORT); the status is a text
        starting with "error" when no answer came."""
        status, body, seconds = attack.get(port or self.server.port, path, timeout=30)
        return status, seconds, body

    def code(self, path, port=None):
        return self.http(path, port)[0]

    def metric(self, name, port=None):
        """The sum of a metric's samples on /metrics, or None when it has none."""
        _, body, _ = attack.get(port or self.server.port, "/metrics", timeout=5)
        found, total = False, 0.0
        for line in body.decode("utf-8", "replace").splitlines():
            fields = line.split()
            if fields and (fields[0] == name or fields[0].startswith(name + "{")):
                found, total = True, total + float(fields[-1])
        return total if found else None


def read_text(path):
    try:
        with open(path, errors="replace") as file:
            return file.read()
    except OSError:
        return ""


class Suite:
    def __init__(self, args, host, results):
        self.work, self.binary, self.host, self.results = args.work, args.binary, host, results
        self.only = {int(n) for n in args.only.split(",") if n} if args.only else None

    def run(self):
        counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
        worst = (0, "-")
        peak = (0, "-")
        for number, title, check in rows.ROWS:
            if self.only is not None and number not in self.only:
                continue
            print(f"==> row {number}: {title}", file=sys.stderr, flush=True)
            row = Row(self)
            started = time.monotonic()
            try:
                verdict, detail = check(row)
            except StartError as error:
                verdict, detail = "FAIL", f"the server did not start: {error.message}"
            except Exception as error:  # noqa: BLE001 - the row's own failure: the next rows run
                traceback.print_exc()
                verdict, detail = "FAIL", f"the row raised {type(error).__name__}: {error}"
            if row.server is not None:
                row.stop()  # a row that returned early
            if verdict != "SKIP":
                verdict, detail = self.throughout(row, verdict, detail)
                detail += (f" | /healthz worst {row.health_ms} ms, peak RSS {row.rss_mb} MB, "
                           f"{time.monotonic() - started:.1f} s")
                if row.health_ms > worst[0]:
                    worst = (row.health_ms, number)
                if row.rss_mb > peak[0]:
                    peak = (row.rss_mb, number)
            counts[verdict] += 1
            shown = f"SKIP ({detail})" if verdict == "SKIP" else f"{verdict}  {detail}"
            print(f"row {number:<2} {title:<58} {shown}", file=self.results, flush=True)
        print(f"attack: /healthz worst {worst[0]} ms (row {worst[1]}); "
              f"peak RSS {peak[0]} MB (row {peak[1]})", file=self.results)
        print(f"attack: {counts['PASS']} passed, {counts['FAIL']} failed, "
              f"{counts['SKIP']} skipped", file=self.results, flush=True)
        return 1 if counts["FAIL"] else 0

    @staticmethod
    def throughout(row, verdict, detail):
        """What every row checks besides its own: /healthz within 1 s, every poll answered,
        no server died."""
        extra = []
        if row.health_ms > 1000:
            extra.append(f"/healthz took {row.health_ms} ms (> 1000)")
        if row.health_failed > 0:
            extra.append(f"{row.health_failed} /healthz polls failed")
        extra += [death for death in row.deaths]
        if not extra:
            return verdict, detail
        if verdict == "PASS":
            detail = f"[measured: {detail}]"
        return "FAIL", "; ".join(extra + [detail])


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", required=True, help="the temporary folder of the run")
    parser.add_argument("--binary", required=True, help="the thumbforge binary being served")
    parser.add_argument("--results-fd", type=int, required=True,
                        help="where the row lines go (standard output talks to attack.sh)")
    parser.add_argument("--only", help="only these rows (N,M,…)")
    args = parser.parse_args()
    # Standard input and output are attack.sh's answers and requests; nothing else may use
    # them, so the programs the rows run get the results descriptor and no input.
    requests = os.fdopen(os.dup(1), "w")
    answers = os.fdopen(os.dup(0), "r")
    os.dup2(args.results_fd, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    results = os.fdopen(os.dup(1), "w")
    sys.exit(Suite(args, Host(requests, answers), results).run())


if __name__ == "__main__":
    main()
