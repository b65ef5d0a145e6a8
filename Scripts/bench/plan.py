#!/usr/bin/env python3
"""Turns a ThumbForge workload (`thumbforge.yml`) and an asset folder into the exact list of
outputs ThumbForge produces, so every peer can render the same set and the checker can verify
it. This mirrors DESIGN.md "Sources and naming" / "Recipes" for the keys the benchmark uses
(master-scale, scales, format, quality, rules, recipes with kind/size/scales/gravity=center/
radius/stroke-width/format/quality/upscale); anything else is refused so a silent mismatch
cannot happen.

    plan.py FOLDER [--config FILE] > plan.json

The plan is a JSON object {"jobs": [...], "outputs": N}; one job per asset with its masters
and its outputs (catalog-relative path, pixel size, resize size, crop, mode copy/render,
format, alpha, mask radius and stroke in pixels).
"""
import argparse
import json
import math
import os
import re
import sys

import yaml

RASTER = {"png", "jpg", "jpeg", "webp", "heic", "heif", "avif", "tif", "tiff", "gif"}
VECTOR = {"svg", "pdf"}
KINDS = {"variants", "fit", "fill", "flag", "tile"}
TOP_KEYS = {"output", "manifest", "swift", "master-scale", "scales", "format", "quality", "rules",
            "recipes", "default-recipes", "concurrency", "limit-input-pixels", "fail-on",
            "optimize-coding"}
RECIPE_KEYS = {"kind", "size", "scales", "gravity", "radius", "stroke-width", "format", "quality",
               "upscale", "optimize-coding"}


def rnd(x):
    """Swift's `.rounded()` (half away from zero) for the non-negative values used here."""
    return int(math.floor(x + 0.5))


def builtin(kind):
    r = {"kind": kind, "size": (0.0, 0.0), "scales": [2, 3], "format": "auto", "quality": 82,
         "optimize": True,
         "radius": 0.0, "stroke": 0.0, "upscale": "never" if kind == "variants" else "warn"}
    if kind == "fit":
        r["size"] = (400.0, 400.0)
    elif kind == "fill":
        r["size"] = (400.0, 200.0)
    elif kind == "flag":
        r.update(size=(40.0, 25.0), radius=5.0, stroke=1.0, format="png")
    elif kind == "tile":
        r["size"] = (300.0, 300.0)
    return r


def read_config(path):
    with open(path) as f:
        doc = yaml.safe_load(f) or {}
    unknown = set(doc) - TOP_KEYS
    if unknown:
        sys.exit(f"plan.py: {path}: keys not modelled by the benchmark planner: {sorted(unknown)}")
    cfg = {"master_scale": int(doc.get("master-scale", 3)), "rules": [], "recipes": {},
           "default": doc.get("default-recipes", ["variants"])}
    scales = sorted(doc.get("scales", [2, 3]))
    fmt = doc.get("format", "auto")
    quality = int(doc.get("quality", 82))
    optimize = bool(doc.get("optimize-coding", True))
    for kind in KINDS:
        r = builtin(kind)
        r["name"] = kind
        r["scales"] = scales
        if kind != "flag":
            r["format"] = fmt
        r["quality"] = quality
        r["optimize"] = optimize
        cfg["recipes"][kind] = r
    for name, node in (doc.get("recipes") or {}).items():
        unknown = set(node) - RECIPE_KEYS
        if unknown:
            sys.exit(f"plan.py: recipe {name}: keys not modelled by the benchmark planner: {sorted(unknown)}")
        base = cfg["recipes"].get(name)
        kind = node.get("kind", base["kind"] if base else None)
        if kind not in KINDS:
            sys.exit(f"plan.py: recipe {name}: unknown kind {kind!r}")
        if base is None or base["kind"] != kind:
            r = builtin(kind)
            r["scales"] = scales
            r["quality"] = quality
            r["optimize"] = optimize
            if kind != "flag":
                r["format"] = fmt
        else:
            r = dict(base)
        r["name"] = name
        if "size" in node:
            s = node["size"]
            r["size"] = (float(s), float(s)) if not isinstance(s, list) else (float(s[0]), float(s[1]))
        if "scales" in node:
            r["scales"] = sorted(node["scales"])
        if "gravity" in node and node["gravity"] not in ("center", "centre"):
            sys.exit(f"plan.py: recipe {name}: only gravity center is modelled")
        if "radius" in node:
            r["radius"] = float(node["radius"])
        if "stroke-width" in node:
            r["stroke"] = float(node["stroke-width"])
        for key in ("format", "upscale"):
            if key in node:
                r[key] = node[key]
        if "quality" in node:
            r["quality"] = int(node["quality"])
        if "optimize-coding" in node:
            r["optimize"] = bool(node["optimize-coding"])
        cfg["recipes"][name] = r
    for rule in doc.get("rules") or []:
        cfg["rules"].append((glob_regex(rule["match"]), rule.get("recipes", ["variants"])))
    return cfg


def glob_regex(pattern):
    """ThumbForge's Glob: `*` within a folder, `**` across, `?`, `{a,b}`."""
    out, i, depth = "^", 0, 0
    while i < len(pattern):
        c = pattern[i]
        if c == "*":
            if pattern[i + 1:i + 2] == "*":
                if pattern[i + 2:i + 3] == "/":
                    out += "(?:.*/)?"
                    i += 3
                else:
                    out += ".*"
                    i += 2
                continue
            out += "[^/]*"
        elif c == "?":
            out += "[^/]"
        elif c == "{":
            depth += 1
            out += "(?:"
        elif c == "}":
            depth -= 1
            out += ")"
        elif c == "," and depth > 0:
            out += "|"
        else:
            out += re.escape(c)
        i += 1
    return re.compile(out + "$")


def parse_name(file_name):
    stem, dot, ext = file_name.rpartition(".")
    if not dot or not stem:
        return None
    ext = ext.lower()
    if ext not in RASTER | VECTOR:
        return None
    scale = None
    m = re.match(r"^(.*)@([123])x$", stem)
    if m:
        stem, scale = m.group(1), int(m.group(2))
    if not stem:
        return None
    return stem, scale, ext


def probe(path, ext):
    """(width, height, has_alpha, plain_srgb) from the header, as ThumbForge's MasterProbe."""
    import pyvips
    image = pyvips.Image.new_from_file(path, access="sequential")
    orientation = image.get("orientation") if image.get_typeof("orientation") else 1
    rotated = orientation in (5, 6, 7, 8)
    w, h = (image.height, image.width) if rotated else (image.width, image.height)
    plain = (image.interpretation == "srgb" and image.format == "uchar" and orientation == 1
             and not image.get_typeof("icc-profile-data"))
    return w, h, image.hasalpha(), plain


def fit_size(src, box):
    scale = min(box[0] / src[0], box[1] / src[1])
    w, h = src[0] * scale, src[1] * scale
    width_bound = w >= h * box[0] / box[1]
    if width_bound:
        return box[0], min(box[1], max(1, rnd(h)))
    return min(box[0], max(1, rnd(w))), box[1]


def fill_size(src, box):
    scale = max(box[0] / src[0], box[1] / src[1])
    return max(box[0], rnd(src[0] * scale)), max(box[1], rnd(src[1] * scale)), scale


def pixels(point, scale):
    return max(1, rnd(point[0] * scale)), max(1, rnd(point[1] * scale))


def out_format(recipe, master, has_alpha):
    if recipe["kind"] == "flag":
        return "png" if recipe["format"] == "auto" else recipe["format"]
    if recipe["format"] == "auto":
        return "png" if has_alpha or master["ext"] in ("png", "svg", "pdf", "gif") else "jpeg"
    return recipe["format"]


def plan(folder, config_path):
    cfg = read_config(config_path)
    assets = {}
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or name in ("thumbforge.yml", "thumbforge.yaml", "thumbforge.json"):
                continue
            parsed = parse_name(name)
            if not parsed:
                continue
            stem, scale, ext = parsed
            rel = os.path.relpath(os.path.join(root, name), folder).replace(os.sep, "/")
            group = os.path.dirname(rel)
            vector = ext in VECTOR
            w, h, alpha, plain = probe(os.path.join(folder, rel), ext)
            master = {"path": rel, "ext": ext, "vector": vector, "width": w, "height": h,
                      "alpha": True if vector else alpha, "plain": plain,
                      "scale": None if vector else (scale or cfg["master_scale"])}
            assets.setdefault((group, stem), []).append(master)
    jobs = []
    total = 0
    for (group, asset), masters in sorted(assets.items()):
        recipes = cfg["default"]
        for regex, names in cfg["rules"]:
            if any(regex.match(m["path"]) for m in masters):
                recipes = names
                break
        outputs = []
        skipped = []
        for recipe_name in recipes:
            recipe = cfg["recipes"][recipe_name]
            set_name = asset if recipe_name == "variants" else f"{asset}-{recipe_name}"
            for scale in recipe["scales"]:
                out = plan_output(recipe, masters, scale)
                if isinstance(out, str):
                    skipped.append(f"{set_name}@{scale}x: {out}")
                    continue
                fmt = out["format"]
                ext = "jpg" if fmt == "jpeg" else fmt
                file_name = f"{asset}@{scale}x.{ext}"
                out["path"] = "/".join(p for p in (group, set_name + ".imageset", file_name) if p)
                out["recipe"] = recipe_name
                out["kind"] = recipe["kind"]
                out["scale"] = scale
                out["quality"] = recipe["quality"]
                out["optimize"] = recipe["optimize"]
                outputs.append(out)
        total += len(outputs)
        jobs.append({"asset": asset, "group": group, "masters": masters, "outputs": outputs,
                     "skipped": skipped})
    return {"folder": os.path.abspath(folder), "jobs": jobs, "outputs": total}


def plan_output(recipe, masters, scale):
    vector = next((m for m in masters if m["vector"]), None)
    rasters = [m for m in masters if not m["vector"]]
    largest = max(rasters, key=lambda m: m["width"] * m["height"]) if rasters else None
    point = lambda m: (m["width"] / (m["scale"] or 1), m["height"] / (m["scale"] or 1))
    if recipe["kind"] == "variants":
        exact = next((m for m in rasters if m["scale"] == scale), None)
        if exact:
            fmt = out_format(recipe, exact, exact["alpha"])
            same = fmt == {"jpg": "jpeg"}.get(exact["ext"], exact["ext"])
            mode = "copy" if same and exact["plain"] else "render"
            size = (exact["width"], exact["height"])
            return dict(master=exact["path"], mode=mode, width=size[0], height=size[1], resize=size,
                        crop=None, format=fmt, alpha=exact["alpha"], radius=0, stroke=0)
        if vector:
            size = pixels(point(vector), scale)
            return dict(master=vector["path"], mode="render", width=size[0], height=size[1],
                        resize=size, crop=None, format=out_format(recipe, vector, True), alpha=True,
                        radius=0, stroke=0)
        if not largest:
            return "no master"
        size = pixels(point(largest), scale)
        if size[0] > largest["width"] or size[1] > largest["height"]:
            return f"would enlarge {largest['path']}"
        return dict(master=largest["path"], mode="render", width=size[0], height=size[1], resize=size,
                    crop=None, format=out_format(recipe, largest, largest["alpha"]),
                    alpha=largest["alpha"], radius=0, stroke=0)
    master = vector or largest
    box = pixels(recipe["size"], scale)
    ref = pixels(point(master), 1) if master["vector"] else (master["width"], master["height"])
    crop = None
    if recipe["kind"] == "fit":
        factor = min(box[0] / ref[0], box[1] / ref[1])
        resized = fit_size(ref, box)
        size = resized
    else:
        rw, rh, factor = fill_size(ref, box)
        resized = (rw, rh)
        size = box
        crop = ((rw - box[0]) // 2, (rh - box[1]) // 2, min(box[0], rw), min(box[1], rh))
    if not master["vector"] and factor > 1.0001 and recipe["upscale"] == "never":
        return "upscale: never"
    always_alpha = recipe["kind"] == "flag" or recipe["radius"] > 0
    alpha = always_alpha or master["alpha"]
    return dict(master=master["path"], mode="render", width=size[0], height=size[1], resize=resized,
                crop=crop, format=out_format(recipe, master, alpha), alpha=alpha,
                radius=recipe["radius"] * scale, stroke=recipe["stroke"] * scale)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--config")
    args = ap.parse_args()
    config = args.config or os.path.join(args.folder, "thumbforge.yml")
    json.dump(plan(args.folder, config), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
