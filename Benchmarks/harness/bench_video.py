#!/usr/bin/env python3
"""Times poster thumbnails of the same clips by iris, ffmpegthumbnailer and ffmpeg, in one run.

Clips (made by Benchmarks/runners/video with Debian's ffmpeg from its test pattern): 1080p H.264 in
MP4, 4K HEVC in MOV, 720p VP9 in WebM. Each tool makes a 320 px JPEG of the frame at 10 % of
the clip (ffmpegthumbnailer's default seek), one process per thumbnail, the clip repeated R
times; tools take turns, best of three (BENCH_RUNS). iris also runs with no --at (its default
poster, the first frame that is not black). Prints thumbnails/s and peak RSS per tool and clip,
and the like-for-like ratios: iris's poster against ffmpegthumbnailer (each a representative
frame), iris --at against ffmpeg -ss (each the exact frame at a time).

Then a folder, as people thumbnail one: BENCH_BATCH copies of each clip (hard links), thumbnailed
by one `iris thumbnail` over the folder (its --jobs default) against ffmpegthumbnailer run once
per file, one after another (a shell loop); best of three, and the ratio.

Each tool's CPU time per thumbnail (user + system, of its best run) is printed beside its rate:
a busy machine changes it less than wall time. With `--before PATH` (repeatable) an earlier
`iris` build makes the same posters and folders in the same run, rows "iris poster (before N)".
"""
import argparse, os, shutil, subprocess, sys, tempfile, time
from bench_common import timed, timed_cpu

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
REPEATS = int(os.environ.get("BENCH_REPEATS", "5"))
BATCH = int(os.environ.get("BENCH_BATCH", "12"))
SIZE = 320
CLIPS = [  # (label, file, ffmpeg arguments that make it)
    ("H.264 1080p 10 s MP4", "h264-1080p.mp4",
     ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=10", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]),
    ("HEVC 2160p 4 s MOV", "hevc-2160p.mov",
     ["-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=30:duration=4", "-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
      "-tag:v", "hvc1", "-x265-params", "log-level=error"]),
    ("VP9 720p 10 s WebM", "vp9-720p.webm",
     ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=10", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8",
      "-b:v", "2M"]),
]

def duration(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path],
                         capture_output=True, text=True, check=True).stdout
    return float(out.strip())

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", action="append", default=[],
                        help="an earlier iris (IrisCLI) binary whose posters are measured in the same run (repeatable)")
    args = parser.parse_args()
    iris = os.path.abspath(".build/release/IrisCLI")
    befores = [os.path.abspath(path) for path in args.before]
    corpus = os.path.abspath("bench-corpus/video")
    os.makedirs(corpus, exist_ok=True)
    for _, name, args_ in CLIPS:
        path = os.path.join(corpus, name)
        if not os.path.exists(path):
            subprocess.run(["ffmpeg", "-v", "error", "-y"] + args_ + [path], check=True)
    print(f"{os.cpu_count()} cores; load average at start {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    before_tools = [f"iris poster (before {i + 1})" for i in range(len(befores))]
    tools = ["iris --at", "iris poster"] + before_tools + ["ffmpegthumbnailer", "ffmpeg -ss"]
    rows, batches = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for label, name, _ in CLIPS:
            clip = os.path.join(corpus, name)
            at = round(duration(clip) * 0.10, 3)
            def commands(i):
                out = os.path.join(tmp, f"out{i}")
                poster = ["thumbnail", "--size", str(SIZE), "--out", out, clip]
                return {
                    "iris --at": [iris, "thumbnail", "--size", str(SIZE), "--at", str(at), "--out", out, clip],
                    "iris poster": [iris] + poster,
                    **{tool: [binary] + poster for tool, binary in zip(before_tools, befores)},
                    "ffmpegthumbnailer": ["ffmpegthumbnailer", "-s", str(SIZE), "-t", "10%", "-q", "8", "-i", clip,
                                          "-o", os.path.join(out, "thumb.jpg")],
                    "ffmpeg -ss": ["ffmpeg", "-v", "error", "-y", "-ss", str(at), "-i", clip, "-frames:v", "1",
                                   "-vf", f"scale={SIZE}:-2", os.path.join(out, "thumb.jpg")],
                }
            best, best_cpu = {}, {}
            for _ in range(RUNS):
                for tool in tools:
                    total, peak, cpu = 0.0, 0.0, 0.0
                    for i in range(REPEATS):
                        out = os.path.join(tmp, f"out{i}")
                        shutil.rmtree(out, ignore_errors=True); os.makedirs(out)
                        secs, rss, used, _ = timed_cpu(commands(i)[tool])
                        total += secs; peak = max(peak, rss); cpu += used
                    if tool not in best or total < best[tool][0]:
                        best[tool] = (total, peak)
                    best_cpu[tool] = min(best_cpu.get(tool, cpu), cpu)
            rows.append((label, {tool: (REPEATS / secs, rss, best_cpu[tool] / REPEATS) for tool, (secs, rss) in best.items()}))
            batches.append((label, batch(iris, befores, clip, tmp)))
    width = max(len(t) for t in tools)
    for label, results in rows:
        print(f"\n{label} (frame at 10 %, {SIZE} px, {REPEATS} processes, best of {RUNS})")
        for tool in tools:
            rate, rss, cpu = results[tool]
            print(f"  {tool:<{width}}  {rate:6.1f} thumbnails/s  peak RSS {rss:6.1f} MiB  CPU {cpu * 1000:6.1f} ms/thumbnail")
        # Like for like: a representative frame (iris's first non-black frame; ffmpegthumbnailer
        # seeks to the key frame near 10 % and takes it), and the exact frame at a time (both
        # decode from the key frame before it up to the time).
        peer = results["ffmpegthumbnailer"]
        print("  iris poster vs ffmpegthumbnailer: %.2fx (CPU %.2fx); iris --at vs ffmpeg -ss: %.2fx" %
              (results["iris poster"][0] / peer[0], peer[2] / results["iris poster"][2],
               results["iris --at"][0] / results["ffmpeg -ss"][0]))
        for tool in before_tools:
            print(f"  {tool} vs ffmpegthumbnailer: {results[tool][0] / peer[0]:.2f}x (CPU {peer[2] / results[tool][2]:.2f}x)")
    print(f"\nA folder of {BATCH} copies of a clip ({SIZE} px posters, best of {RUNS}): thumbnails/s")
    for label, (iris_rate, before_rates, peer_rate) in batches:
        print(f"  {label:<22}  iris thumbnail (one process) {iris_rate:6.1f}  ffmpegthumbnailer (a process per file) "
              f"{peer_rate:6.1f}  ratio {iris_rate / peer_rate:.2f}x")
        for index, rate in enumerate(before_rates):
            print(f"  {'':<22}  iris (before {index + 1})              {rate:6.1f}  ratio {rate / peer_rate:.2f}x")

def batch(iris, befores, clip, tmp):
    """(iris's thumbnails/s over a folder of BATCH copies of `clip` in one process, the same of
    each earlier build, ffmpegthumbnailer's run once per file), best of RUNS each."""
    folder = os.path.join(tmp, "folder")
    shutil.rmtree(folder, ignore_errors=True); os.makedirs(folder)
    extension = os.path.splitext(clip)[1]
    files = [os.path.join(folder, f"clip{i:03d}{extension}") for i in range(BATCH)]
    for path in files:
        os.link(clip, path)
    out = os.path.join(tmp, "batch-out")
    best_iris = best_peer = float("inf")
    best_befores = [float("inf")] * len(befores)
    for _ in range(RUNS):
        for index, binary in enumerate([iris] + befores):
            shutil.rmtree(out, ignore_errors=True); os.makedirs(out)
            seconds = timed([binary, "thumbnail", "--size", str(SIZE), "--out", out] + files)[0]
            if index == 0:
                best_iris = min(best_iris, seconds)
            else:
                best_befores[index - 1] = min(best_befores[index - 1], seconds)
        shutil.rmtree(out, ignore_errors=True); os.makedirs(out)
        total = 0.0
        for i, path in enumerate(files):
            total += timed(["ffmpegthumbnailer", "-s", str(SIZE), "-t", "10%", "-q", "8", "-i", path,
                            "-o", os.path.join(out, f"thumb{i:03d}.jpg")])[0]
        best_peer = min(best_peer, total)
    shutil.rmtree(folder)
    return BATCH / best_iris, [BATCH / seconds for seconds in best_befores], BATCH / best_peer

if __name__ == "__main__":
    sys.exit(main())
