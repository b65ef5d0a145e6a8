"""Writes the URL paths of the load test: cold lists (every path new) for serve and thumbor,
and warm lists (a few paths repeated), over the photos of a folder.

  make_paths.py PHOTO_DIR OUT_DIR [COUNT]
Equivalent requests: serve `/unsafe/fill:WxH/Resorts/NAME@1x.jpg` (1x: points = pixels) and
thumbor `/unsafe/WxH/Resorts/NAME.jpg` (thumbor's default crop is a centred fill).
"""
import os, sys

photos, out = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 40000
names = sorted(f for f in os.listdir(photos) if f.endswith(".jpg"))
os.makedirs(out, exist_ok=True)
cold_serve, cold_thumbor = [], []
i = 0
while len(cold_serve) < count:
    name = names[i % len(names)]
    w = 200 + (i // len(names)) % 800
    h = 150 + (i // (len(names) * 800)) % 450
    asset = name[:-4].split("@")[0]
    cold_serve.append(f"/unsafe/fill:{w}x{h}/Resorts/{asset}@1x.jpg")
    cold_thumbor.append(f"/unsafe/{w}x{h}/Resorts/{name}")
    i += 1
warm_serve = [f"/unsafe/fill:{w}x{h}/Resorts/{n[:-4].split('@')[0]}@1x.jpg" for n in names for (w, h) in [(300, 300), (600, 400)]]
warm_thumbor = [f"/unsafe/{w}x{h}/Resorts/{n}" for n in names for (w, h) in [(300, 300), (600, 400)]]
for label, lines in [("cold-serve", cold_serve), ("cold-thumbor", cold_thumbor),
                     ("warm-serve", warm_serve), ("warm-thumbor", warm_thumbor)]:
    with open(os.path.join(out, label + ".txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
print(f"make_paths: {len(cold_serve)} cold and {len(warm_serve)} warm paths per tool, {len(names)} photos")
