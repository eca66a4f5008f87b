#!/usr/bin/env python3
"""A grid of 60 photos (12 MP JPEGs) shown by IrisUI's model from the originals, then through
iris-server in public mode, with the app's link paced at 20 Mbit/s.

Everything runs on 127.0.0.1: the originals' host (Python's http.server), iris-server (public
mode, the originals' host on its allow-list), and a pacing proxy between the app and whichever it
talks to (the originals' host in the first run, the service in the second). The app is the
ResponsiveBench executable (Benchmarks/ResponsiveBench): one ImageModel per cell, laid out in
a 3-column grid on a 390 pt screen at 3x, as the views drive it. Measured per run: body bytes the
app received, bytes through the proxy (headers included), seconds until every cell had its final
image, and the app's peak RSS (/usr/bin/time -v). Every run is bounded by a deadline.

    bench_responsive.py --client PATH --server PATH [--photos N] [--mbit 20]
    bench_responsive.py proxy --listen PORT --to PORT --mbit 20 --stats FILE   (the pacing proxy)
"""
import argparse, asyncio, json, os, signal, subprocess, sys, tempfile, time, urllib.request
from concurrent.futures import ThreadPoolExecutor
from bench_common import free_port, timed, wait_ready

CORPUS = os.path.abspath(os.path.join("bench-corpus", "responsive"))
DEADLINE = int(os.environ.get("BENCH_DEADLINE", "900"))  # seconds; a hang detector


# --- the pacing proxy ---------------------------------------------------------------------------

class Link:
    """One direction of the app's link: every connection's bytes share its rate, in order of arrival."""
    def __init__(self, bytes_per_second):
        self.rate = bytes_per_second
        self.free_at = 0.0
        self.bytes = 0

    async def send(self, size):
        loop = asyncio.get_running_loop()
        now = loop.time()
        start = max(now, self.free_at)
        self.free_at = start + size / self.rate
        self.bytes += size
        delay = self.free_at - now
        if delay > 0:
            await asyncio.sleep(delay)


async def pipe(reader, writer, link):
    try:
        while True:
            data = await reader.read(16384)
            if not data:
                break
            await link.send(len(data))
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        try:
            writer.close()
        except Exception:
            pass


async def serve_proxy(listen, target, mbit, stats):
    down, up = Link(mbit * 1e6 / 8), Link(mbit * 1e6 / 8)

    async def connection(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(pipe(client_reader, server_writer, up), pipe(server_reader, client_writer, down))

    server = await asyncio.start_server(connection, "127.0.0.1", listen)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    async with server:
        await stop.wait()
    with open(stats, "w") as out:
        json.dump({"down_bytes": down.bytes, "up_bytes": up.bytes}, out)


# --- the corpus ---------------------------------------------------------------------------------

def make_corpus(count):
    """count 4032×3024 JPEGs (q90): four plasma bases, each photo a shifted, recoloured, noisy variant."""
    os.makedirs(CORPUS, exist_ok=True)
    bases = []
    for seed in range(4):
        base = os.path.join(CORPUS, f".base-{seed}.png")
        if not os.path.exists(base):
            subprocess.run(["convert", "-size", "4032x3024", "-seed", str(seed + 1), "plasma:fractal", "-blur", "0x1", base],
                           check=True)
        bases.append(base)

    def photo(index):
        path = os.path.join(CORPUS, f"photo-{index:02d}.jpg")
        if not os.path.exists(path):
            subprocess.run(["convert", bases[index % 4], "-roll", f"+{index * 61}+{index * 37}",
                            "-modulate", f"100,{90 + index % 21},{100 + index * 7 % 60}", "-seed", str(index),
                            "-attenuate", "0.25", "+noise", "Gaussian", "-quality", "90", path + ".tmp.jpg"], check=True)
            os.rename(path + ".tmp.jpg", path)
        return path

    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        return list(pool.map(photo, range(count)))


# --- the runs -----------------------------------------------------------------------------------

def start_proxy(target, mbit, work):
    port = free_port()
    stats = os.path.join(work, f"proxy-{port}.json")
    proc = subprocess.Popen([sys.executable, __file__, "proxy", "--listen", str(port), "--to", str(target),
                             "--mbit", str(mbit), "--stats", stats])
    for _ in range(100):
        try:
            import socket
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    return proc, port, stats


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def run_client(client, urls, work, name, service=None, screen="phone"):
    listing = os.path.join(work, f"{name}.txt")
    with open(listing, "w") as out:
        out.write("\n".join(urls) + "\n")
    command = [client, "--urls", listing, "--screen", screen, "--deadline", str(DEADLINE)]
    if service:
        command += ["--service", service]
    seconds, rss, stdout = timed(command)
    report = json.loads(stdout.splitlines()[-1])
    report["rss_mib"] = rss
    report["wall"] = seconds
    return report


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "proxy":
        parser = argparse.ArgumentParser()
        parser.add_argument("proxy")
        parser.add_argument("--listen", type=int, required=True)
        parser.add_argument("--to", type=int, required=True)
        parser.add_argument("--mbit", type=float, required=True)
        parser.add_argument("--stats", required=True)
        args = parser.parse_args()
        asyncio.run(serve_proxy(args.listen, args.to, args.mbit, args.stats))
        return

    parser = argparse.ArgumentParser()
    parser.add_argument("--client", required=True)
    parser.add_argument("--server", required=True)
    parser.add_argument("--photos", type=int, default=60)
    parser.add_argument("--mbit", type=float, default=20)
    args = parser.parse_args()

    photos = make_corpus(args.photos)
    original_bytes = sum(os.path.getsize(p) for p in photos)
    print(f"{len(photos)} photos, 4032×3024 JPEG q90, {original_bytes / 1e6:.1f} MB; the app's link {args.mbit:g} Mbit/s",
          file=sys.stderr)
    work = tempfile.mkdtemp(prefix="bench-responsive-")
    processes = []
    try:
        origin_port = free_port()
        origin = subprocess.Popen([sys.executable, "-m", "http.server", str(origin_port), "--bind", "127.0.0.1",
                                   "--directory", CORPUS], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(origin)
        origin_base = f"http://127.0.0.1:{origin_port}"
        wait_ready(f"{origin_base}/photo-00.jpg")

        service_port, metrics_port = free_port(), free_port()
        server = subprocess.Popen([args.server, "--public", "--port", str(service_port), "--allow-source", origin_base + "/",
                                   "--allow-addresses", "loopback", "--cache-dir", os.path.join(work, "sources"),
                                   "--result-cache-dir", os.path.join(work, "results"), "--metrics-port", str(metrics_port)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(server)
        wait_ready(f"http://127.0.0.1:{service_port}/health")

        names = [os.path.basename(p) for p in photos]
        rows = []
        # 1. Originals: the app downloads every photo through the paced link.
        proxy, proxy_port, stats = start_proxy(origin_port, args.mbit, work)
        originals = run_client(args.client, [f"http://127.0.0.1:{proxy_port}/{n}" for n in names], work, "originals")
        stop(proxy)
        originals["wire"] = json.load(open(stats))["down_bytes"]
        rows.append(("originals", originals))
        # 2. Through the service: the app's URLs are the originals' (the service fetches them on
        # loopback, unpaced: its link is the data centre's); the app talks to the service through the paced link.
        proxy, proxy_port, stats = start_proxy(service_port, args.mbit, work)
        service = run_client(args.client, [f"{origin_base}/{n}" for n in names], work, "service",
                             service=f"http://127.0.0.1:{proxy_port}")
        stop(proxy)
        service["wire"] = json.load(open(stats))["down_bytes"]
        rows.append(("iris-server, public", service))

        print(f"{'run':22} {'bytes (body)':>14} {'on the wire':>12} {'requests':>9} {'final image':>12} {'peak RSS':>10}"
              f" {'failed':>7} {'fallback':>9}")
        for name, r in rows:
            print(f"{name:22} {r['bytes']:>14,} {r['wire']:>12,} {r['requests']:>9} {r['seconds']:>10.2f} s"
                  f" {r['rss_mib']:>6.0f} MiB {r['not_covering']:>7} {r['fallbacks']:>9}")
        print(f"bytes: {originals['bytes'] / max(1, service['bytes']):.1f}× fewer through the service; "
              f"time: {originals['seconds'] / max(1e-9, service['seconds']):.1f}× sooner; "
              f"peak RSS: {originals['rss_mib']:.0f} → {service['rss_mib']:.0f} MiB")
        if not all(r["settled"] for _, r in rows):
            sys.exit("a run did not settle before its deadline")
    finally:
        for proc in processes:
            stop(proc)


if __name__ == "__main__":
    main()
