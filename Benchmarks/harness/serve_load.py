#!/usr/bin/env python3
"""Load numbers of iris-server behind nginx (issue 29), driven by Benchmarks/runners/serve-load.

Sources come from a server of this script's own on 127.0.0.1, which counts its downloads.
1. Rendering through nginx with 1 and with 2 replicas: wrk, every request a distinct URL (a
   cachebuster: nginx's cache and the result cache miss, the source is cached), 1024×768 JPEG →
   fit 300 WebP.
2. Two replicas, a repeated-URL workload (Python clients): 20 sources asked for in 5 sizes each
   and 20 in one size, every URL many times in a shuffled order: nginx's proxy_cache hit rate
   from $upstream_cache_status in its access log, and the downloads counted at the source server
   (one per source: nginx routes by source). --sources-only runs this part alone.
   Then the replicas' /metrics against the load generator and nginx's upstream log.
3. The same bytes three ways: a replica rendering (distinct URLs), a replica answering one URL
   from its result cache, nginx answering it from its proxy_cache.
--slow-origin runs this instead, on one replica without nginx (the issue of a slow origin):
   --slow-requests (600) requests at once, each for a source of its own on an origin that
   answers after --slow-seconds (1.5 s), and meanwhile, once a second, a source of its own on
   another origin: the flood's answers per status (with when they came and their Retry-After),
   the other origin's answer times. Exits 1 when that origin's source is not served within 2 s,
   or a flood request gets no answer or one other than 200 or 429.
Exits 1 when a request fails or the counts disagree. Loopback only; every run is bounded.
"""
import argparse, os, random, shutil, signal, subprocess, sys, tempfile, threading, time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from serve_common import (Cluster, Load, SourceServer, fmt, free_port_block, get, health, make_samples, metric_sum,
                          metrics, percentile, summary, wait_until, wrk)

UNIQUE_PATHS = """-- A distinct path per request: WRK_PATH_FORMAT with two %d (thread, request).
local format = os.getenv("WRK_PATH_FORMAT")
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local n = 0
function request()
  n = n + 1
  return wrk.format("GET", string.format(format, tid, n))
end
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--samples", required=True)
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("BENCH_SECONDS", "10")))
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--requests", type=int, default=4000, help="requests of the repeated-URL workload")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--sources-only", action="store_true", help="only the repeated-URL workload (2.): no wrk")
    parser.add_argument("--slow-origin", action="store_true", help="only a slow origin's flood, on one replica")
    parser.add_argument("--slow-requests", type=int, default=600)
    parser.add_argument("--slow-seconds", type=float, default=1.5)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.slow_origin:
        sys.exit(slow_origin(args))
    source = SourceServer(make_samples(args.samples))
    scratch = tempfile.mkdtemp(prefix="serve-load-")
    script = os.path.join(scratch, "unique.lua")
    with open(script, "w") as f:
        f.write(UNIQUE_PATHS)
    problems = []
    print(f"serve-load: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; wrk -t2 -c{args.connections} "
          f"{args.seconds} s per row; source server {source.base}", flush=True)
    clusters = []

    def start(replicas):
        cluster = Cluster(replicas, args.binary)
        clusters.append(cluster)
        return cluster

    def stop(cluster):
        cluster.stop()
        if not args.keep:
            cluster.remove()
        clusters.remove(cluster)

    try:
        if not args.sources_only:
            # 1. Rendering through nginx, 1 and 2 replicas.
            rates = {}
            for replicas in (1, 2):
                cluster = start(replicas)
                photo = f"{source.base}/img/load{replicas}/photo.jpg"
                for i in cluster.indices():  # each replica's source cache holds the source
                    get(cluster.replica_port(i), f"/unsafe/rs:fit:300:0/cb:warm/plain/{photo}@webp")
                wrk(f"http://127.0.0.1:{cluster.port}/", 2, args.connections, script=script,
                    env={"WRK_PATH_FORMAT": f"/unsafe/rs:fit:300:0/cb:w%d-%d/plain/{photo}@webp"})
                since = time.time()
                r = wrk(f"http://127.0.0.1:{cluster.port}/", args.seconds, args.connections, script=script,
                        env={"WRK_PATH_FORMAT": f"/unsafe/rs:fit:300:0/cb:%d-%d/plain/{photo}@webp"})
                log = cluster.access_log(since)
                per_replica = Counter(e["upstreams"][-1] for e in log if e["upstreams"])
                cache = Counter(e["cache"] for e in log)
                rates[replicas] = r["rate"]
                print(f"rendered through nginx, {replicas} replica{'s' if replicas > 1 else ''}: {r['rate']:.1f} req/s, "
                      f"p50 {r['p50']:.0f} ms, p99 {r['p99']:.0f} ms, non-2xx {r['non2xx']}; nginx cache "
                      f"{dict(cache)}; per replica {dict(sorted(per_replica.items()))}", flush=True)
                if r["non2xx"]:
                    problems.append(f"{replicas} replica(s): {r['non2xx']} non-2xx")
                stop(cluster)
            print(f"2 replicas / 1 replica: {rates[2] / rates[1]:.2f}×", flush=True)

        # 2. Repeated URLs through nginx, two replicas: hit rate, downloads, metrics.
        cluster = start(2)
        sizes = [120, 200, 300, 400, 500]
        urls = []
        for k in range(20):
            urls += [(f"/img/rep-{k}/photo.jpg", f"/unsafe/rs:fit:{w}:0/plain/{source.base}/img/rep-{k}/photo.jpg@webp") for w in sizes]
        for k in range(20):
            urls.append((f"/img/one-{k}/photo.jpg", f"/unsafe/rs:fit:250:0/plain/{source.base}/img/one-{k}/photo.jpg@webp"))
        order = [urls[i % len(urls)][1] for i in range(args.requests)]
        random.Random(29).shuffle(order)
        before = {i: metrics(cluster.replica_metrics_port(i)) for i in cluster.indices()}
        since = time.time()
        records = Load(cluster.port, lambda n: order[n - 1], threads=16, max_requests=len(order), max_seconds=300).wait()
        time.sleep(0.5)  # the access log's last lines
        after = {i: metrics(cluster.replica_metrics_port(i)) for i in cluster.indices()}
        s = summary(records)
        log = [e for e in cluster.access_log(since) if e["path"] != "/health"]
        cache = Counter(e["cache"] for e in log)
        hits = cache.get("HIT", 0)
        workload = {path for path, _ in urls}
        downloads = {path: n for path, n in source.downloads("/img/").items() if path in workload}
        many = [downloads.get(path, 0) for path, _ in urls[:100:5]]
        single = [downloads.get(path, 0) for path, _ in urls[100:]]
        print(f"repeated URLs: {len(urls)} URLs of 40 sources, {s['n']} requests from 16 clients: {fmt(s)}", flush=True)
        print(f"  nginx proxy_cache: {dict(cache)}; hit rate {hits / max(1, len(log)):.1%} "
              f"(the first request of each URL is its one miss: {len(urls)} of {len(log)})", flush=True)
        print(f"  downloads at the source: sources in 5 sizes {sum(many)} for {len(many)} "
              f"({Counter(many)} downloads→sources), sources in 1 size {sum(single)} for {len(single)} ({Counter(single)})", flush=True)
        # Routed by source (deploy/nginx.conf's consistent hash): one download per source.
        if any(n != 1 for n in many + single):
            problems.append(f"downloads per source: {Counter(many + single)} (downloads→sources), expected 1 each")
        if s["failed"] or len(log) != s["n"]:
            problems.append(f"repeated URLs: {s['failed']} failed, nginx logged {len(log)} of {s['n']}")

        # Metrics against the generator and nginx's upstream log.
        upstream = Counter(port for e in log for port in e["upstreams"])
        went_up = sum(1 for _, _, _, c in records if c not in ("HIT",))
        rows = []
        for i in cluster.indices():
            counted = metric_sum(after[i], "iris_requests_total") - metric_sum(before[i], "iris_requests_total")
            misses = (metric_sum(after[i], "iris_source_cache_total", outcome="miss")
                      - metric_sum(before[i], "iris_source_cache_total", outcome="miss"))
            logged = upstream.get(str(cluster.replica_port(i)), 0)
            rows.append((i, counted, logged, misses))
            if counted != logged:
                problems.append(f"replica {i}: iris_requests_total +{counted:.0f}, nginx sent it {logged}")
        total_counted = sum(r[1] for r in rows)
        total_misses = sum(r[3] for r in rows)
        source_total = sum(downloads.values())
        print("  metrics: " + "; ".join(f"replica {i} iris_requests_total +{c:.0f} (nginx's upstream log {l})" for i, c, l, _ in rows)
              + f"; sum {total_counted:.0f} = generator's requests not answered from nginx's cache {went_up} "
              f"(generator {s['n']} = nginx log {len(log)}); iris_source_cache_total{{miss}} {total_misses:.0f} "
              f"= downloads at the source {source_total}", flush=True)
        if total_counted != went_up or total_misses != source_total:
            problems.append(f"metrics: requests {total_counted:.0f} vs {went_up}, downloads {total_misses:.0f} vs {source_total}")

        if not args.sources_only:
            # 3. The same bytes: rendered, the result cache, nginx's cache.
            path = f"/unsafe/rs:fit:300:0/plain/{source.base}/img/same/photo.jpg@webp"
            for _ in range(2):
                get(cluster.port, path)
                get(cluster.replica_port(1), path)
            status, headers, _, _ = get(cluster.port, path)
            _, direct_headers, _, _ = get(cluster.replica_port(1), path)
            if headers.get("X-Cache-Status") != "HIT" or "result-cache;desc=hit" not in direct_headers.get("Server-Timing", ""):
                problems.append("same bytes: not cached before the run")
            rendered = wrk(f"http://127.0.0.1:{cluster.replica_port(1)}/", args.seconds, args.connections, script=script,
                           env={"WRK_PATH_FORMAT": f"/unsafe/rs:fit:300:0/cb:s%d-%d/plain/{source.base}/img/same/photo.jpg@webp"})
            result_cache = wrk(f"http://127.0.0.1:{cluster.replica_port(1)}{path}", args.seconds, args.connections)
            nginx_cache = wrk(f"http://127.0.0.1:{cluster.port}{path}", args.seconds, args.connections)
            for name, r in [("rendered by a replica", rendered), ("a replica's result cache", result_cache),
                            ("nginx's proxy_cache", nginx_cache)]:
                print(f"same bytes, {name}: {r['rate']:.1f} req/s, p50 {r['p50']:.2f} ms, p99 {r['p99']:.2f} ms, "
                      f"non-2xx {r['non2xx']}", flush=True)
                if r["non2xx"]:
                    problems.append(f"{name}: {r['non2xx']} non-2xx")
            print(f"result cache / rendered: {result_cache['rate'] / rendered['rate']:.0f}×; nginx cache / result cache: "
                  f"{nginx_cache['rate'] / result_cache['rate']:.1f}×", flush=True)
        stop(cluster)
    finally:
        for cluster in list(clusters):
            stop(cluster)
        source.close()
        shutil.rmtree(scratch, ignore_errors=True)
    if problems:
        print("serve-load: " + "; ".join(problems), flush=True)
        sys.exit(1)


def slow_origin(args):
    """The slow origin's flood (see the module's doc); returns the exit status."""
    samples = make_samples(args.samples)
    slow, fast = SourceServer(samples, slow_seconds=args.slow_seconds), SourceServer(samples)
    scratch = tempfile.mkdtemp(prefix="serve-slow-origin-")
    port = free_port_block(1)
    env = dict(os.environ, IRIS_DEV="1", IRIS_ALLOW_ADDRESSES="loopback", IRIS_PORT=str(port),
               IRIS_CACHE_DIR=os.path.join(scratch, "sources"), IRIS_RESULT_CACHE_SIZE="0")
    log = open(os.path.join(scratch, "iris-server.log"), "w")
    server = subprocess.Popen([args.binary], env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    # A small render (320×240 PNG → fit 100 WebP): what is measured is the wait for the source.
    path = "/unsafe/rs:fit:100:0/plain/{}/{}/{}/logo.png@webp"
    try:
        if wait_until(lambda: health(port, timeout=1)[0] == 200, 60, 0.2) is None:
            print(f"slow origin: the server did not start; see {log.name}", flush=True)
            return 1
        alone = get(port, path.format(fast.base, "img", "alone"), timeout=60)
        print(f"slow origin: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; {args.binary}; "
              f"{args.slow_requests} requests at once for sources of their own answering after {args.slow_seconds} s, "
              f"a source of its own on another origin once a second; that origin's source alone: "
              f"{alone[0]} in {alone[3] * 1000:.0f} ms", flush=True)
        flood, probes = [], []
        started = time.perf_counter()

        def one(i):
            status, headers, _, _ = get(port, path.format(slow.base, "slow", f"s{i}"), timeout=60)
            flood.append((status, time.perf_counter() - started, headers.get("Retry-After")))

        def probe(k):
            time.sleep(max(0.0, started + 0.5 + k - time.perf_counter()))
            status, _, _, seconds = get(port, path.format(fast.base, "img", f"fast-{k}"), timeout=60)
            probes.append((k, status, seconds))

        # Each probe sent at its second, whether the one before has its answer or not.
        probers = [threading.Thread(target=probe, args=(k,)) for k in range(12)]
        for prober in probers:
            prober.start()
        with ThreadPoolExecutor(max_workers=args.slow_requests) as pool:
            list(pool.map(one, range(args.slow_requests)))
        for prober in probers:
            prober.join()
        probes.sort()
        by_status = {}
        for status, at, retry in flood:
            by_status.setdefault(status, []).append((at, retry))
        rows = []
        for status in sorted(by_status):
            times = sorted(at for at, _ in by_status[status])
            retry = Counter(r for _, r in by_status[status] if r)
            rows.append(f"{len(times)} × {status or 'no answer'} (answered {times[0]:.1f}-{times[-1]:.1f} s, "
                        f"median {percentile(times, 50):.1f} s{', Retry-After ' + str(dict(retry)) if retry else ''})")
        print("  flood: " + "; ".join(rows), flush=True)
        print(f"  the other origin's source, sent at 0.5 s, 1.5 s… 11.5 s: {dict(Counter(s for _, s, _ in probes))}, "
              + ", ".join(f"{seconds * 1000:.0f}" for _, _, seconds in probes) + " ms", flush=True)
        downloads = sum(n for p, n in slow.downloads("/slow/").items())
        print(f"  downloads the slow origin served: {downloads}", flush=True)
        failed = [p for p in probes if p[1] != 200 or p[2] > 2] + [f for f in flood if f[0] not in (200, 429)]
        return 1 if failed else 0
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        slow.close()
        fast.close()
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
