import Foundation
import HTTPTypes
import HummingbirdTesting
@testable import IrisServer
import IrisServerCore
import Testing

/// A slow source host cannot stall the service: it holds its own download slots (two here),
/// its queue (one) is bounded, what cannot be served in time is answered 429 with
/// `Retry-After` early, and a source on another host is served meanwhile. The origin holds the
/// slow host's answers until the test releases them, and the queue's deadline runs on the
/// test's clock, so no outcome depends on the machine's speed (the time limit is a hang
/// detector).
@Suite(.timeLimit(.minutes(5))) struct SlowSourceHostTests {
    @Test func aFastHostIsServedWhileASlowHostHoldsItsSlots() async throws {
        let files = SourceFiles()
        for name in ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "p.jpg"] { files[name] = try TestImages.photo() }
        try await withSourceServer(files) { base in
            let port = try #require(URL(string: base)?.port)
            // Two hosts, one origin: the names are the test resolver's.
            let (slow, fast) = ("http://slow.test:\(port)", "http://fast.test:\(port)")
            let resolver = TableResolver(names: ["slow.test": ["127.0.0.1"], "fast.test": ["127.0.0.1"]])
            let clock = TestClock()
            let config = Harness.configuration {
                $0.maxDownloadsPerHost = 2
                $0.maxQueuedDownloadsPerHost = 1
                $0.retryAfterSeconds = 3
                $0.clock = DeadlineClock(clock)
            }
            try await Harness.withService(config, resolver: resolver) { client, renderer in
                @Sendable func slowSource(_ name: String) async throws -> TestResponse {
                    try await client.get(Harness.path(["w:30"], source: "\(slow)/gated/\(name)", extension: "png"))
                }
                let held = [Task { try await slowSource("a.jpg") }, Task { try await slowSource("b.jpg") }]
                var arrivals = files.arrivals.makeAsyncIterator()
                _ = await arrivals.next()
                _ = await arrivals.next()  // the slow host's two slots, held at the origin
                let queued = Task { try await slowSource("c.jpg") }
                await clock.sleepers(atLeast: 1)  // waiting for a slot of its host, its deadline armed
                #expect(renderer.hostDownloads.load(of: "slow.test:\(port)") == (2, 1))

                // Beyond the host's queue: 429 at once.
                let refused = try await slowSource("d.jpg")
                #expect(refused.status.code == 429 && refused.headers[.retryAfter] == "3", "\(refused.text)")

                // Another host's source is served while the slow host holds its slots.
                let other = try await client.get(Harness.path(["w:31"], source: "\(fast)/f/p.jpg", extension: "png"))
                #expect(other.status == .ok)
                #expect(renderer.hostDownloads.load(of: "slow.test:\(port)") == (2, 1))

                // At its deadline, on the test's clock, the waiting request is answered: early,
                // while the two ahead of it still download.
                clock.advance(by: config.queueTimeout)
                let late = try await queued.value
                #expect(late.status.code == 429 && late.headers[.retryAfter] == "3", "\(late.text)")
                #expect(renderer.hostDownloads.load(of: "slow.test:\(port)") == (2, 0))

                files.gate.open()
                for request in held { #expect(try await request.value.status == .ok) }
                #expect(files.count("c.jpg") == 0 && files.count("d.jpg") == 0)
                #expect(renderer.hostDownloads.load(of: "slow.test:\(port)") == (0, 0))
                let metrics = renderer.metrics.exposition(load: renderer.gate.load)
                #expect(metrics.contains("iris_source_host_busy_total 2") && metrics.contains("iris_busy_total 2"), "\(metrics)")
            }
        }
    }
}
