#!/usr/bin/env python3
"""iris-server against thumbor on the same files, with `iris thumbnail` as the floor.

Each server runs on 127.0.0.1 with one worker per core (iris-server: its render queue; thumbor:
one process per core); wrk sends BENCH_SECONDS of requests per row over 2× cores connections
after a short warm-up. Rows: 2048×1536 JPEG, PNG (RGBA) and WebP sources → fit 512, written as
JPEG, WebP and AVIF, quality 80. Prints requests/s, p50 and p99, the ratio of iris to thumbor,
iris to the CLI floor, and each server's peak RSS (VmHWM, all of thumbor's processes summed).
With `--before PATH` (repeatable) earlier iris-server builds serve the same rows in the same run,
and each row prints their requests/s and the ratio of this build to each. With `--distinct N` every
request names the next of N hard links to its source (distinct_sources.lua): no two requests in
flight share a result, so a server that joins identical requests in flight (iris-server does)
renders every request, as thumbor does; without it, one URL per row measures that joining too.
"""
import argparse, os, re, shutil, signal, subprocess, sys, tempfile, time, urllib.request
from bench_common import free_port, timed, wait_ready

CORES = os.cpu_count() or 2
SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
CORPUS = os.path.abspath("bench-corpus")
SOURCES = [("JPEG", "photo-2048x1536.jpg"), ("PNG", "photo-2048x1536-rgba.png"), ("WebP", "photo-2048x1536.webp")]
OUTPUTS = ["jpeg", "webp", "avif"]
IRIS_PORT, THUMBOR_PORT, BEFORE_PORT = 18471, 18472, 18473

def peak_rss_mib(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as status:
                total += int(re.search(r"VmHWM:\s+(\d+)", status.read()).group(1))
        except OSError:
            pass
    return total / 1024

def children(pid):
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [int(p) for p in out]

DISTINCT = 0

def wrk(url):
    """wrk on `url`; with --distinct, `url`'s "{i}" names each request's copy of the source."""
    env, script = None, []
    if DISTINCT:
        base, path = url.split("/unsafe/", 1)
        env = dict(os.environ, BENCH_PATH="/unsafe/" + path, BENCH_DISTINCT=str(DISTINCT))
        script = ["-s", os.path.join(os.path.dirname(os.path.abspath(__file__)), "distinct_sources.lua")]
        url = base + "/"
    subprocess.run(["wrk"] + script + ["-t", str(min(2, CORES)), "-c", str(2 * CORES), "-d", "2s", url], capture_output=True, env=env)
    out = subprocess.run(["wrk"] + script + ["-t", str(min(2, CORES)), "-c", str(2 * CORES), "-d", f"{SECONDS}s", "--latency",
                          "--timeout", "30s", url], capture_output=True, text=True, env=env).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    def latency(label):
        match = re.search(rf"\s{label}%\s+([\d.]+)(us|ms|s)", out)
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rps, latency("50"), latency("99"), int(errors.group(1)) if errors else 0

def content_type(url):
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.headers.get("Content-Type", "")

def cli_floor(iris, source, fmt, repeats=24):
    tmp = tempfile.mkdtemp(prefix="bench-serve-")
    try:
        ext = os.path.splitext(source)[1]
        inputs = []
        for index in range(repeats):
            link = os.path.join(tmp, f"in{index}{ext}")
            os.symlink(os.path.join(CORPUS, source), link)
            inputs.append(link)
        seconds, _, _ = timed([iris, "thumbnail", "--size", "512", "--format", fmt, "--quality", "80",
                               "--jobs", str(CORES), "--out", os.path.join(tmp, "out")] + inputs)
        return repeats / seconds
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--thumbor", required=True)
    parser.add_argument("--before", action="append", default=[],
                        help="another iris-server binary measured on the same rows, in the same run (repeatable)")
    parser.add_argument("--distinct", type=int, default=0, metavar="N",
                        help="each request names the next of N copies (hard links) of its source: no result is shared")
    args = parser.parse_args()
    global DISTINCT
    DISTINCT = args.distinct
    iris = os.path.abspath(".build/release/IrisCLI")
    jpeg = os.path.join(CORPUS, "photo-2048x1536.jpg")
    if not os.path.exists(jpeg):
        subprocess.run([iris, "convert", os.path.join(CORPUS, "photo-2048x1536.webp"), jpeg, "--quality", "90"], check=True)

    copies = os.path.join(CORPUS, "distinct")
    if DISTINCT:
        shutil.rmtree(copies, ignore_errors=True)
        os.makedirs(copies)
        for _, source in SOURCES:
            for index in range(DISTINCT):
                os.link(os.path.join(CORPUS, source), os.path.join(copies, f"{index}-{source}"))
    cache = tempfile.mkdtemp(prefix="bench-serve-cache-")
    conf = os.path.join(cache, "thumbor.conf")
    with open(conf, "w") as f:
        f.write(f"LOADER = 'thumbor.loaders.file_loader'\nFILE_LOADER_ROOT_PATH = '{CORPUS}'\nALLOW_UNSAFE_URL = True\n"
                "STORAGE = 'thumbor.storages.no_storage'\nRESULT_STORAGE = None\nQUALITY = 80\nAUTO_WEBP = False\n")
    servers = []
    try:
        def start_iris(binary, port, cache_name):
            return subprocess.Popen([binary, "--dev", "--port", str(port),
                                     "--local-root", CORPUS, "--cache-dir", os.path.join(cache, cache_name),
                                     "--workers", str(CORES),
                                     # Rendering is measured, as thumbor's (RESULT_STORAGE = None): no result cache.
                                     "--result-cache-size", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        iris_server = start_iris("Server/.build/release/iris-server", IRIS_PORT, "iris")
        servers.append(iris_server)
        before_servers = []
        for index, binary in enumerate(args.before):
            before_servers.append(start_iris(os.path.abspath(binary), BEFORE_PORT + index, f"before{index}"))
            servers.append(before_servers[-1])
            wait_ready(f"http://127.0.0.1:{BEFORE_PORT + index}/health")
        thumbor = subprocess.Popen([args.thumbor, "-p", str(THUMBOR_PORT), "-c", conf, "-l", "error",
                                    "--processes", str(CORES)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        servers.append(thumbor)
        wait_ready(f"http://127.0.0.1:{IRIS_PORT}/health")
        wait_ready(f"http://127.0.0.1:{THUMBOR_PORT}/healthcheck")
        print(f"{CORES} cores, {2 * CORES} connections, {SECONDS} s per row"
              + (f", each request another of {DISTINCT} copies of its source" if DISTINCT else ", one URL per row")
              + f"; load {os.getloadavg()[0]:.2f}")
        print(f"{'row':<16} {'iris req/s':>10} {'p50':>7} {'p99':>7} {'thumbor':>8} {'p50':>7} {'p99':>7} {'ratio':>6} {'CLI img/s':>9} {'of CLI':>6}"
              + "".join(f" {f'before{i + 1}':>7} {f'now/b{i + 1}':>7}" for i in range(len(before_servers))))
        for label, source in SOURCES:
            for fmt in OUTPUTS:
                named = f"distinct/{{i}}-{source}" if DISTINCT else source
                iris_url = f"http://127.0.0.1:{IRIS_PORT}/unsafe/rs:fit:512:512/q:80/plain/local:///{named}@{fmt}"
                thumbor_url = f"http://127.0.0.1:{THUMBOR_PORT}/unsafe/fit-in/512x512/filters:format({fmt}):quality(80)/{named}"
                # thumbor writes JPEG when it cannot write the format asked for (AVIF without a
                # plug-in): such a row is marked, its ratio not comparable.
                wrote = content_type(thumbor_url.replace("{i}", "0"))
                i_rps, i50, i99, i_err = wrk(iris_url)
                t_rps, t50, t99, t_err = wrk(thumbor_url)
                floor = cli_floor(iris, source, fmt)
                before = ""
                for index in range(len(before_servers)):
                    b_rps, _, _, b_err = wrk(iris_url.replace(str(IRIS_PORT), str(BEFORE_PORT + index)))
                    before += f" {b_rps:>7.1f} {i_rps / b_rps if b_rps else 0:>7.2f}" + (f" (before{index + 1} {b_err} errors)" if b_err else "")
                note = (f" (iris {i_err} errors)" if i_err else "") + (f" (thumbor {t_err} errors)" if t_err else "")
                if wrote != f"image/{fmt}":
                    note += f" (thumbor wrote {wrote or 'nothing'})"
                ratio = f"{i_rps / t_rps:.2f}" if t_rps and not t_err and wrote == f"image/{fmt}" else "n/a"
                print(f"{label + ' → ' + fmt:<16} {i_rps:>10.1f} {i50:>6.0f}ms {i99:>6.0f}ms {t_rps:>8.1f} {t50:>6.0f}ms {t99:>6.0f}ms "
                      f"{ratio:>6} {floor:>9.1f} {i_rps / floor:>6.2f}{before}{note}", flush=True)
        thumbor_pids = [thumbor.pid] + children(thumbor.pid)
        print(f"peak RSS: iris-server {peak_rss_mib([iris_server.pid]):.0f} MiB, thumbor {peak_rss_mib(thumbor_pids):.0f} MiB "
              f"({len(thumbor_pids)} processes)"
              + "".join(f", before{i + 1} {peak_rss_mib([p.pid]):.0f} MiB" for i, p in enumerate(before_servers)))
    finally:
        for server in servers:
            for pid in children(server.pid):
                try: os.kill(pid, signal.SIGTERM)
                except OSError: pass
            server.terminate()
            server.wait(timeout=30)
        shutil.rmtree(cache, ignore_errors=True)
        if DISTINCT:
            shutil.rmtree(copies, ignore_errors=True)

if __name__ == "__main__":
    main()
