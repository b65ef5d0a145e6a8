#!/usr/bin/env python3
"""The Pillow / Pillow-SIMD peer: what a competent Pillow user writes for this workload.

    peer_pillow.py PLAN.json OUT_DIR [--processes 2]

One task per asset on a multiprocessing Pool(2); each master that needs rendering is opened
once, with JPEG `draft()` shrink-on-load to the largest size its outputs need, converted once,
and every output is derived from that image: LANCZOS resizes (`ImageOps.fit`-style
`resize(box=...)` for centre crops), flags masked with an `ImageDraw.rounded_rectangle` drawn
at 4x and reduced (anti-aliased edges) plus a border of 1 px per scale, JPEG q82 (optimized
Huffman tables when the workload asks, as ThumbForge does by default) / PNG saves.
Outputs that are byte copies of a per-scale master are copied. SVG masters are rasterised
with cairosvg at each output's size (Pillow cannot read SVG).
"""
import argparse
import json
import os
import shutil
import sys
from io import BytesIO
from multiprocessing import Pool

from PIL import Image, ImageDraw

LANCZOS = Image.Resampling.LANCZOS
SUPERSAMPLE = 4
_masks = {}
_plan_folder = ""
_out_dir = ""


def flag_layers(width, height, radius, stroke):
    """(alpha mask, border overlay) for one flag size, drawn at 4x and reduced; cached."""
    key = (width, height, radius, stroke)
    if key not in _masks:
        s = SUPERSAMPLE
        big = (width * s, height * s)
        mask = Image.new("L", big, 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, big[0] - 1, big[1] - 1), radius=radius * s, fill=255)
        border = Image.new("RGBA", big, (0, 0, 0, 0))
        if stroke > 0:
            ImageDraw.Draw(border).rounded_rectangle(
                (0, 0, big[0] - 1, big[1] - 1), radius=radius * s, outline=(0, 0, 0, 255),
                width=round(stroke * s))
        _masks[key] = (mask.resize((width, height), LANCZOS), border.resize((width, height), LANCZOS))
    return _masks[key]


def save(image, out, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if out["format"] == "jpeg":
        if image.mode != "RGB":
            image = image.convert("RGB")
        image.save(path, "JPEG", quality=out["quality"], optimize=out["optimize"])
    else:
        image.save(path, "PNG")


def derive(image, out):
    """One output from the decoded master (already at or above every needed size)."""
    rw, rh = out["resize"]
    if out["crop"]:
        # Resize only the part that survives the centre crop (what ImageOps.fit does).
        cx, cy, cw, ch = out["crop"]
        sx, sy = image.width / rw, image.height / rh
        box = (cx * sx, cy * sy, (cx + cw) * sx, (cy + ch) * sy)
        result = image.resize((cw, ch), LANCZOS, box=box)
    elif (rw, rh) != image.size:
        result = image.resize((rw, rh), LANCZOS)
    else:
        result = image
    if out["kind"] == "flag":
        mask, border = flag_layers(result.width, result.height, out["radius"], out["stroke"])
        result = result.convert("RGBA")
        result.putalpha(mask)
        result = Image.alpha_composite(result, border)
    return result


def render_svg(path, out):
    import cairosvg
    rw, rh = out["resize"]
    png = cairosvg.svg2png(url=path, output_width=rw, output_height=rh)
    image = Image.open(BytesIO(png))
    # cairosvg drops alpha when the drawing is opaque; an SVG master keeps it (as ThumbForge).
    return image.convert("RGBA") if image.mode != "RGBA" else image


def process(job):
    by_master = {}
    done = 0
    for out in job["outputs"]:
        dest = os.path.join(_out_dir, out["path"])
        src = os.path.join(_plan_folder, out["master"])
        if out["mode"] == "copy":
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(src, dest)
            done += 1
        else:
            by_master.setdefault(out["master"], []).append(out)
    masters = {m["path"]: m for m in job["masters"]}
    for path, outs in by_master.items():
        src = os.path.join(_plan_folder, path)
        if masters[path]["vector"]:
            for out in outs:
                image = render_svg(src, out)
                save(derive(image, out), out, os.path.join(_out_dir, out["path"]))
                done += 1
            continue
        image = Image.open(src)
        need = (max(o["resize"][0] for o in outs), max(o["resize"][1] for o in outs))
        if image.format == "JPEG":
            image.draft("RGB", need)  # DCT-domain shrink-on-load (1/2, 1/4, 1/8) when it fits
        mode = "RGBA" if image.mode in ("RGBA", "LA", "P") and masters[path]["alpha"] else "RGB"
        image = image.convert(mode) if image.mode != mode else image
        image.load()
        for out in outs:
            save(derive(image, out), out, os.path.join(_out_dir, out["path"]))
            done += 1
    return done


def init(folder, out_dir):
    global _plan_folder, _out_dir
    _plan_folder, _out_dir = folder, out_dir


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("plan")
    ap.add_argument("out")
    ap.add_argument("--processes", type=int, default=2)
    args = ap.parse_args()
    with open(args.plan) as f:
        plan = json.load(f)
    jobs = [j for j in plan["jobs"] if j["outputs"]]
    pool = Pool(args.processes, initializer=init, initargs=(plan["folder"], args.out))
    total = sum(pool.imap_unordered(process, jobs))
    pool.close()
    pool.join()
    print(f"{total} outputs")
    return 0 if total == plan["outputs"] else 1


if __name__ == "__main__":
    sys.exit(main())
