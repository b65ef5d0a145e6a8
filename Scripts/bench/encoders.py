#!/usr/bin/env python3
"""Encoder effort against size and time, on the outputs of a real build.

    encoders.py FOLDER --thumbforge BIN [--reps N]

Builds FOLDER with BIN into a temporary catalog, reads every rendered PNG and JPEG output
back into memory, and encodes them all again under each setting: PNG at zlib levels
1, 3, 6 (ThumbForge's default, libvips') and 9, each without row filters (libvips'
default) and with adaptive filtering; JPEG at the workload's quality with and without
optimized Huffman tables, and progressive. Prints, per setting, the total bytes and the CPU
seconds (this process, libvips single-threaded, median of --reps), relative to the
default. Copied outputs are left out (they are the master's bytes whatever the setting).
Needs pyvips (bench.sh's venv: bench-work/venv/bin/python).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("VIPS_CONCURRENCY", "1")
import pyvips  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

PNG = [(f"png level {level}{', adaptive filter' if adaptive else ''}",
        dict(compression=level, filter="all" if adaptive else "none"))
       for level in (1, 3, 6, 9) for adaptive in (False, True)]
PNG_DEFAULT = "png level 6"


def jpeg_settings(quality):
    return [
        ("jpeg optimized Huffman", dict(Q=quality, optimize_coding=True)),
        ("jpeg standard Huffman", dict(Q=quality, optimize_coding=False)),
        ("jpeg progressive", dict(Q=quality, optimize_coding=True, interlace=True)),
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
    """(bytes, median CPU seconds) of encoding every image with `options`."""
    times = []
    size = 0
    for _ in range(reps):
        size = 0
        start = time.process_time()
        for image in images:
            size += len(getattr(image, save)(strip=True, **options))
        times.append(time.process_time() - start)
    return size, statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--thumbforge", metavar="BIN", required=True)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="thumbforge-encoders-")
    try:
        outputs, quality = rendered_outputs(
            os.path.abspath(args.folder), args.thumbforge,
            os.path.join(work, "Assets.xcassets"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{args.folder}: {len(outputs['png'])} PNG and {len(outputs['jpeg'])} JPEG outputs "
          f"rendered, medians of {args.reps}")
    print("| setting | bytes | vs default | CPU s | vs default |")
    print("|---|---:|---:|---:|---:|")
    for save, settings, default in [
        ("pngsave_buffer", PNG, PNG_DEFAULT),
        ("jpegsave_buffer", jpeg_settings(quality), "jpeg optimized Huffman"),
    ]:
        images = outputs["png" if save.startswith("png") else "jpeg"]
        if not images:
            continue
        results = {name: measure(images, save, options, args.reps) for name, options in settings}
        base_size, base_time = results[default]
        for name, (size, seconds) in results.items():
            mark = " (default)" if name == default else ""
            print(f"| {name}{mark} | {size:,} | {size / base_size:.3f}× | {seconds:.3f} | "
                  f"{seconds / max(base_time, 1e-9):.2f}× |")


if __name__ == "__main__":
    main()
