"""Peak RSS of one render per extreme shape, against the README's memory model.

Usage: memory.py THUMBFORGE_BINARY WORK_FOLDER. Masters are made with the `vips` command
(libvips-tools); each case is built by a fresh process, whose peak resident set size is read
with getrusage(RUSAGE_CHILDREN) in a fresh Python child (so cases do not mix).
"""

import json
import os
import subprocess
import sys

BINARY, WORK = sys.argv[1], sys.argv[2]

# The model (README, "Limits and memory"): bytes a render may hold at its peak.
BASE_MB = 80  # the process: Swift runtime, libvips and its modules, the plan
PER_INPUT = 8  # the decoded master held whole (RGBA 8-bit) and the loader's own buffers
PER_WORKING = 16  # a working image: a vector rasterisation, or smart crop's analysis of one
PER_OUTPUT = 12  # the output, its padded/masked copy and the encoder's buffers


def model_mb(cost):
    return (
        BASE_MB * 2**20
        + PER_INPUT * cost["input"]
        + PER_WORKING * cost["working"]
        + PER_OUTPUT * cost["output"]
    ) / 2**20


def vips(*args):
    subprocess.run(["vips", *map(str, args)], check=True, cwd=WORK)


def make_photo(path, width, height, alpha=False):
    """A textured picture: gaussian noise, blurred a little, as 8-bit sRGB."""
    vips("gaussnoise", "n.v", width, height, "--sigma", 40, "--mean", 128)
    bands = 4 if alpha else 3
    vips("bandjoin", " ".join(["n.v"] * bands), "b.v")
    vips("cast", "b.v", "c.v", "uchar")
    vips("copy", "c.v", path if "[" in path else path + "[strip]")
    for temporary in ("n.v", "b.v", "c.v"):
        os.remove(os.path.join(WORK, temporary))


def make_svg(path, width, height):
    with open(os.path.join(WORK, path), "w") as f:
        f.write(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
            f'<rect width="{width}" height="{height / 2}" fill="#c8102e"/>'
            f'<rect y="{height / 2}" width="{width}" height="{height / 2}" fill="#003087"/></svg>'
        )


CASES = [
    # name, master file, maker, recipe
    ("64 MP JPEG, variants", "Big@3x.jpg", lambda p: make_photo(p, 8000, 8000), "{ kind: variants }"),
    ("64 MP PNG with alpha, fill", "Alpha.png", lambda p: make_photo(p, 8000, 8000, alpha=True), "{ kind: fill, size: [400, 200] }"),
    ("1×5000 PNG, fill attention @2x", "Pole.png", lambda p: make_photo(p, 1, 5000), "{ kind: fill, size: [400, 200], gravity: attention, scales: [2] }"),
    ("1×200000 PNG, fill @3x", "Wire.png", lambda p: make_photo(p, 1, 200000), "{ kind: fill, size: [400, 200], scales: [3] }"),
    ("20000×200 JPEG, fill attention @3x", "Band.jpg", lambda p: make_photo(p, 20000, 200), "{ kind: fill, size: [400, 200], gravity: attention, scales: [3] }"),
    ("4000×4000 PNG, tile attention @3x", "Square.png", lambda p: make_photo(p, 4000, 4000), "{ kind: tile, gravity: attention, scales: [3] }"),
    ("10×2000 pt SVG, fill @3x", "Thin.svg", lambda p: make_svg(p, 10, 2000), "{ kind: fill, size: [400, 200], scales: [3] }"),
    ("20×400 pt SVG, fill attention @3x", "Post.svg", lambda p: make_svg(p, 20, 400), "{ kind: fill, size: [400, 200], gravity: attention, scales: [3] }"),
    ("3000×3000 pt SVG, fit @3x", "Wide.svg", lambda p: make_svg(p, 3000, 3000), "{ kind: fit, size: [3000, 3000], scales: [3] }"),
]


def peak_kb(arguments):
    probe = (
        "import resource, subprocess, sys\n"
        "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
        "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.stderr.write(r.stderr.decode())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, *arguments], capture_output=True, text=True, check=True
    )
    status, kb = out.stdout.split()
    return int(status), int(kb), out.stderr.strip()


rows = []
for index, (name, master, make, recipe) in enumerate(CASES):
    folder = os.path.join(WORK, f"case{index}")
    os.makedirs(folder)
    make(os.path.join(f"case{index}", master))
    with open(os.path.join(folder, "thumbforge.yml"), "w") as f:
        f.write(
            "output: ../out{0}/Assets.xcassets\n"
            'rules: [{{ match: "**", recipes: [r] }}]\n'
            "recipes: {{ r: {1} }}\n".format(index, recipe)
        )
    plan = json.loads(
        subprocess.run(
            [BINARY, "build", folder, "--dry-run", "--json"], capture_output=True, check=True
        ).stdout
    )
    costs = [o["cost"] for s in plan["imageSets"] for o in s["outputs"]]
    # One job renders its outputs one after another from one decode: the bound is the
    # decode plus the largest working image and output of any of them.
    cost = {
        "input": max(c["input"] for c in costs),
        "working": max(c["working"] for c in costs),
        "output": max(c["output"] for c in costs),
    }
    status, kb, stderr = peak_kb([BINARY, "build", folder, "--jobs", "1"])
    measured = kb / 1024
    bound = model_mb(cost)
    rows.append((name, cost, status, measured, bound, stderr))

print()
print("| case | input px | working px | output px | exit | peak RSS | model bound | peak / bound |")
print("|---|---|---|---|---|---|---|---|")
held = True
for name, cost, status, measured, bound, stderr in rows:
    held &= measured <= bound
    print(
        f"| {name} | {cost['input']:,} | {cost['working']:,} | {cost['output']:,} | {status} "
        f"| {measured:.0f} MB | {bound:.0f} MB | {measured / bound:.2f} |"
    )
    if status != 0:
        print(f"|  ↳ {stderr.splitlines()[-1] if stderr else ''} | | | | | | | |")
print()
print("model: %d MB + %d B × input + %d B × working + %d B × output" % (BASE_MB, PER_INPUT, PER_WORKING, PER_OUTPUT))
print("every case within the model" if held else "SOME CASE EXCEEDS THE MODEL")
sys.exit(0 if held else 1)
