#!/usr/bin/env python3
"""Encoder effort against size and time, on the outputs of a real build.

    encoders.py --thumbforge BIN --corpus NAME=FOLDER ... [--reps N] [--record]

Builds each FOLDER with BIN into a temporary catalog, reads every rendered PNG and JPEG
output back into memory, and encodes them all again under each setting: PNG at zlib level
6 without row filters (ThumbForge's default, libvips'), level 1, level 3 with adaptive
filtering, and level 9; JPEG at the workload's quality with optimized Huffman tables (the
default), with standard ones, and progressive. Records, per setting and corpus, the total
bytes and the CPU seconds (this process, libvips single-threaded, every repetition kept),
the other settings relative to the default. Copied outputs are left out (they are the
master's bytes whatever the setting). Needs pyvips (bench.sh's venv:
bench-work/venv/bin/python). The result is Scripts/bench/results/encoders.json (record.py),
written to bench-work/results/ and compared with the baseline, or made the baseline with
--record.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("VIPS_CONCURRENCY", "1")
import pyvips  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import record  # noqa: E402

# (row, options); the first of each format is ThumbForge's default.
PNG = [
    ("PNG level 6, no filter (default)", dict(compression=6, filter="none")),
    ("PNG level 1", dict(compression=1, filter="none")),
    ("PNG level 3, adaptive filter", dict(compression=3, filter="all")),
    ("PNG level 9", dict(compression=9, filter="none")),
]


def jpeg_settings(quality):
    return [
        ("JPEG optimized Huffman (default)", dict(Q=quality, optimize_coding=True)),
        ("JPEG standard Huffman", dict(Q=quality, optimize_coding=False)),
        ("JPEG progressive", dict(Q=quality, optimize_coding=True, interlace=True)),
    ]


def rendered_outputs(folder, binary, catalog):
    """The rendered (not copied) outputs of a build, by format, read back into memory."""
    subprocess.run([binary, "build", folder, "-q", "-o", catalog], check=True,
                   stdout=subprocess.DEVNULL)
    job_plan = subprocess.run([sys.executable, os.path.join(HERE, "plan.py"), folder],
                              check=True, capture_output=True).stdout
    import json
    outputs = {"png": [], "jpeg": []}
    quality = 82
    for job in json.loads(job_plan)["jobs"]:
        for output in job["outputs"]:
            if output["mode"] == "copy" or output["format"] not in outputs:
                continue
            quality = output["quality"]
            image = pyvips.Image.new_from_file(os.path.join(catalog, output["path"]))
            outputs[output["format"]].append(image.copy_memory())
    return outputs, quality


def measure(images, save, options, reps):
    """(bytes, CPU seconds of each repetition) of encoding every image with `options`."""
    times = []
    size = 0
    for _ in range(reps):
        size = 0
        start = time.process_time()
        for image in images:
            size += len(getattr(image, save)(strip=True, **options))
        times.append(time.process_time() - start)
    return size, times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    record.corpus_options(
        parser, "a folder whose outputs to encode, under the name its columns take")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    binary = os.path.abspath(args.thumbforge)
    corpora = record.corpora(args.corpus)
    rows, counted = {}, []
    for name, folder in corpora:
        work = tempfile.mkdtemp(prefix="thumbforge-encoders-")
        try:
            outputs, quality = rendered_outputs(
                os.path.abspath(folder), binary, os.path.join(work, "Assets.xcassets"))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        counted.append(f"`{name}`: {len(outputs['png'])} PNG and {len(outputs['jpeg'])} JPEG outputs")
        print(f"{name} ({folder}): {len(outputs['png'])} PNG and {len(outputs['jpeg'])} JPEG "
              f"outputs rendered, {args.reps} repetitions")
        for save, settings in [("pngsave_buffer", PNG),
                               ("jpegsave_buffer", jpeg_settings(quality))]:
            images = outputs["png" if save.startswith("png") else "jpeg"]
            if not images:
                continue
            results = [(row, measure(images, save, options, args.reps)) for row, options in settings]
            base_size, base_times = results[0][1]
            for position, (row, (size, times)) in enumerate(results):
                cells = rows.setdefault(row, {})
                if position == 0:
                    cells[f"{name} bytes"] = size
                    cells[f"{name} CPU s"] = record.figure(times, digits=3)
                else:
                    cells[f"{name} bytes"] = record.sig(size / base_size, 4)
                    cells[f"{name} CPU s"] = record.figure(
                        [t / b for t, b in zip(times, base_times)], digits=3)
                print(f"  {row:35} {cells[f'{name} bytes']:>12} "
                      f"{cells[f'{name} CPU s']['value']:>8}")
    command = record.corpus_command(
        "encoders.py", args.corpus, f" --reps {args.reps}" if args.reps != 3 else "")
    doc = record.document(
        "encoders", "Encoder effort", command,
        {"encoders": {"key": "setting", "rows": rows,
                      "note": f"Bytes and CPU-seconds of all the encodes, medians of {args.reps}; "
                              "the other settings of each format relative to its default above "
                              "them. " + "; ".join(counted) + "."}},
        {"corpora": [n for n, _ in corpora], "reps": args.reps}, record.info(binary))
    sys.exit(record.finish(doc, args.record))


if __name__ == "__main__":
    main()
