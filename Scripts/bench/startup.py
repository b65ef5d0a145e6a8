#!/usr/bin/env python3
"""What lies outside a build's `main`: the libraries the dynamic loader maps for libvips, the
start-up of a C program that only links libvips against the same program without it, and the
memory a build's exit unmaps.

    startup.py --thumbforge BIN --corpus NAME=FOLDER [--reps N] [--record]

- libraries: the shared objects `ldd` lists for the libvips that pkg-config names;
- start-up: `int main(void) { return 0; }` built twice with cc, once linked with libvips
  (`--no-as-needed`, so the loader maps it and everything it links) and once without; the
  median wall time of REPS runs of each (default 200), started one after another;
- memory: the peak resident size of `thumbforge build FOLDER` into an empty catalog (the
  most its exit can unmap), the median of 5 builds.

The result is Scripts/bench/results/start-up.json (record.py), written to
bench-work/results/ and compared with the baseline, or made the baseline with --record.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import record
import runs


def pkg_config(*args):
    return subprocess.run(["pkg-config", *args, "vips"], check=True, capture_output=True,
                          text=True).stdout.split()


def libvips_path():
    """The libvips shared object the linker would take."""
    for flag in pkg_config("--libs-only-L") + ["-L/usr/lib/x86_64-linux-gnu", "-L/usr/lib"]:
        folder = flag[2:]
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            if name.startswith("libvips.so."):
                return os.path.join(folder, name)
    sys.exit("startup.py: libvips.so not found; install libvips-dev")


def wall_ms(program, reps):
    """Each run's wall time in milliseconds."""
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        subprocess.run([program], check=True)
        times.append((time.perf_counter() - start) * 1000)
    return times


def peak_rss_mb(command):
    """The peak resident size of `command` (run to its end), in MB: its own, from wait4."""
    _, _, result, peak = runs.timed_run(command)
    if result.returncode != 0:
        sys.exit(f"startup.py: {' '.join(command)} exited {result.returncode}:\n"
                 f"{result.stderr.decode()}")
    return peak


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    record.corpus_options(ap, "a folder to build for the exit's memory")
    ap.add_argument("--reps", type=int, default=200)
    args = ap.parse_args()
    (name, corpus), = record.corpora(args.corpus[:1])
    corpus = os.path.abspath(corpus)
    binary = os.path.abspath(args.thumbforge)
    cc = shutil.which("cc") or shutil.which("clang") or sys.exit("startup.py: no C compiler")
    work = tempfile.mkdtemp(prefix="thumbforge-startup-")
    try:
        source = os.path.join(work, "empty.c")
        with open(source, "w") as f:
            f.write("int main(void) { return 0; }\n")
        with_vips, without = os.path.join(work, "with-vips"), os.path.join(work, "without")
        subprocess.run([cc, "-O2", source, "-o", with_vips, "-Wl,--no-as-needed",
                        *pkg_config("--libs")], check=True)
        subprocess.run([cc, "-O2", source, "-o", without], check=True)
        libraries = [line for line in subprocess.run(
            ["ldd", libvips_path()], check=True, capture_output=True, text=True).stdout.splitlines()
            if "=>" in line or line.strip().startswith("/")]
        wall_ms(with_vips, 10)  # the page cache warmed for both
        wall_ms(without, 10)
        linked, bare = [], []
        for _ in range(args.reps // 10):  # alternated in tens, so drift affects both alike
            linked += wall_ms(with_vips, 10)
            bare += wall_ms(without, 10)
        memory = []
        for rep in range(5):
            out = os.path.join(work, f"build-{rep}", "Assets.xcassets")
            memory.append(peak_rss_mb([binary, "build", corpus, "-q", "-o", out]))
            shutil.rmtree(os.path.dirname(out))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    rows = {
        "libraries libvips links": {"count": len(libraries)},
        "start-up of a C program that only links libvips": {"ms": record.figure(linked, digits=3)},
        "start-up of the same program without libvips": {"ms": record.figure(bare, digits=3)},
        f"peak memory of a full build of `{os.path.basename(corpus.rstrip('/'))}`, which the exit unmaps":
            {"MB": record.figure(memory, digits=3)},
    }
    for row, cells in rows.items():
        print(f"{row}: " + ", ".join(
            f"{v['value'] if isinstance(v, dict) else v} {k}" for k, v in cells.items()))
    doc = record.document(
        "start-up", "What lies outside a build's main: start-up and exit",
        record.corpus_command("startup.py", args.corpus, f" --reps {args.reps}"),
        {"start-up": {"key": "", "rows": rows,
                      "note": f"Medians of {args.reps} runs of each program and of 5 builds."}},
        {"corpus": name, "reps": args.reps}, record.info(binary))
    sys.exit(record.finish(doc, args.record))


if __name__ == "__main__":
    main()
