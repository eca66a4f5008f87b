import AsyncHTTPClient
import Foundation
import IrisServer
import IrisServerCore
import NIOCore
import NIOPosix
import ServiceLifecycle
import Testing

/// The whole service under swift-service-lifecycle, live on 127.0.0.1: a graceful shutdown
/// while a request waits on a gated source marks the service draining, still answers that
/// request, then stops listening and returns; `/metrics` answers on its own port.
@Suite(.timeLimit(.minutes(5))) struct LifecycleTests {
    @Test func aGracefulShutdownAnswersTheRequestInFlight() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            let config = Harness.configuration {
                $0.port = 0
                $0.metricsPort = 0
                $0.drainLimit = .seconds(600)
            }
            defer { try? FileManager.default.removeItem(at: config.cacheDirectory) }
            let renderer = try ImageRenderer(configuration: config)
            let drain = DrainState()
            let (ports, portsIn) = AsyncStream.makeStream(of: (String, Int).self)
            let group = IrisServerService.group(
                configuration: config, renderer: renderer, drain: drain,
                logger: Harness.quietLogger, signals: [],
                onRunning: { portsIn.yield(("images", $0)) },
                onMetricsRunning: { portsIn.yield(("metrics", $0)) })
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var listening: [String: Int] = [:]
                for await (name, port) in ports {
                    listening[name] = port
                    if listening.count == 2 { break }
                }
                let images = "http://127.0.0.1:\(try #require(listening["images"]))"
                let health = try await Self.get(images + "/health")
                #expect(health.status == 200)

                let inFlight = Task { try await Self.get(images + Harness.path(["w:16"], source: "\(base)/gated/p.jpg", extension: "png")) }
                var arrivals = files.arrivals.makeAsyncIterator()
                _ = await arrivals.next()
                await group.triggerGracefulShutdown()
                await drain.waitUntilDraining()
                files.gate.open()
                let answered = try await inFlight.value
                #expect(answered.status == 200 && answered.body.count > 0)
                try await tasks.next()
                // Stopped: nothing listens on either port any more (a plain connect is refused;
                // an HTTP client would retry it until its deadline).
                for port in [try #require(listening["images"]), try #require(listening["metrics"])] {
                    await #expect(throws: (any Error).self) {
                        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                            .connect(host: "127.0.0.1", port: port).get().close()
                    }
                }
            }
            let text = renderer.metrics.exposition(load: renderer.gate.load)
            #expect(metricValue(text, "iris_requests_total", ["status": "200", "format": "png"]) == 1)
        }
    }

    @Test func metricsAnswerOnTheirOwnPort() async throws {
        let config = Harness.configuration {
            $0.port = 0
            $0.metricsPort = 0
        }
        defer { try? FileManager.default.removeItem(at: config.cacheDirectory) }
        let renderer = try ImageRenderer(configuration: config)
        let (ports, portsIn) = AsyncStream.makeStream(of: (String, Int).self)
        let group = IrisServerService.group(
            configuration: config, renderer: renderer, logger: Harness.quietLogger, signals: [],
            onRunning: { portsIn.yield(("images", $0)) },
            onMetricsRunning: { portsIn.yield(("metrics", $0)) })
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var listening: [String: Int] = [:]
            for await (name, port) in ports {
                listening[name] = port
                if listening.count == 2 { break }
            }
            let images = "http://127.0.0.1:\(try #require(listening["images"]))"
            let metrics = "http://127.0.0.1:\(try #require(listening["metrics"]))"
            #expect(try await Self.get(images + "/unsafe/bogus:1/plain/http://x.test/a.jpg").status == 400)
            let scraped = try await Self.get(metrics + "/metrics")
            #expect(scraped.status == 200 && scraped.contentType?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(decoding: scraped.body, as: UTF8.self)
            #expect(metricValue(text, "iris_requests_total", ["status": "400", "format": "none"]) == 1)
            #expect(text.contains("# TYPE iris_stage_duration_seconds histogram"))
            // The image listener does not serve the metrics, nor the metrics listener images.
            #expect(try await Self.get(images + "/metrics").status == 400)
            #expect(try await Self.get(metrics + "/health").status == 404)
            await group.triggerGracefulShutdown()
            try await tasks.next()
        }
    }

    /// A client that connects and sends nothing, and one that stops halfway through its request,
    /// are disconnected by the server once the idle timeout passes (they would otherwise hold a
    /// file descriptor each for ever: 1 000 of them exhaust a default limit). The wait is for the
    /// server's close; the suite's time limit only detects a hang.
    @Test func idleConnectionsAreClosed() async throws {
        let config = Harness.configuration {
            $0.port = 0
            $0.idleTimeout = .seconds(1)
        }
        defer { try? FileManager.default.removeItem(at: config.cacheDirectory) }
        let renderer = try ImageRenderer(configuration: config)
        let (ports, portsIn) = AsyncStream.makeStream(of: Int.self)
        let group = IrisServerService.group(
            configuration: config, renderer: renderer, logger: Harness.quietLogger, signals: [],
            onRunning: { portsIn.yield($0) })
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            let silent = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
            let halfway = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
            // (On a busy machine the server may close it before the half request is written: the
            // close is what the test waits for either way.)
            try? await halfway.writeAndFlush(ByteBuffer(string: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")).get()
            try await silent.closeFuture.get()
            try await halfway.closeFuture.get()
            #expect(!silent.isActive && !halfway.isActive)
            // The service itself goes on.
            #expect(try await Self.get("http://127.0.0.1:\(port)/health").status == 200)
            await group.triggerGracefulShutdown()
            try await tasks.next()
        }
    }

    struct Answer: Sendable {
        var status: Int
        var contentType: String?
        var body: Data
    }

    static func get(_ url: String) async throws -> Answer {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(600))
        let body = try await response.body.collect(upTo: 16 << 20)
        return Answer(
            status: Int(response.status.code), contentType: response.headers.first(name: "content-type"),
            body: Data(body.readableBytesView))
    }
}
