#!/usr/bin/env python3
"""Times iris, vipsthumbnail and Pillow thumbnailing the same corpus to 300 px, in one run.

iris runs with --jobs 1, --jobs 2 (and 4 when there are 4 cores or more) and its default
(--jobs = cores); vipsthumbnail with its default thread pool; Pillow in one process (one
thread). Each tool runs as one process over the same file repeated R times (so start-up cost is
spread), under /usr/bin/time -v for peak RSS; the tools take turns, best of three (BENCH_RUNS)
each. Prints images/s and peak RSS per tool and corpus, and the ratios of iris's default to
--jobs 1, vipsthumbnail and Pillow. WebP rows also time `webp_floor` (harness/webp_floor.c:
libwebp alone, one file at a time, with Iris's decoding options; it encodes and writes
nothing), the floor under any libwebp-based tool that works one file at a time, and print how
close iris --jobs 1 comes to it and what the floor is against vipsthumbnail. With
`--before PATH` another `iris` build (an earlier commit's) runs too, at its default jobs, and
each row prints the ratio of this build to it. BENCH_ONLY (comma-separated words, e.g. "progressive,WebP") keeps the rows whose label contains
one of them.
"""
import argparse, os, shutil, sys, tempfile
from bench_common import timed_cpu

CORPUS = "bench-corpus"
SIZE = 300
RUNS = int(os.environ.get("BENCH_RUNS", "3"))  # best of RUNS: a shared machine's spikes fall out
ONLY = [w.strip().lower() for w in os.environ.get("BENCH_ONLY", "").split(",") if w.strip()]
GROUPS = [  # (label, file, repeats)
    ("JPEG 4032x3024 baseline", "photo-4032x3024-baseline.jpg", 24),
    ("JPEG 4032x3024 EXIF 6", "photo-4032x3024-exif6.jpg", 8),
    ("JPEG 4032x3024 progressive", "photo-4032x3024-progressive.jpg", 8),
    ("PNG 2048x1536 RGBA", "photo-2048x1536-rgba.png", 12),
    ("WebP 2048x1536", "photo-2048x1536.webp", 12),
    ("PNG 10000x10000", "huge-10000x10000.png", 2),
    ("PNG 8000x6000 (48 MP)", "photo-8000x6000.png", 1),
    ("PNG 8192x6144 RGBA (50 MP)", "photo-8192x6144-rgba.png", 1),
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

def loadavg():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", help="another iris binary (an earlier build) measured in the same run")
    parser.add_argument("--webp-floor", help="the webp_floor binary (built by Benchmarks/runners/thumbnail)")
    args = parser.parse_args()
    iris = os.path.abspath(".build/release/IrisCLI")
    cores = os.cpu_count() or 1
    jobs = [1, 2] + ([4] if cores >= 4 else [])
    tools = [f"iris -j{j}" for j in jobs] + ["iris", "vips", "pillow"] + (["before"] if args.before else [])
    print(f"{cores} cores; load average at start {loadavg()}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        with open(os.path.join(tmp, "pillow_thumb.py"), "w") as f:
            f.write(PILLOW)
        for label, name, repeats in GROUPS:
            if ONLY and not any(word in label.lower() for word in ONLY):
                continue
            src = os.path.join(CORPUS, name)
            # Distinct names (symlinks) so every tool writes one output per input.
            files = []
            for i in range(repeats):
                link = os.path.join(tmp, f"in{i}_{name}")
                os.symlink(os.path.abspath(src), link)
                files.append(link)
            commands = {}
            row_tools = tools + (["floor"] if args.webp_floor and name.endswith(".webp") else [])
            for tool in row_tools:
                if tool == "before":
                    cmd = [os.path.abspath(args.before), "thumbnail", "--size", str(SIZE), "--out", out] + files
                elif tool.startswith("iris"):
                    cmd = [iris, "thumbnail", "--size", str(SIZE), "--out", out]
                    if tool != "iris":
                        cmd += ["--jobs", tool.split("-j")[1]]
                    cmd += files
                elif tool == "floor":
                    cmd = [os.path.abspath(args.webp_floor), str(SIZE)] + files
                elif tool == "vips":
                    cmd = ["vipsthumbnail", "-s", str(SIZE), "-o", out + "/%s.jpg[Q=85]"] + files
                else:
                    cmd = [sys.executable, os.path.join(tmp, "pillow_thumb.py"), str(SIZE), out] + files
                commands[tool] = cmd
            # Round robin, best of RUNS per tool: a burst of load elsewhere hits every tool alike.
            best = {}
            for _ in range(RUNS):
                for tool in row_tools:
                    shutil.rmtree(out, ignore_errors=True); os.makedirs(out)
                    secs, rss, cpu, _ = timed_cpu(commands[tool])
                    if tool not in best or secs < best[tool][0]:
                        best[tool] = (secs, rss, cpu)
            results = {tool: (repeats / secs, rss, cpu * 1000 / repeats) for tool, (secs, rss, cpu) in best.items()}
            for f in files:
                os.unlink(f)
            rows.append((f"{label} ×{repeats}", results))
    print(f"\nThumbnail to {SIZE} px, best of {RUNS} (images/s, peak RSS MiB); iris = default --jobs ({cores}); "
          f"vips = vipsthumbnail's default threads; Pillow = one process")
    head = (f"{'corpus':32}" + "".join(f"{t:>15}" for t in tools) + f"{'iris/j1':>9}{'iris/vips':>10}{'iris/Pillow':>12}"
            + (f"{'now/before':>11}" if args.before else ""))
    print(head)
    for label, r in rows:
        cells = "".join(f"{r[t][0]:8.2f} {r[t][1]:4.0f}M" .rjust(15) for t in tools)
        print(f"{label:32}{cells}{r['iris'][0] / r['iris -j1'][0]:8.2f}x{r['iris'][0] / r['vips'][0]:9.2f}x"
              f"{r['iris'][0] / r['pillow'][0]:11.2f}x" + (f"{r['iris'][0] / r['before'][0]:10.2f}x" if args.before else ""))
    for label, r in rows:
        if "floor" in r:
            print(f"{label}: libwebp floor {r['floor'][0]:.2f} images/s ({r['floor'][2]:.1f} ms of CPU an image); "
                  f"iris -j1 at {r['iris -j1'][0] / r['floor'][0]:.3f} of the floor's speed; "
                  f"floor/vips {r['floor'][0] / r['vips'][0]:.2f}x, iris -j1/vips {r['iris -j1'][0] / r['vips'][0]:.2f}x")
    print(f"\nCPU time (user + system) an image of the same best runs, ms")
    print(f"{'corpus':32}" + "".join(f"{t:>15}" for t in tools))
    for label, r in rows:
        print(f"{label:32}" + "".join(f"{r[t][2]:15.1f}" for t in tools))
    print(f"load average at end {loadavg()}")

if __name__ == "__main__":
    main()
