#!/usr/bin/env python3
"""The vipsthumbnail peer: one process per output, two at a time, as a shell user runs it.

    peer_vipsthumbnail.py PLAN.json OUT_DIR PREFIX    (writes PREFIX.mkdir.sh and PREFIX.cmds)
    sh PREFIX.mkdir.sh && xargs -P2 -d '\\n' -n1 sh -c < PREFIX.cmds

Writes one shell command per output (the caller times the xargs run): `vipsthumbnail -s WxH!`
for variants, `-s WxH -m centre` for the boxed recipes, `cp` for byte-copied per-scale
masters; a flag is `vipsthumbnail` into a .v temp file, then `vips composite` with a
rounded-rect mask and border SVG (written here, once per size) in modes dest-in (8) and over (2).
PREFIX.mkdir.sh makes every output folder first.
"""
import json
import os
import shlex
import sys


def main():
    plan_path, out_dir, prefix = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    with open(plan_path) as f:
        plan = json.load(f)
    layers_dir = os.path.join(os.path.dirname(out_dir), os.path.basename(out_dir) + "-layers")
    os.makedirs(layers_dir, exist_ok=True)
    folders = set()
    lines = []
    q = shlex.quote
    for job in plan["jobs"]:
        for out in job["outputs"]:
            src = os.path.join(plan["folder"], out["master"])
            dest = os.path.join(out_dir, out["path"])
            folders.add(os.path.dirname(dest))
            jpeg = f"[Q={out['quality']}{',optimize_coding' if out['optimize'] else ''},strip]"
            save = dest + (jpeg if out["format"] == "jpeg" else "[strip]")
            if out["mode"] == "copy":
                lines.append(f"cp {q(src)} {q(dest)}")
                continue
            if out["crop"]:
                size = f"{out['width']}x{out['height']}"
                args = f"-s {size} -m centre"
            else:
                size = f"{out['resize'][0]}x{out['resize'][1]}!"
                args = f"-s {q(size)}"
            if out["kind"] != "flag":
                lines.append(f"vipsthumbnail {q(src)} {args} -o {q(save)}")
                continue
            w, h, r, s = out["width"], out["height"], out["radius"], out["stroke"]
            mask = os.path.join(layers_dir, f"mask-{w}x{h}-{r:g}-{s:g}.svg")
            border = os.path.join(layers_dir, f"border-{w}x{h}-{r:g}-{s:g}.svg")
            with open(mask, "w") as f:
                f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">'
                        f'<rect width="{w}" height="{h}" rx="{r:g}" ry="{r:g}" fill="#fff"/></svg>')
            with open(border, "w") as f:
                f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">'
                        f'<rect x="{s / 2:g}" y="{s / 2:g}" width="{w - s:g}" height="{h - s:g}" '
                        f'rx="{max(0, r - s / 2):g}" ry="{max(0, r - s / 2):g}" fill="none" '
                        f'stroke="#000" stroke-width="{s:g}"/></svg>')
            tmp = os.path.join(layers_dir, f"tmp-{len(lines)}.v")  # no spaces: composite splits on them
            lines.append(f"vipsthumbnail {q(src)} {args} -o {q(tmp)} && "
                         f"vips composite {q(tmp + ' ' + mask + ' ' + border)} {q(save)} '8 2' && rm {q(tmp)}")
    with open(prefix + ".mkdir.sh", "w") as f:
        f.write("mkdir -p " + " ".join(q(d) for d in sorted(folders)) + "\n")
    with open(prefix + ".cmds", "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
