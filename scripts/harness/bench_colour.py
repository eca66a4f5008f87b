#!/usr/bin/env python3
"""Thumbnail throughput with colour management on and off, and against vipsthumbnail.

Tagged copies of the benchmark corpus are made here: JPEG with APP2 ICC_PROFILE segments and
PNG with an iCCP chunk written byte by byte (ICC.1 annex B.4, PNG 3rd edition 11.3.2.3), WebP
with webpmux's ICCP chunk. Each tool runs as one process over the same file repeated (distinct
names), best of BENCH_RUNS (3) taking turns: "on" is iris's default (profiles converted to sRGB),
"off" is --keep-profile (pixels as stored, profile embedded), "vips" is vipsthumbnail
--export-profile srgb. All write JPEG quality 85 at 300 px; iris and vips use their default
number of threads.
"""
import os, shutil, struct, subprocess, sys, tempfile, zlib
from bench_common import timed

CORPUS = "bench-corpus"
SIZE = 300
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
PROFILES = {"Adobe RGB": "/usr/share/color/icc/colord/AdobeRGB1998.icc",
            "ProPhoto": "/usr/share/color/icc/colord/ProPhotoRGB.icc"}
FILES = [("JPEG 4032x3024", "photo-4032x3024-baseline.jpg", 16),
         ("PNG 2048x1536 RGBA", "photo-2048x1536-rgba.png", 8),
         ("WebP 2048x1536", "photo-2048x1536.webp", 8)]

def tag_jpeg(data, icc):
    chunks = [icc[i:i + 65519] for i in range(0, len(icc), 65519)]
    segments = b"".join(b"\xff\xe2" + struct.pack(">H", 2 + 14 + len(c)) + b"ICC_PROFILE\0" + bytes([n + 1, len(chunks)]) + c
                        for n, c in enumerate(chunks))
    return data[:2] + segments + data[2:]

def tag_png(data, icc):
    body = b"ICC profile\0\0" + zlib.compress(icc)
    chunk = struct.pack(">I", len(body)) + b"iCCP" + body + struct.pack(">I", zlib.crc32(b"iCCP" + body))
    after_ihdr = 8 + 8 + 13 + 4
    return data[:after_ihdr] + chunk + data[after_ihdr:]

def tag(src, dst, icc_path):
    if src.endswith(".webp"):
        subprocess.run(["webpmux", "-set", "icc", icc_path, src, "-o", dst], check=True, capture_output=True)
        return
    data, icc = open(src, "rb").read(), open(icc_path, "rb").read()
    open(dst, "wb").write(tag_jpeg(data, icc) if src.endswith(".jpg") else tag_png(data, icc))

def main():
    iris = os.path.abspath(".build/release/IrisCLI")
    print(f"{os.cpu_count()} cores; load average at start {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        for label, name, repeats in FILES:
            variants = [("no profile", os.path.join(CORPUS, name))]
            for pname, ppath in PROFILES.items():
                tagged = os.path.join(tmp, f"{pname.replace(' ', '')}-{name}")
                tag(os.path.join(CORPUS, name), tagged, ppath)
                variants.append((pname, tagged))
            for vname, src in variants:
                files = []
                for i in range(repeats):
                    link = os.path.join(tmp, f"in{i}_{os.path.basename(src)}")
                    os.symlink(os.path.abspath(src), link)
                    files.append(link)
                commands = {
                    "iris on": [iris, "thumbnail", "--size", str(SIZE), "--out", out] + files,
                    "iris off": [iris, "thumbnail", "--keep-profile", "--size", str(SIZE), "--out", out] + files,
                    "vips srgb": ["vipsthumbnail", "-s", str(SIZE), "--export-profile", "srgb", "-o", out + "/%s.jpg[Q=85]"] + files,
                }
                best = {}
                for _ in range(RUNS):
                    for tool, cmd in commands.items():
                        shutil.rmtree(out, ignore_errors=True); os.makedirs(out)
                        secs, rss, _ = timed(cmd)
                        if tool not in best or secs < best[tool][0]:
                            best[tool] = (secs, rss)
                for f in files:
                    os.unlink(f)
                rows.append((f"{label} {vname} x{repeats}", {t: (repeats / s, r) for t, (s, r) in best.items()}))
    tools = ["iris on", "iris off", "vips srgb"]
    print(f"\nThumbnail to {SIZE} px, JPEG q85 out, best of {RUNS} (images/s, peak RSS MiB)")
    print(f"{'input':44}" + "".join(f"{t:>16}" for t in tools) + f"{'on/off':>8}{'on/vips':>9}")
    for label, r in rows:
        cells = "".join(f"{r[t][0]:8.2f} {r[t][1]:5.0f}M".rjust(16) for t in tools)
        print(f"{label:44}{cells}{r['iris on'][0] / r['iris off'][0]:7.2f}x{r['iris on'][0] / r['vips srgb'][0]:8.2f}x")
    print(f"load average at end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

if __name__ == "__main__":
    main()
