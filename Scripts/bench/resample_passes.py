#!/usr/bin/env python3
"""The resampler's passes side by side: the portable, AVX2 and widest (AVX-512 where the CPU
has it) passes of Sources/CResample on the resizes a 24 MP photo of the large corpus gets
(its 2x variant from the 3x master, the 1x from the half-size copy, a fit into 1024 px from
a quarter); fails if any two passes give different bytes.

    resample_passes.py [--reps N] [--record]

Compiles resample_passes.c with the resampler's sources (cc or clang, -O2), then runs each
resize --reps times (default 5), one timing of every pass a run; a figure is the best of
them, every repetition kept. The result is Scripts/bench/results/resample-passes.json
(record.py), written to bench-work/results/ and compared with the baseline, or made the
baseline with --record. On a CPU without AVX-512 its column says so.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import record

RESIZES = [
    ((6000, 4000, 4000, 2667), "6000×4000 → 4000×2667 (the 2x variant of a 3x master)"),
    ((3000, 2000, 2000, 1333), "3000×2000 → 2000×1333 (the 1x, from the half-size copy)"),
    ((1500, 1000, 1024, 683), "1500×1000 → 1024×683 (a fit, from a quarter)"),
]
PASS = re.compile(r"  (portable|AVX2|AVX-512|widest \(AVX2\)) ([0-9.]+) ms")


def compile_program(work):
    compiler = os.environ.get("CC") or shutil.which("clang") or shutil.which("cc")
    if not compiler:
        sys.exit("resample_passes.py: no C compiler (cc or clang)")
    source = os.path.join(record.ROOT, "Sources", "CResample")
    program = os.path.join(work, "resample_passes")
    files = ["resample.c", "resample_avx2.c", "resample_avx512.c", "weights.c"]
    subprocess.run([compiler, "-O2", f"-I{source}/include", f"-I{source}",
                    os.path.join(record.ROOT, "Scripts", "bench", "resample_passes.c"),
                    *(os.path.join(source, f) for f in files), "-lm", "-lpthread",
                    "-o", program], check=True)
    return program


def run_once(program, size):
    """One run of every pass on one resize: {pass: ms}; exits when the bytes differ."""
    result = subprocess.run([program, *map(str, size), "1"], capture_output=True, text=True)
    if result.returncode != 0 or "same bytes" not in result.stdout:
        sys.exit(f"resample_passes.py: {size}: the passes differ or failed:\n"
                 f"{result.stdout}{result.stderr}")
    return {name: float(ms) for name, ms in PASS.findall(result.stdout)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--record", action="store_true", help="make this run the baseline")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="resample-passes-")
    try:
        program = compile_program(work)
        rows = {}
        for size, label in RESIZES:
            runs = [run_once(program, size) for _ in range(args.reps)]
            rows[label] = {
                column: record.figure([r[column] for r in runs], of=min, digits=3)
                if column in runs[0] else "not on this CPU"
                for column in ("portable", "AVX2", "AVX-512")}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    doc = record.document(
        "resample-passes", "The resampler's passes",
        f"Scripts/bench/resample_passes.py --reps {args.reps}",
        {"passes": {"key": "resize (Lanczos-3, RGB)", "rows": rows,
                    "note": f"milliseconds, the best of {args.reps} runs; every pass gave "
                            "the same bytes"}},
        parameters={"reps": args.reps})
    return record.finish(doc, args.record)


if __name__ == "__main__":
    sys.exit(main())
