#!/usr/bin/env python3
"""Times adopting a large catalog: `thumbforge init --from` then the first `build` (in place,
writing nothing new), a no-change rebuild and `check`, against copying the catalog with
`cp -R` (the floor: adoption copies every file once). Writes the result file adopt.json
(record.py: every repetition, each step's ratio to cp -R) and compares it with the baseline,
or makes it the baseline (--record).

    adopt.py --tool .build/release/thumbforge [--sets 1000] [--reps 5] [--record] [--work DIR]

The work happens under --work (default /dev/shm where it exists): on this project's VMs the
disk's file creation slows down more and more within a run of creates and deletes (each
cp -R of the same catalog slower than the one before), which would measure the disk's
throttling rather than the tool; a memory file system measures the tool. Each repetition's
ratio to cp -R is recorded too.

The generated catalog: `--sets` image sets in 10 groups (a 1x, 2x and 3x PNG of noise each,
a third with a dark appearance), a colour set per ten image sets, an app icon set; every
fifth PNG carries a text chunk (so init counts metadata).
"""
import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import record


def png(width, height, rng, text=False):
    """A PNG of random RGB noise (so files differ), optionally with a tEXt chunk."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    rows = b"".join(b"\0" + rng.randbytes(width * 3) for _ in range(height))
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    if text:
        out += chunk(b"tEXt", b"Comment\0exported by a design tool")
    return out + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")


def contents(obj):
    return json.dumps(obj, indent=2, sort_keys=True, separators=(",", " : ")) + "\n"


INFO = {"author": "xcode", "version": 1}


def make_catalog(root, sets, rng):
    os.makedirs(root)
    with open(os.path.join(root, "Contents.json"), "w") as f:
        f.write(contents({"info": INFO}))
    for index in range(sets):
        group = os.path.join(root, f"Group {index % 10}")
        if not os.path.exists(group):
            os.makedirs(group)
            with open(os.path.join(group, "Contents.json"), "w") as f:
                f.write(contents({"info": INFO, "properties": {"provides-namespace": True}}))
        folder = os.path.join(group, f"asset {index}.imageset")
        os.makedirs(folder)
        images = []
        for scale in (1, 2, 3):
            name = f"asset {index}@{scale}x.png"
            side = 12 * scale
            with open(os.path.join(folder, name), "wb") as f:
                f.write(png(side, side, rng, text=(index * 3 + scale) % 5 == 0))
            images.append({"filename": name, "idiom": "universal", "scale": f"{scale}x"})
            if index % 3 == 0:
                dark = f"asset {index}~dark@{scale}x.png"
                with open(os.path.join(folder, dark), "wb") as f:
                    f.write(png(side, side, rng))
                images.append({"appearances": [{"appearance": "luminosity", "value": "dark"}],
                               "filename": dark, "idiom": "universal", "scale": f"{scale}x"})
        with open(os.path.join(folder, "Contents.json"), "w") as f:
            f.write(contents({"images": images, "info": INFO}))
        if index % 10 == 0:
            colour = os.path.join(group, f"colour {index}.colorset")
            os.makedirs(colour)
            with open(os.path.join(colour, "Contents.json"), "w") as f:
                f.write(contents({"colors": [{"idiom": "universal", "color": {
                    "color-space": "srgb", "components": {
                        "red": "0.1", "green": "0.2", "blue": "0.3", "alpha": "1.000"}}}],
                    "info": INFO}))
    icon = os.path.join(root, "AppIcon.appiconset")
    os.makedirs(icon)
    with open(os.path.join(icon, "icon.png"), "wb") as f:
        f.write(png(64, 64, rng))
    with open(os.path.join(icon, "Contents.json"), "w") as f:
        f.write(contents({"images": [{"filename": "icon.png", "idiom": "universal",
                                      "platform": "ios", "size": "1024x1024"}], "info": INFO}))


def timed(command, expect=0):
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    if result.returncode != expect:
        sys.exit(f"{' '.join(command)}: exit {result.returncode}\n{result.stderr.decode()}")
    return wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", required=True)
    parser.add_argument("--sets", type=int, default=1000)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--record", action="store_true", help="make this run the baseline")
    parser.add_argument("--work", default="/dev/shm" if os.path.isdir("/dev/shm") else None)
    args = parser.parse_args()
    tool = os.path.abspath(args.tool)
    work = tempfile.mkdtemp(prefix="adopt-bench-", dir=args.work)
    try:
        master = os.path.join(work, "master", "Images.xcassets")
        make_catalog(master, args.sets, random.Random(26))
        files = sum(len(f) for _, _, f in os.walk(master))
        rows = {"cp": [], "init": [], "first build": [], "no-change build": [], "check": []}
        for rep in range(args.reps):
            case = os.path.join(work, f"rep{rep}")
            os.makedirs(case)
            rows["cp"].append(timed(["cp", "-R", master, os.path.join(case, "copy.xcassets")]))
            app = os.path.join(case, "App")
            os.makedirs(app)
            shutil.copytree(master, os.path.join(app, "Images.xcassets"))
            catalog = os.path.join(app, "Images.xcassets")
            art = os.path.join(app, "Art")
            rows["init"].append(timed([tool, "init", "--from", catalog, art]))
            rows["first build"].append(timed([tool, "build", art]))
            rows["no-change build"].append(timed([tool, "build", art]))
            rows["check"].append(timed([tool, "check", art]))
            shutil.rmtree(case)
        rows["adopting: `init --from` and the first build"] = [
            i + b for i, b in zip(rows["init"], rows["first build"])]
        names = {"cp": "`cp -R` of the catalog, for scale", "init": "`thumbforge init --from`"}
        table = {}
        for step, seconds in rows.items():
            table[names.get(step, step)] = {
                "seconds": record.figure(seconds),
                "÷ `cp -R`": None if step == "cp" else record.figure(
                    [s / c for s, c in zip(seconds, rows["cp"])], gate=True)}
        filesystem = subprocess.run(["stat", "-f", "-c", "%T", work], capture_output=True,
                                    text=True).stdout.strip()
        doc = record.document(
            "adopt", "Adopting a catalog", "Scripts/bench/adopt.py --tool BIN" + (
                f" --sets {args.sets}" if args.sets != 1000 else "") + f" --reps {args.reps}",
            {"adopt": {"key": "step", "rows": table,
                       "note": f"A catalog of {args.sets} image sets ({files} files) on {filesystem}, "
                               f"medians of {args.reps}; ÷ `cp -R`: the median of the repetitions' ratios."}},
            {"sets": args.sets, "filesystem": filesystem}, record.info(tool))
        for step, cells in table.items():
            print(f"{step:>45}: {cells['seconds']['value']:.3f} s")
        status = record.finish(doc, args.record)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(status)


if __name__ == "__main__":
    main()
