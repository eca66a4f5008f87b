#!/usr/bin/env python3
"""Times iris, vipsthumbnail and Pillow thumbnailing the same corpus to 300 px, one job each.

Each tool runs as one process over the same file repeated R times (so start-up cost is spread),
under /usr/bin/time -v for peak RSS. Prints images/s per tool and format, and the ratios.
"""
import os, re, shutil, subprocess, sys, tempfile, time
from bench_common import timed

CORPUS = "bench-corpus"
SIZE = 300
GROUPS = [  # (label, file, repeats)
    ("JPEG 4032x3024 baseline", "photo-4032x3024-baseline.jpg", 12),
    ("JPEG 4032x3024 progressive", "photo-4032x3024-progressive.jpg", 8),
    ("PNG 2048x1536 RGBA", "photo-2048x1536-rgba.png", 12),
    ("WebP 2048x1536", "photo-2048x1536.webp", 12),
    ("PNG 10000x10000", "huge-10000x10000.png", 1),
]
PILLOW = """
import sys
from PIL import Image
size, out = int(sys.argv[1]), sys.argv[2]
for i, path in enumerate(sys.argv[3:]):
    with Image.open(path) as im:
        im.draft('RGB', (size, size))
        im.thumbnail((size, size), Image.LANCZOS)
        im.convert('RGB').save(f"{out}/{i}.jpg", quality=85)
"""

def main():
    iris = os.path.abspath(".build/release/iris")
    env1 = dict(os.environ, VIPS_CONCURRENCY="1")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "pillow_thumb.py"), "w") as f:
            f.write(PILLOW)
        for label, name, repeats in GROUPS:
            src = os.path.join(CORPUS, name)
            # Distinct names (symlinks) so every tool writes one output per input.
            files = []
            for i in range(repeats):
                link = os.path.join(tmp, f"in{i}_{name}")
                os.symlink(os.path.abspath(src), link)
                files.append(link)
            results = {}
            for tool in ("iris", "vips", "pillow"):
                out = os.path.join(tmp, "out-" + tool)
                shutil.rmtree(out, ignore_errors=True); os.makedirs(out)
                if tool == "iris":
                    cmd = [iris, "thumbnail", "--size", str(SIZE), "--jobs", "1", "--out", out] + files
                elif tool == "vips":
                    cmd = ["vipsthumbnail", "-s", str(SIZE), "-o", out + "/%s.jpg[Q=85]"] + files
                else:
                    cmd = [sys.executable, os.path.join(tmp, "pillow_thumb.py"), str(SIZE), out] + files
                best = None
                for _ in range(3):  # best of three runs
                    secs, rss, _ = timed(cmd, env=env1)
                    if best is None or secs < best[0]:
                        best = (secs, rss)
                results[tool] = (repeats / best[0], best[1])
            for f in files:
                os.unlink(f)
            rows.append((label, results))
    print(f"\nThumbnail to {SIZE} px, one job, best of 3 (images/s; peak RSS MiB)")
    print(f"{'corpus':30} {'iris':>14} {'vips':>14} {'Pillow':>14} {'iris/vips':>10} {'iris/Pillow':>12}")
    for label, r in rows:
        cell = lambda t: f"{r[t][0]:7.2f} {r[t][1]:5.0f}M"
        print(f"{label:30} {cell('iris'):>14} {cell('vips'):>14} {cell('pillow'):>14} "
              f"{r['iris'][0] / r['vips'][0]:9.2f}x {r['iris'][0] / r['pillow'][0]:11.2f}x")

if __name__ == "__main__":
    main()
