#!/usr/bin/env python3
"""The pyvips peer in the two styles its users write, on a multiprocessing Pool(2) with
VIPS_CONCURRENCY=1 (set by the caller) so the two levels of parallelism do not oversubscribe.

    peer_pyvips.py PLAN.json OUT_DIR --style thumbnail|derive [--processes 2]

thumbnail: `pyvips.Image.thumbnail(file, ...)` once per output (libvips' own shrink-on-load,
  `crop="centre"` for the boxed recipes, `size="force"` for exact variant sizes).
derive: each master loaded once (sequential access, JPEG `shrink` on load to the largest size
  its outputs need), copied to memory, and every output made from it with `resize` + `crop`.
Flags: a rounded-rect alpha mask and a border, rendered once per size from SVG with
`svgload_buffer`, applied with `bandjoin` + `composite`. JPEG Q=82 (optimize_coding as the
workload says), metadata stripped.
"""
import argparse
import json
import os
import shutil
import sys
from multiprocessing import Pool

import pyvips

_layers = {}
_folder = ""
_out_dir = ""
_style = "derive"


def rounded_rect_svg(width, height, radius, stroke, body):
    inset = stroke / 2
    if body:
        shape = (f'<rect x="0" y="0" width="{width}" height="{height}" rx="{radius}" ry="{radius}" '
                 'fill="#fff"/>')
    else:
        shape = (f'<rect x="{inset}" y="{inset}" width="{width - stroke}" height="{height - stroke}" '
                 f'rx="{max(0, radius - inset)}" ry="{max(0, radius - inset)}" fill="none" '
                 f'stroke="#000" stroke-width="{stroke}"/>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
            f'{shape}</svg>').encode()


def flag_layers(width, height, radius, stroke):
    key = (width, height, radius, stroke)
    if key not in _layers:
        mask = pyvips.Image.svgload_buffer(rounded_rect_svg(width, height, radius, stroke, True))
        border = pyvips.Image.svgload_buffer(rounded_rect_svg(width, height, radius, stroke, False))
        _layers[key] = (mask[3].copy_memory(), border.copy_memory())
    return _layers[key]


def finish(image, out):
    if out["kind"] == "flag":
        mask, border = flag_layers(image.width, image.height, out["radius"], out["stroke"])
        if image.hasalpha():
            image = image[:3]
        image = image.bandjoin(mask).composite2(border, "over").cast("uchar")
    path = os.path.join(_out_dir, out["path"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if out["format"] == "jpeg":
        if image.hasalpha():
            image = image.flatten(background=[255, 255, 255])
        image.jpegsave(path, Q=out["quality"], optimize_coding=out["optimize"], strip=True)
    else:
        image.pngsave(path, strip=True)


def thumbnail(src, out):
    rw, rh = out["resize"]
    if out["crop"]:
        w, h = out["width"], out["height"]
        return pyvips.Image.thumbnail(src, w, height=h, crop="centre")
    return pyvips.Image.thumbnail(src, rw, height=rh, size="force")


def derive(base, out):
    rw, rh = out["resize"]
    image = base
    if (rw, rh) != (base.width, base.height):
        image = base.resize(rw / base.width, vscale=rh / base.height)
    if out["crop"]:
        x, y, w, h = out["crop"]
        image = image.crop(x, y, w, h)
    return image


def process(job):
    done = 0
    by_master = {}
    for out in job["outputs"]:
        src = os.path.join(_folder, out["master"])
        if out["mode"] == "copy":
            dest = os.path.join(_out_dir, out["path"])
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(src, dest)
            done += 1
        elif _style == "thumbnail":
            finish(thumbnail(src, out), out)
            done += 1
        else:
            by_master.setdefault(out["master"], []).append(out)
    masters = {m["path"]: m for m in job["masters"]}
    for path, outs in by_master.items():
        src = os.path.join(_folder, path)
        master = masters[path]
        if master["vector"]:
            for out in outs:
                rw = out["resize"][0]
                image = pyvips.Image.new_from_file(src, scale=rw / master["width"])
                finish(derive(image, out), out)
                done += 1
            continue
        need_w = max(o["resize"][0] for o in outs)
        need_h = max(o["resize"][1] for o in outs)
        shrink = 1
        if master["ext"] in ("jpg", "jpeg"):
            for factor in (2, 4, 8):
                if -(-master["width"] // factor) >= need_w and -(-master["height"] // factor) >= need_h:
                    shrink = factor
        options = {"shrink": shrink} if shrink > 1 else {}
        # Sequential decode, then one in-memory copy shared by every output. (With libvips
        # 8.14, a random-access load copied to memory makes every later resize that uses a box
        # pre-shrink much slower, so a competent user loads sequentially.)
        base = pyvips.Image.new_from_file(src, access="sequential", **options).autorot()
        if len(outs) > 1:
            base = base.copy_memory()
        for out in outs:
            finish(derive(base, out), out)
            done += 1
    return done


def init(folder, out_dir, style):
    global _folder, _out_dir, _style
    _folder, _out_dir, _style = folder, out_dir, style


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("plan")
    ap.add_argument("out")
    ap.add_argument("--style", choices=["thumbnail", "derive"], required=True)
    ap.add_argument("--processes", type=int, default=2)
    args = ap.parse_args()
    with open(args.plan) as f:
        plan = json.load(f)
    jobs = [j for j in plan["jobs"] if j["outputs"]]
    pool = Pool(args.processes, initializer=init, initargs=(plan["folder"], args.out, args.style))
    total = sum(pool.imap_unordered(process, jobs))
    pool.close()
    pool.join()
    print(f"{total} outputs")
    return 0 if total == plan["outputs"] else 1


if __name__ == "__main__":
    sys.exit(main())
