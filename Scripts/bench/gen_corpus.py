#!/usr/bin/env python3
"""Deterministic benchmark corpora (fixed seeds; files that exist are kept, so reruns are fast).

    gen_corpus.py photos OUT --count N [--src DIR]   12–24 MP JPEGs (q90), landscape and portrait
    gen_corpus.py svgs OUT --count N                  flag-like SVG masters (150x100 pt)
    gen_corpus.py tiny OUT --count N                  16x16 PNGs in folders of 100
    gen_corpus.py per-scale OUT --count N             N/2 icons drawn at @2x and @3x (noise,
                                                      40–60 pt): PNGs shipped as they are

Photos are mosaics of upscaled, cropped, flipped and re-toned crops of the real photos in
--src (the snowseeker corpus), with a little seeded sensor-like noise so they compress like
camera JPEGs; without --src they are built from seeded Perlin noise. Photo i depends only on
i, so the first 100 of a 400-photo pool are the 100-photo corpus.
"""
import argparse
import multiprocessing
import os
import random
import shutil
import sys

import pyvips

GEN_VERSION = "5"  # bump when the recipe below changes; cached photos are then remade


def sources(src):
    if not src or not os.path.isdir(src):
        return []
    names = sorted(n for n in os.listdir(src) if n.lower().endswith((".jpg", ".jpeg")))
    return [os.path.join(src, n) for n in names]


def photo_size(rng):
    mp = rng.uniform(12, 24) * 1e6
    a, b = rng.choice([(4, 3), (3, 2), (16, 9)])
    long_side = (mp * a / b) ** 0.5
    w, h = int(long_side) // 2 * 2, int(long_side * b / a) // 2 * 2
    return (h, w) if rng.random() < 0.35 else (w, h)


def tile_from_photo(rng, path, w, h):
    image = pyvips.Image.new_from_file(path)
    # Upscale by 1–2.2x beyond what covers the tile (bounded, so detail stays photo-like).
    cover = max(w / image.width, h / image.height)
    factor = cover * rng.uniform(1.0, 2.2)
    if factor < 1:
        factor = max(factor, cover)
    scaled = image.resize(factor, kernel="cubic")
    x = rng.randint(0, max(0, scaled.width - w))
    y = rng.randint(0, max(0, scaled.height - h))
    tile = scaled.crop(x, y, min(w, scaled.width), min(h, scaled.height))
    if rng.random() < 0.5:
        tile = tile.fliphor()
    gain = rng.uniform(0.85, 1.15)
    tint = [rng.uniform(-12, 12) for _ in range(3)]
    return tile.linear([gain] * 3, tint)


def tile_generated(rng, w, h):
    bands = []
    for _ in range(3):
        cell = rng.choice([64, 128, 256, 512])
        p = pyvips.Image.perlin(w, h, cell_size=cell, seed=rng.randint(0, 2**30))
        bands.append(p.linear(rng.uniform(90, 140), rng.uniform(90, 160)))
    return bands[0].bandjoin(bands[1:]).copy(interpretation="srgb")


def make_photo(index, out, srcs, seed):
    rng = random.Random(seed * 1_000_003 + index)
    w, h = photo_size(rng)
    cols = rows = rng.choice([1, 2, 2, 3])
    tw, th = -(-w // cols), -(-h // rows)
    tiles = []
    for _ in range(rows * cols):
        if srcs:
            tiles.append(tile_from_photo(rng, rng.choice(srcs), tw, th))
        else:
            tiles.append(tile_generated(rng, tw, th))
    image = pyvips.Image.arrayjoin(tiles, across=cols).crop(0, 0, w, h)
    # Seeded grain: one 1021x1019 noise tile (odd sizes, so it does not align with JPEG blocks)
    # repeated over the photo; much faster than per-pixel noise at 24 MP.
    noise = pyvips.Image.gaussnoise(1021, 1019, sigma=rng.uniform(3.5, 6.0), mean=0,
                                    seed=rng.randint(0, 2**30)).copy_memory()
    noise = noise.replicate(-(-w // 1021), -(-h // 1019)).crop(0, 0, w, h)
    image = (image + noise).cast("uchar").copy(interpretation="srgb")
    tmp = out + ".tmp.jpg"
    image.jpegsave(tmp, Q=90, strip=True)
    os.replace(tmp, out)
    return w, h


def cmd_photos(args):
    os.makedirs(args.out, exist_ok=True)
    srcs = sources(args.src)
    stamp = os.path.join(args.out, ".gen")
    want = f"v{GEN_VERSION} seed={args.seed} src={'photos' if srcs else 'generated'}"
    if not os.path.exists(stamp) or open(stamp).read().strip() != want:
        for name in os.listdir(args.out):
            os.remove(os.path.join(args.out, name))
        with open(stamp, "w") as f:
            f.write(want + "\n")
    if not srcs:
        print(f"gen_corpus: no photos in {args.src!r}; generating content from seeded noise")
    todo = [(i, os.path.join(args.out, f"photo-{i:04d}.jpg"), srcs, args.seed)
            for i in range(args.count)]
    todo = [t for t in todo if not os.path.exists(t[1])]
    with multiprocessing.Pool(os.cpu_count() or 2) as pool:
        for path, w, h in pool.imap(_photo_job, todo):
            print(f"  {os.path.basename(path)}: {w}x{h} ({w * h / 1e6:.1f} MP, "
                  f"{os.path.getsize(path) / 1e6:.1f} MB)", flush=True)
    print(f"gen_corpus: {args.count} photos in {args.out} ({len(todo)} new)")


def _photo_job(item):
    index, path, srcs, seed = item
    w, h = make_photo(index, path, srcs, seed)
    return path, w, h


FLAG_SHAPES = [
    "vertical", "horizontal", "cross", "disc", "diagonal", "star",
]


def svg_flag(index, rng):
    colors = ["#%02X%02X%02X" % (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255))
              for _ in range(3)]
    shape = FLAG_SHAPES[index % len(FLAG_SHAPES)]
    body = [f'<rect width="300" height="200" fill="{colors[0]}"/>']
    if shape == "vertical":
        body += [f'<rect x="100" width="100" height="200" fill="{colors[1]}"/>',
                 f'<rect x="200" width="100" height="200" fill="{colors[2]}"/>']
    elif shape == "horizontal":
        body += [f'<rect y="67" width="300" height="66" fill="{colors[1]}"/>',
                 f'<rect y="133" width="300" height="67" fill="{colors[2]}"/>']
    elif shape == "cross":
        body += [f'<rect x="80" width="40" height="200" fill="{colors[1]}"/>',
                 f'<rect y="80" width="300" height="40" fill="{colors[1]}"/>']
    elif shape == "disc":
        body += [f'<circle cx="150" cy="100" r="60" fill="{colors[1]}"/>']
    elif shape == "diagonal":
        body += [f'<path d="M0 200 L300 0 L300 200 Z" fill="{colors[1]}"/>']
    else:
        body += [f'<path transform="translate(150 100)" fill="{colors[1]}" '
                 'd="M0 -70 L16 -22 L67 -22 L26 8 L41 57 L0 27 L-41 57 L-26 8 L-67 -22 L-16 -22 Z"/>']
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="150" height="100" viewBox="0 0 300 200">\n  '
            + "\n  ".join(body) + "\n</svg>\n")


def cmd_svgs(args):
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.count):
        rng = random.Random(args.seed * 7919 + i)
        path = os.path.join(args.out, f"Flag {i + 1:02d}.svg")
        text = svg_flag(i, rng)
        if not os.path.exists(path) or open(path).read() != text:
            with open(path, "w") as f:
                f.write(text)
    print(f"gen_corpus: {args.count} SVG masters in {args.out}")


def noise_icons(args, kind, what, side, draw):
    """The tiny and per-scale corpora: kept when its stamp says it was made with these
    settings; else `draw(base, rng)` writes it from a seeded RGB noise square of `side`
    pixels (noise: the costliest PNG to decode for its size)."""
    stamp = os.path.join(args.out, ".gen")
    want = f"{kind} v{GEN_VERSION} seed={args.seed} count={args.count}"
    if os.path.exists(stamp) and open(stamp).read().strip() == want:
        print(f"gen_corpus: {args.count} {what} in {args.out} (cached)")
        return
    shutil.rmtree(args.out, ignore_errors=True)
    rng = random.Random(args.seed)
    base = pyvips.Image.gaussnoise(side, side, sigma=60, mean=128, seed=args.seed)
    base = base.bandjoin([base.rot90(), base.rot180()]).cast("uchar").copy(interpretation="srgb")
    draw(base.copy_memory(), rng)
    with open(stamp, "w") as f:
        f.write(want + "\n")
    print(f"gen_corpus: {args.count} {what} in {args.out}")


def cmd_tiny(args):
    def draw(base, rng):
        for i in range(args.count):
            folder = os.path.join(args.out, f"g{i // 100:03d}")
            os.makedirs(folder, exist_ok=True)
            x, y = rng.randrange(0, 63) * 16, rng.randrange(0, 63) * 16
            base.crop(x, y, 16, 16).pngsave(os.path.join(folder, f"icon-{i:05d}.png"), strip=True)
    noise_icons(args, "tiny", "tiny 16x16 PNG sources", 16 * 64, draw)


def cmd_per_scale(args):
    def draw(base, rng):
        for i in range(args.count // 2):
            folder = os.path.join(args.out, f"g{i // 50:03d}")
            os.makedirs(folder, exist_ok=True)
            points = rng.randrange(40, 61)
            x, y = rng.randrange(0, 720 - 3 * points), rng.randrange(0, 720 - 3 * points)
            for scale in (2, 3):
                tile = base.crop(x, y, points * scale, points * scale)
                tile.pngsave(os.path.join(folder, f"icon-{i:05d}@{scale}x.png"), strip=True)
    noise_icons(args, "per-scale", "per-scale PNG masters", 720, draw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["photos", "svgs", "tiny", "per-scale"])
    ap.add_argument("out")
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--src")
    ap.add_argument("--seed", type=int, default=6)
    args = ap.parse_args()
    commands = {"photos": cmd_photos, "svgs": cmd_svgs, "tiny": cmd_tiny,
                "per-scale": cmd_per_scale}
    commands[args.what](args)


if __name__ == "__main__":
    sys.exit(main())
