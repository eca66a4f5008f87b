#!/usr/bin/env python3
"""Animated images: Iris next to Pillow (and libwebp's anim_dump, when given) in one run.

1. Decode every frame of a 60-frame 480x270 GIF at 120 px: Iris (AnimationBench decode: decode
   at the target, then every frame in order) vs Pillow (open, seek each frame, thumbnail it to
   120 px). Best of 5 runs inside each process, so start-up is not counted.
2. Every frame of the same GIF at full size written as PNG files: `iris frames` vs `anim_dump`
   (libwebp's example, built by Benchmarks/runners/animation), best of 3 whole-process runs.
3. Playing a 1,000-frame 480x270 GIF at 200 px: the most bytes Iris's animation held, its bound
   (buffer + canvas + saved region + encoded data), and the peak RSS of the Iris process and of
   Pillow's (thumbnail of each frame in turn, keeping only the current one).
The GIFs are written by Pillow's GIF encoder: moving shapes over a gradient, palette images,
sub-rectangle frames as Pillow optimises them.
"""
import os, shutil, sys, tempfile
from bench_common import timed

BENCH = sys.argv[1]            # AnimationBench binary
IRIS = sys.argv[2]             # iris CLI
ANIM_DUMP = sys.argv[3] if len(sys.argv) > 3 else None

def make_gif(path, frames, width=480, height=270):
    from PIL import Image, ImageDraw
    base = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(base)
    for x in range(width):
        draw.line([(x, 0), (x, height)], fill=(x * 255 // width, 80, 255 - x * 255 // width))
    images = []
    for i in range(frames):
        frame = base.copy()
        d = ImageDraw.Draw(frame)
        cx, cy = (i * 7) % width, (i * 3) % height
        d.ellipse([cx - 30, cy - 30, cx + 30, cy + 30], fill=(255, 255 - (i * 5) % 255, 0))
        d.rectangle([(width - cx) % width, 100, (width - cx) % width + 50, 150], fill=(0, (i * 9) % 255, 200))
        images.append(frame.quantize(colors=64, dither=Image.Dither.NONE))
    images[0].save(path, save_all=True, append_images=images[1:], duration=40, loop=0)

PILLOW_DECODE = """
import sys, time
from PIL import Image
path, size, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
best = 1e9
for _ in range(runs):
    start = time.perf_counter()
    with Image.open(path) as im:
        for i in range(im.n_frames):
            im.seek(i)
            frame = im.convert("RGBA")
            frame.thumbnail((size, size), Image.LANCZOS)
    best = min(best, time.perf_counter() - start)
print(f"{best * 1e3:.2f}")
"""

PILLOW_PLAY = """
import sys
from PIL import Image
with Image.open(sys.argv[1]) as im:
    for i in range(im.n_frames):
        im.seek(i)
        frame = im.convert("RGBA")
        frame.thumbnail((int(sys.argv[2]), int(sys.argv[2])), Image.LANCZOS)
"""

def best_wall(cmd, runs=3):
    """The best wall time of `runs` whole-process runs, in ms."""
    return min(timed(cmd)[0] for _ in range(runs)) * 1e3

def main():
    work = tempfile.mkdtemp(prefix="iris-anim-bench-")
    try:
        gif60, gif1000 = os.path.join(work, "60.gif"), os.path.join(work, "1000.gif")
        make_gif(gif60, 60)
        make_gif(gif1000, 1000)
        print(f"inputs: 60-frame GIF {os.path.getsize(gif60)} bytes, 1000-frame GIF {os.path.getsize(gif1000)} bytes (480x270)")

        iris_ms = float(timed([BENCH, "decode", gif60, "120", "5"])[2])
        pillow_ms = float(timed([sys.executable, "-c", PILLOW_DECODE, gif60, "120", "5"])[2])
        print(f"\n1. every frame of the 60-frame GIF at 120 px (best of 5)")
        print(f"   iris   {iris_ms:8.1f} ms  ({60 / iris_ms * 1e3:6.0f} frames/s)")
        print(f"   Pillow {pillow_ms:8.1f} ms  ({60 / pillow_ms * 1e3:6.0f} frames/s)")
        print(f"   iris is {pillow_ms / iris_ms:.2f}x Pillow's speed")

        print(f"\n2. every frame at full size written as PNG files (best of 3 runs)")
        out = os.path.join(work, "iris-frames")
        iris_ms = best_wall([IRIS, "frames", gif60, "--out", out])
        print(f"   iris frames {iris_ms:8.1f} ms")
        if ANIM_DUMP:
            out = os.path.join(work, "anim-dump")
            os.makedirs(out, exist_ok=True)
            dump_ms = best_wall([ANIM_DUMP, "-folder", out, gif60])     # PNG by default
            print(f"   anim_dump   {dump_ms:8.1f} ms")
            print(f"   iris is {dump_ms / iris_ms:.2f}x anim_dump's speed")
        else:
            print("   anim_dump: not built (Benchmarks/runners/animation builds it from a libwebp checkout)")

        print(f"\n3. playing the 1000-frame GIF at 200 px")
        _, iris_rss, iris_out = timed([BENCH, "play", gif1000, "200"])
        fields = dict(item.split("=") for item in iris_out.split())
        width, height = (int(v) for v in fields["frame"].split("x"))
        cw, ch = (int(v) for v in fields["source"].split("x"))
        budget = 3 * width * height * 4
        canvas = cw * ch * 4
        held = int(fields["held"]) - int(fields["encoded"])
        _, pillow_rss, _ = timed([sys.executable, "-c", PILLOW_PLAY, gif1000, "200"])
        print(f"   iris held at most {held} bytes besides the {fields['encoded']}-byte file: "
              f"buffer budget {budget} + one canvas {canvas} = {budget + canvas} "
              f"({'within' if held <= budget + canvas else 'OVER'})")
        print(f"   iris bound counted by the memory cache: {fields['bound']} bytes")
        print(f"   peak RSS of the whole process: iris {iris_rss:.1f} MiB, Pillow {pillow_rss:.1f} MiB")
    finally:
        shutil.rmtree(work)

if __name__ == "__main__":
    main()
