#!/usr/bin/env python3
"""Verifies every tool's outputs against the plan, so a fast wrong answer cannot win.

    check.py PLAN.json --json VERDICT.json TOOL=DIR [TOOL=DIR ...] [--manifest TF_MANIFEST]

Per output: the file exists (no missing, no extra image files), its format (JPEG/PNG) and
exact pixel size match the plan; flags have alpha, a fully transparent corner, an opaque
centre, anti-aliased (intermediate) alpha on the curve and a dark border; outputs planned
with alpha have it. Content: a 12x12 fingerprint of the output (half its size when smaller) must be close (mean absolute
RGB difference) to the same region of the master, so a blank, shifted or stretched image fails.
With --manifest, ThumbForge's own manifest must list exactly the planned files and sizes
(the plan and ThumbForge agree on the workload).

Each tool's verdict also records the total bytes of its planned outputs and the SHA-256 of
each one, for report.py's comparison of output sizes and of ThumbForge's bytes with the
previous run's.
"""
import argparse
import hashlib
import json
import os
import sys

import pyvips

FP = 12
FP_FLAG = 4  # flag interiors are small and striped: a coarse fingerprint avoids aliasing
LIMIT = 6.0  # mean |ΔRGB| on 0–255 at 12x12: resamplers agree within ~2; a stretch scores ~12
LIMIT_FLAG = 14.0  # 4x4 interior of a striped 80x50 flag: correct outputs score up to ~9


def fingerprint(image, crop_frac=None, size=None):
    if image.hasalpha():
        image = image.flatten(background=[255, 255, 255])
    if image.bands > 3:
        image = image[:3]
    if crop_frac:
        fx, fy, fw, fh = crop_frac
        x, y = int(fx * image.width), int(fy * image.height)
        w = max(1, min(image.width - x, round(fw * image.width)))
        h = max(1, min(image.height - y, round(fh * image.height)))
        image = image.crop(x, y, w, h)
    size = size or FP
    return image.resize(size / image.width, vscale=size / image.height, kernel="linear").cast("float")


class References:
    def __init__(self, folder):
        self.folder = folder
        self.cache = {}

    def master(self, job, path):
        if path not in self.cache:
            m = next(m for m in job["masters"] if m["path"] == path)
            src = os.path.join(self.folder, path)
            if m["vector"]:
                image = pyvips.Image.new_from_file(src, scale=max(1.0, 400 / m["width"]))
            else:
                image = pyvips.Image.thumbnail(src, 400, height=400)
            self.cache[path] = image.copy_memory()
        return self.cache[path]

    def expected(self, job, out, inner=False, size=None):
        base = self.master(job, out["master"])
        rw, rh = out["resize"]
        frac = (0.0, 0.0, 1.0, 1.0)
        if out["crop"]:
            x, y, w, h = out["crop"]
            frac = (x / rw, y / rh, w / rw, h / rh)
        if inner:  # the middle half, as interior() takes it from the output
            fx, fy, fw, fh = frac
            frac = (fx + fw / 4, fy + fh / 4, fw / 2, fh / 2)
        return fingerprint(base, frac, size or (FP_FLAG if inner else FP))


def interior(image):
    """The middle of a flag, away from the mask and border."""
    return image.crop(image.width // 4, image.height // 4, max(1, image.width // 2), max(1, image.height // 2))


def file_hashes(out_dir, paths):
    """{path: SHA-256 hex} of the files `paths` (relative to `out_dir`)."""
    hashes = {}
    for path in sorted(paths):
        with open(os.path.join(out_dir, path), "rb") as f:
            hashes[path] = hashlib.sha256(f.read()).hexdigest()
    return hashes


def check_tool(plan, refs, out_dir):
    problems = []
    expected = {}
    for job in plan["jobs"]:
        for out in job["outputs"]:
            expected[out["path"]] = (job, out)
    found = set()
    for root, _, files in os.walk(out_dir):
        for name in files:
            if name.lower().endswith((".png", ".jpg", ".jpeg", ".webp")):
                found.add(os.path.relpath(os.path.join(root, name), out_dir).replace(os.sep, "/"))
    for path in sorted(found - set(expected)):
        problems.append(f"{path}: not in the plan (extra output)")
    for path in sorted(set(expected) - found):
        problems.append(f"{path}: missing")
    worst = 0.0
    for path in sorted(set(expected) & found):
        job, out = expected[path]
        full = os.path.join(out_dir, path)
        try:
            image = pyvips.Image.new_from_file(full)
            loader = image.get("vips-loader")
            want_loader = {"jpeg": "jpegload", "png": "pngload"}[out["format"]]
            if loader != want_loader:
                problems.append(f"{path}: is {loader}, expected {want_loader}")
            if (image.width, image.height) != (out["width"], out["height"]):
                problems.append(f"{path}: {image.width}x{image.height}, expected {out['width']}x{out['height']}")
                continue
            if out["alpha"] and out["format"] == "png" and not image.hasalpha():
                problems.append(f"{path}: no alpha channel")
            if out["kind"] == "flag":
                if not image.hasalpha():
                    problems.append(f"{path}: flag without alpha")
                else:
                    alpha = image[image.bands - 1]
                    w, h = image.width, image.height
                    corner = max(alpha.getpoint(0, 0)[0], alpha.getpoint(w - 1, 0)[0],
                                 alpha.getpoint(0, h - 1)[0], alpha.getpoint(w - 1, h - 1)[0])
                    if corner > 0:
                        problems.append(f"{path}: corner alpha {corner:g}, expected 0")
                    if alpha.getpoint(w // 2, h // 2)[0] < 255:
                        problems.append(f"{path}: centre not opaque")
                    hist = alpha.hist_find()
                    partial = sum(hist.getpoint(v, 0)[0] for v in range(1, 255))
                    if partial == 0:
                        problems.append(f"{path}: no anti-aliased edge (alpha only 0/255)")
                    if out["stroke"] > 0:
                        edge = image.getpoint(w // 2, 0)
                        if max(edge[:3]) > 110 or edge[3] < 200:
                            problems.append(f"{path}: no dark border at the top edge ({edge})")
            if out["kind"] == "flag":
                got = fingerprint(interior(image), size=FP_FLAG)
                ref = refs.expected(job, out, inner=True)
            else:
                # An output smaller than the fingerprint is compared at half its size: each
                # cell then averages the resamplers' differences on pixel-scale detail away.
                small = min(image.width, image.height)
                size = FP if small >= FP else max(1, small // 2)
                got = fingerprint(image, size=size)
                ref = refs.expected(job, out, size=size)
            diff = (got - ref).abs().avg()
            limit = LIMIT_FLAG if out["kind"] == "flag" else LIMIT
            worst = max(worst, diff / limit)
            if diff > limit:
                problems.append(f"{path}: content differs from the master (mean |ΔRGB| {diff:.1f} > {limit})")
        except pyvips.Error as error:
            problems.append(f"{path}: unreadable ({str(error).splitlines()[0]})")
    present = found & set(expected)
    return {"valid": not problems, "checked": len(present), "expected": len(expected),
            "worst_diff": round(worst, 2), "problems": problems,
            "bytes": sum(os.path.getsize(os.path.join(out_dir, p)) for p in present),
            "hashes": file_hashes(out_dir, present)}


def check_manifest(plan, manifest_path):
    with open(manifest_path) as f:
        manifest = json.load(f)
    tf = {}
    for image_set in manifest["imageSets"]:
        for out in image_set["outputs"]:  # catalog-relative, group folders included
            tf[out["path"]] = (out["width"], out["height"])
    planned = {o["path"]: (o["width"], o["height"]) for j in plan["jobs"] for o in j["outputs"]}
    problems = [f"plan has {p} {planned[p]}, ThumbForge {tf.get(p)}" for p in sorted(planned) if tf.get(p) != planned[p]]
    problems += [f"ThumbForge made {p}, not planned" for p in sorted(set(tf) - set(planned))]
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("plan")
    ap.add_argument("tools", nargs="+", help="NAME=DIR")
    ap.add_argument("--json", required=True)
    ap.add_argument("--manifest")
    ap.add_argument("--corpus", required=True)
    args = ap.parse_args()
    with open(args.plan) as f:
        plan = json.load(f)
    refs = References(plan["folder"])
    verdict = {}
    if args.manifest:
        mismatch = check_manifest(plan, args.manifest)
        verdict["_plan"] = {"valid": not mismatch, "problems": mismatch}
        print(f"    plan vs ThumbForge manifest: {'agree' if not mismatch else 'DISAGREE'}")
        for line in mismatch[:10]:
            print(f"      {line}")
    for item in args.tools:
        name, _, out_dir = item.partition("=")
        result = check_tool(plan, refs, out_dir)
        verdict[name] = result
        state = "ok" if result["valid"] else "INVALID"
        print(f"    check {name:<28} {state}: {result['checked']}/{result['expected']} outputs, "
              f"worst content diff {result['worst_diff']:.2f} of the limit")
        for line in result["problems"][:8]:
            print(f"      {line}")
        if len(result["problems"]) > 8:
            print(f"      … {len(result['problems']) - 8} more")
    existing = {}
    if os.path.exists(args.json):
        with open(args.json) as f:
            existing = json.load(f)
    existing.setdefault(args.corpus, {}).update(verdict)
    with open(args.json, "w") as f:
        json.dump(existing, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
