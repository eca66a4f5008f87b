import Foundation
import HTTPTypes
import HummingbirdTesting
@testable import IrisServer
import IrisServerCore
import Testing

/// `/health` (JSON, 503 while draining), the metrics the renders leave in the Prometheus
/// exposition, and the request log: one line per request with its id.
@Suite struct HealthAndMetricsTests {
    @Test func healthIsJSONAndTurns503WhenDraining() async throws {
        let drain = DrainState()
        try await Harness.withService(Harness.configuration(), drain: drain) { client, _ in
            let ok = try await client.get("/health")
            #expect(ok.status == .ok && ok.headers[.contentType] == "application/json")
            let body = try #require(try JSONSerialization.jsonObject(with: ok.data) as? [String: Any])
            #expect(body["status"] as? String == "ok" && body["inFlight"] as? Int == 0 && body["queued"] as? Int == 0)
            drain.begin()
            let draining = try await client.get("/health")
            #expect(draining.status == .serviceUnavailable && draining.text.contains("\"draining\""))
        }
    }

    @Test func rendersRefusalsAndSourcesAreCounted() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration()) { client, renderer in
                let png = try await client.get(Harness.path(["w:40"], source: "\(base)/f/p.jpg", extension: "png"))
                let webp = try await client.get(Harness.path(["w:30"], source: "\(base)/f/p.jpg", extension: "webp"))
                let forbidden = try await client.get(Harness.path(["w:30"], source: "http://10.0.0.1/x.jpg"))
                let malformed = try await client.get("/unsafe/bogus:1/plain/\(base)/f/p.jpg")
                #expect(png.status == .ok && webp.status == .ok && forbidden.status == .forbidden && malformed.status == .badRequest)
                let text = renderer.metrics.exposition(load: renderer.gate.load)
                #expect(metricValue(text, "iris_requests_total", ["status": "200", "format": "png"]) == 1)
                #expect(metricValue(text, "iris_requests_total", ["status": "200", "format": "webp"]) == 1)
                #expect(metricValue(text, "iris_requests_total", ["status": "403", "format": "none"]) == 1)
                #expect(metricValue(text, "iris_refusals_total", ["reason": "forbidden"]) == 1)
                #expect(metricValue(text, "iris_refusals_total", ["reason": "bad_request"]) == 1)
                for stage in ["fetch", "decode", "process", "encode"] {
                    #expect(metricValue(text, "iris_stage_duration_seconds_count", ["stage": stage]) == 2, "\(stage)")
                }
                // The first render downloaded the source, the second found it in the source cache.
                #expect(metricValue(text, "iris_source_cache_total", ["outcome": "miss"]) == 1)
                #expect(metricValue(text, "iris_source_cache_total", ["outcome": "hit"]) == 1)
                #expect(metricValue(text, "iris_source_bytes_total") == Double(try TestImages.photo().count))
                #expect(metricValue(text, "iris_renders_in_flight") == 0 && metricValue(text, "iris_renders_queued") == 0)
                #expect(files.count("p.jpg") == 1)
            }
        }
    }

    /// Requests that arrive while the source is downloading join that download: the gated source
    /// holds it open until all of them have arrived at the renderer's source stage.
    @Test func joinedDownloadsAndBusyRefusalsAreCounted() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            let config = Harness.configuration {
                $0.maxConcurrentRenders = 3
                $0.maxQueuedRenders = 0
            }
            try await Harness.withService(config) { client, renderer in
                let path = { @Sendable (width: Int) in Harness.path(["w:\(width)"], source: "\(base)/gated/p.jpg", extension: "png") }
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for width in [20, 21, 22] { group.addTask { try await client.get(path(width)).status.code } }
                    var arrivals = files.arrivals.makeAsyncIterator()
                    _ = await arrivals.next()
                    // Wait (bounded) until all three wait for the source's fetch in the pipeline: every
                    // slot is taken and the queue holds none, so a fourth is a 429.
                    var spins = 0
                    while renderer.pipeline.requestsInFlight < 3 {
                        spins += 1
                        try #require(spins < 10_000_000, "the requests did not reach the source stage")
                        await Task.yield()
                    }
                    #expect(try await client.get(path(23)).status.code == 429)
                    files.gate.open()
                    for try await code in group { #expect(code == 200) }
                }
                let text = renderer.metrics.exposition(load: renderer.gate.load)
                #expect(files.count("p.jpg") == 1)
                #expect(metricValue(text, "iris_downloads_coalesced_total") == 2)
                #expect(metricValue(text, "iris_source_cache_total", ["outcome": "miss"]) == 1)
                #expect(metricValue(text, "iris_refusals_total", ["reason": "busy"]) == 1)
                #expect(metricValue(text, "iris_busy_total") == 1)
            }
        }
    }

    @Test func oneLogLinePerRequestWithItsID() async throws {
        let log = CapturedLog()
        try await Harness.withService(Harness.configuration(), logger: log.logger) { client, _ in
            let given = try await client.get("/health", headers: [HTTPField.Name("X-Request-Id")!: "abc-123"])
            #expect(given.headers[HTTPField.Name("X-Request-Id")!] == "abc-123")
            let made = try await client.get(
                "/unsafe/bogus:1/plain/http://x.test/a.jpg", headers: [HTTPField.Name("X-Request-Id")!: "bad id!"])
            let id = try #require(made.headers[HTTPField.Name("X-Request-Id")!])
            #expect(id.count == 32 && id != "bad id!")
            let lines = log.all.filter { $0.message == "request" }
            #expect(lines.count == 2)
            #expect(lines.first?.metadata["request_id"] == "abc-123" && lines.first?.metadata["status"] == "200")
            #expect(lines.last?.metadata["request_id"] == id && lines.last?.metadata["status"] == "400")
            #expect(lines.last?.metadata["path"]?.hasPrefix("/unsafe/bogus:1") == true && lines.last?.metadata["duration_ms"] != nil)
        }
    }
}
