#!/usr/bin/env python3
"""ThumbHash or BlurHash: the size and the fidelity of each placeholder on real outputs.

    placeholders.py --thumbforge BIN --corpus NAME=FOLDER [--corpus ...] [--record]

Each FOLDER is copied and built by ThumbForge with `placeholders: thumbhash`; each imageset's
placeholder stands for the file it was made from (its largest sRGB file). The ThumbHash is
ThumbForge's, decoded by PyPI's `thumbhash-python`; the BlurHash is PyPI's `blurhash` of the same file
shrunk to 100 pixels (4×3 components, 3×4 for a portrait image, as BlurHash recommends).
Both are decoded to ThumbHash's size (32 pixels on the longer side) and compared with the
file shrunk to that size by Pillow (box filter):

- bytes: what the placeholder costs in `manifest.json` (ThumbHash in base64, BlurHash's own
  base83 text);
- RGB error: root mean square over the pixels, 0–255, both composited over white;
- alpha error: mean absolute difference of the alpha channel, 0–255 (BlurHash has none: its
  decoded image is opaque); the worst image's too, as few images have much transparency.

Medians and 90th percentiles over the imagesets go to Scripts/bench/results/placeholders.json
(record.py; every value kept), written to bench-work/results/ and compared with the baseline,
or made the baseline with --record. Needs the bench venv with `thumbhash-python` and `blurhash`.
"""
import argparse
import base64
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

import record

try:
    import blurhash
    from PIL import Image
    from thumbhash.decode import thumbhash_to_rgba
except ImportError as error:
    sys.exit(f"placeholders.py: {error}; install Pillow, thumbhash-python and blurhash into the venv")


def placeholders(manifest_path):
    """(file, ThumbHash bytes) of each imageset: its `thumbHash` and the file the planner
    made it from (the largest raster output of the any appearance in sRGB)."""
    with open(manifest_path) as f:
        manifest = json.load(f)
    catalog = os.path.join(os.path.dirname(manifest_path), manifest["catalog"])
    for entry in manifest["imageSets"]:
        if "thumbHash" not in entry:
            continue
        outputs = [o for o in entry["outputs"] if o.get("appearance") is None
                   and o.get("displayGamut") is None and o["scale"] != 0]
        largest = max(outputs, key=lambda o: (o["width"] * o["height"], o["scale"]))
        yield os.path.join(catalog, largest["path"]), base64.b64decode(entry["thumbHash"])


def over_white(rgba):
    """RGB of an RGBA Pillow image composited over white."""
    background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    return Image.alpha_composite(background, rgba).convert("RGB")


def errors(decoded, reference):
    """(RGB root mean square over white, alpha mean absolute difference) of two RGBA images."""
    a, b = over_white(decoded).getdata(), over_white(reference).getdata()
    rgb = (sum((x - y) ** 2 for p, q in zip(a, b) for x, y in zip(p, q)) / (3 * len(a))) ** 0.5
    alpha = sum(abs(p - q) for p, q in zip(decoded.getdata(3), reference.getdata(3))) / len(a)
    return rgb, alpha


def measure(path, th):
    """{method: (bytes, rgb error, alpha error)} for one image and its ThumbHash."""
    image = Image.open(path).convert("RGBA")
    small = image.copy()
    small.thumbnail((100, 100), Image.Resampling.BOX)
    width, height, pixels = thumbhash_to_rgba(th)
    decoded = Image.frombytes("RGBA", (width, height), bytes(pixels))
    reference = image.resize((width, height), Image.Resampling.BOX)
    results = {"ThumbHash": (len(base64.b64encode(th)), *errors(decoded, reference))}

    x, y = (4, 3) if image.width >= image.height else (3, 4)
    rgb = small.convert("RGB")
    rows = [[list(rgb.getpixel((i, j))) for i in range(rgb.width)] for j in range(rgb.height)]
    bh = blurhash.encode(rows, components_x=x, components_y=y)
    blurred = blurhash.decode(bh, width, height)
    decoded = Image.frombytes(
        "RGB", (width, height),
        bytes(max(0, min(255, int(v))) for row in blurred for px in row for v in px[:3])).convert("RGBA")
    results["BlurHash"] = (len(bh), *errors(decoded, reference))
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    record.corpus_options(ap, "a folder to build, under the name the note gives it")
    args = ap.parse_args()
    binary = os.path.abspath(args.thumbforge)
    work = tempfile.mkdtemp(prefix="thumbforge-placeholders-")
    values = {}
    try:
        for name, corpus in record.corpora(args.corpus):
            folder = os.path.join(work, name, "masters")
            shutil.copytree(corpus, folder)
            with open(os.path.join(folder, "thumbforge.yml"), "a") as f:
                f.write("\nplaceholders: thumbhash\n")
            catalog = os.path.join(work, name, "Assets.xcassets")
            subprocess.run([binary, "build", folder, "-q", "-o", catalog], check=True)
            for path, th in placeholders(os.path.join(work, name, "manifest.json")):
                for method, figures in measure(path, th).items():
                    values.setdefault(method, []).append(figures)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def p90(xs):
        return statistics.quantiles(xs, n=10)[-1] if len(xs) > 1 else xs[0]

    rows = {}
    for method, figures in values.items():
        columns = list(zip(*figures))
        rows[method] = {
            "images": {"value": len(figures)},
            "bytes, median": record.figure(list(columns[0]), digits=3),
            "RGB error, median": record.figure(list(columns[1]), digits=3),
            "RGB error, 90th percentile": {"value": round(p90(list(columns[1])), 1)},
            "alpha error, median": record.figure(list(columns[2]), digits=3),
            "alpha error, 90th percentile": {"value": round(p90(list(columns[2])), 1)},
            "alpha error, worst": {"value": round(max(columns[2]), 1)},
        }
        print(f"{method}: " + ", ".join(f"{k} {v['value']}" for k, v in rows[method].items()))
    command = "Scripts/bench/placeholders.py --thumbforge BIN " + " ".join(
        f"--corpus {c}" for c in args.corpus)
    doc = record.document(
        "placeholders", "Placeholders", command,
        {"placeholders": {"key": "placeholder", "rows": rows,
                          "note": "Each imageset's largest file; errors on the 0–255 scale, "
                                  "against the image shrunk to the placeholder's size."}},
        {"corpora": [c.split("=")[0] for c in args.corpus]}, record.info(binary))
    sys.exit(record.finish(doc, args.record))


if __name__ == "__main__":
    main()
