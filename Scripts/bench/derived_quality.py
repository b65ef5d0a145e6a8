#!/usr/bin/env python3
"""How close two builds' resized JPEG outputs are to a reference, and how large they are.

    derived_quality.py PLAN.json CATALOG_A CATALOG_B [--labels A B] [--max-side N]

PLAN.json is plan.py's plan of the folder both catalogs were built from (bench.sh writes
it to bench-work/runs/CORPUS/plan.json). For every resized JPEG output of the plan (copied
masters are skipped, and so are outputs whose longer side exceeds --max-side, 2000 by
default: the 2x variants of the large set, which no build derives from another output),
both catalogs' files are compared with a reference: a Lanczos-3 resize of the master's
whole decode in floating point (pyvips `resize`), cropped as planned and rounded. Per
output kind it prints the mean PSNR of each catalog's decoded files against that reference
(after JPEG encoding, as shipped) and their total bytes.

Used for the finer levels: build the folder twice, once with them and once without,
and compare (README, *Each master is decoded once*). Needs pyvips (bench-work/venv).
"""
import argparse
import collections
import json
import math
import os

import pyvips


def psnr(image, reference):
    diff = image.cast("float") - reference.cast("float")
    mse = (diff * diff).avg()
    return float("inf") if mse == 0 else 10 * math.log10(255 * 255 / mse)


def reference(master, out):
    width, height = out["resize"]
    image = master.resize(width / master.width, vscale=height / master.height, kernel="lanczos3")
    if out["crop"]:
        x, y, w, h = out["crop"]
        image = image.crop(x, y, w, h)
    return image.rint()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("plan")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--labels", nargs=2, default=["A", "B"])
    ap.add_argument("--max-side", type=int, default=2000)
    args = ap.parse_args()
    with open(args.plan) as f:
        plan = json.load(f)
    totals = collections.defaultdict(lambda: {"n": 0, "psnr": [0.0, 0.0], "bytes": [0, 0]})
    for job in plan["jobs"]:
        outputs = [o for o in job["outputs"] if o["format"] == "jpeg" and not o.get("copy")
                   and max(o["width"], o["height"]) <= args.max_side]
        decoded = {}
        for out in outputs:
            files = [os.path.join(c, out["path"]) for c in (args.a, args.b)]
            if not all(os.path.exists(f) for f in files):
                continue
            source = os.path.join(plan["folder"], out["master"])
            if source not in decoded:
                decoded[source] = pyvips.Image.new_from_file(source).autorot().cast("float").copy_memory()
            ref = reference(decoded[source], out)
            entry = totals[out["kind"]]
            entry["n"] += 1
            for i, path in enumerate(files):
                entry["psnr"][i] += psnr(pyvips.Image.new_from_file(path), ref)
                entry["bytes"][i] += os.path.getsize(path)
    a, b = args.labels
    print(f"{'kind':<10} {'outputs':>7} {'PSNR ' + a:>12} {'PSNR ' + b:>12} {'bytes ' + a:>14} {'bytes ' + b:>14}  ratio")
    every = {"n": sum(e["n"] for e in totals.values()),
             "psnr": [sum(e["psnr"][i] for e in totals.values()) for i in (0, 1)],
             "bytes": [sum(e["bytes"][i] for e in totals.values()) for i in (0, 1)]}
    for kind, entry in sorted(totals.items()) + [("all", every)]:
        n = entry["n"]
        if n == 0:
            continue
        print(f"{kind:<10} {n:>7} {entry['psnr'][0] / n:>12.3f} {entry['psnr'][1] / n:>12.3f} "
              f"{entry['bytes'][0]:>14,} {entry['bytes'][1]:>14,}  {entry['bytes'][0] / entry['bytes'][1]:.4f}")


if __name__ == "__main__":
    main()
