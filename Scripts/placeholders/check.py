#!/usr/bin/env python3
"""Decodes every placeholder of a build's manifest with an independent ThumbHash decoder
(PyPI's `thumbhash-python`) and checks it against the file it was made from (read by Pillow):

- every imageset with a raster file of the any appearance in sRGB has a `thumbHash`;
- the decoded image's orientation is the file's, and the aspect ratio the hash records (the
  shorter side in 1/5ths or 1/7ths of the longer) the file's, rounded;
- the decoded image's average colour is the file's (alpha-weighted), and its average alpha
  the file's, within the format's quantisation.

    check.py MANIFEST.json

Prints one line per problem and "N placeholders checked"; exits 1 on any problem.
"""
import base64
import json
import os
import sys

from PIL import Image
from thumbhash.decode import thumbhash_to_rgba

COLOUR_TOLERANCE = 0.05  # 0–1: the average's 6-bit luminance and colour differences
ALPHA_TOLERANCE = 0.07   # 0–1: the 4-bit alpha average


def source_file(entry):
    """The largest raster output of the any appearance in sRGB (the planner's choice)."""
    candidates = [o for o in entry["outputs"]
                  if o.get("appearance") is None and o.get("displayGamut") is None and o["scale"] != 0]
    return max(candidates, key=lambda o: (o["width"] * o["height"], o["scale"]), default=None)


def average_rgba(image):
    """An image's average colour weighted by alpha, and its average alpha, 0–1 (from the image
    box-filtered to 128 pixels a side, which keeps its averages); and its size."""
    image = image.convert("RGBA")
    size = image.size
    image.thumbnail((128, 128), Image.Resampling.BOX)
    total = [0.0, 0.0, 0.0]
    alpha_sum = 0.0
    pixels = image.tobytes()
    for i in range(0, len(pixels), 4):
        r, g, b, a = pixels[i:i + 4]
        w = a / 255
        total[0] += w * r / 255
        total[1] += w * g / 255
        total[2] += w * b / 255
        alpha_sum += w
    n = image.width * image.height
    colour = [c / alpha_sum for c in total] if alpha_sum else [0.0, 0.0, 0.0]
    return colour, alpha_sum / n, size


def check(entry, catalog):
    """The problems of one imageset's placeholder."""
    output = source_file(entry)
    name = entry["folder"]
    if output is None:
        return [f"{name}: has a placeholder but no raster sRGB file"] if "thumbHash" in entry else []
    if "thumbHash" not in entry:
        return [f"{name}: no thumbHash"]
    width, height, rgba = thumbhash_to_rgba(base64.b64decode(entry["thumbHash"]))
    if width <= 0 or height <= 0 or len(rgba) != width * height * 4:
        return [f"{name}: the placeholder decodes to {width}x{height}, {len(rgba)} bytes"]
    colour, alpha, (w, h) = average_rgba(Image.open(os.path.join(catalog, output["path"])))
    decoded_colour, decoded_alpha, _ = average_rgba(Image.frombytes("RGBA", (width, height), bytes(rgba)))
    problems = []
    if (w > h) != (width > height) or (w < h) != (width < height):
        problems.append(f"{name}: a {w}x{h} file, a {width}x{height} placeholder")
    # The header's count of cosine terms along the shorter side, of 5 (with alpha) or 7 along
    # the longer: the format's record of the aspect ratio (its specification's layout).
    hash_bytes = base64.b64decode(entry["thumbHash"])
    limit = 5 if hash_bytes[2] & 0x80 else 7
    expected = [max(1, round(limit * min(w, h) / max(w, h) + tie)) for tie in (-1e-9, 1e-9)]
    if hash_bytes[3] & 7 not in expected:
        problems.append(f"{name}: {hash_bytes[3] & 7} of {limit} terms across in the placeholder, "
                        f"{expected[1]} for a {w}x{h} file")
    if alpha > 0 and max(abs(x - y) for x, y in zip(decoded_colour, colour)) > COLOUR_TOLERANCE:
        rounded = lambda c: "(" + ", ".join(f"{x:.3f}" for x in c) + ")"
        problems.append(f"{name}: average colour {rounded(decoded_colour)} in the placeholder, "
                        f"{rounded(colour)} in the file")
    if abs(decoded_alpha - alpha) > ALPHA_TOLERANCE:
        problems.append(f"{name}: average alpha {decoded_alpha:.3f} in the placeholder, {alpha:.3f} in the file")
    return problems


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1].strip())
    path = sys.argv[1]
    with open(path) as f:
        manifest = json.load(f)
    catalog = os.path.join(os.path.dirname(path), manifest["catalog"])
    problems, checked = [], 0
    for entry in manifest["imageSets"]:
        if entry["recipe"] == "as-is" or entry["folder"].endswith(".appiconset"):
            continue
        problems += check(entry, catalog)
        checked += "thumbHash" in entry
    for problem in problems:
        print(problem)
    print(f"{checked} placeholders checked, {len(problems)} problems")
    sys.exit(1 if problems or checked == 0 else 0)


if __name__ == "__main__":
    main()
