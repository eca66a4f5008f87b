import Foundation
import HTTPTypes
import HummingbirdTesting
import Iris
import IrisServer
import IrisServerCore
import Testing

/// Each refusal of "safe by default", with its status. No test connects anywhere but
/// 127.0.0.1: refused addresses are refused on the address, before any connection.
@Suite struct SafetyTests {
    func status(
        _ path: String, config: IrisServerConfiguration = Harness.configuration(),
        resolver: TableResolver = TableResolver(), files: SourceFiles = SourceFiles()
    ) async throws -> (Int, String) {
        try await Harness.withService(config, resolver: resolver) { client, _ in
            let response = try await client.get(path)
            return (response.status.code, response.text)
        }
    }

    @Test func forbiddenAddressesAreRefusedBeforeConnecting() async throws {
        for source in [
            "http://169.254.169.254/latest/meta-data", "http://10.0.0.1/a.jpg", "http://[fe80::1]/a.jpg",
            "http://0.0.0.0/a.jpg", "http://224.0.0.1/a.jpg", "http://metadata.test/a.jpg", "http://intranet.test/a.jpg",
        ] {
            let resolver = TableResolver(names: ["metadata.test": ["169.254.169.254"], "intranet.test": ["93.184.216.34", "192.168.0.7"]])
            let (code, text) = try await status(Harness.path(["w:10"], source: source), resolver: resolver)
            #expect(code == 403, "\(source): \(text)")
        }
        // Loopback only when allowed.
        let strict = Harness.configuration { $0.sourcePolicy.allowedAddressKinds = [.global] }
        for source in ["http://[::1]/a.jpg", "http://127.0.0.1/a.jpg", "http://localhost.test/a.jpg"] {
            let (code, _) = try await status(
                Harness.path(["w:10"], source: source), config: strict,
                resolver: TableResolver(names: ["localhost.test": ["::1"]]))
            #expect(code == 403, "\(source)")
        }
    }

    @Test func redirectsAreJudgedAgainAndBounded() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            for target in ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/x.jpg", "http://[::ffff:a00:1]/x"] {
                let redirect = "\(base)/redirect?to=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
                let (code, text) = try await status(Harness.path(["w:10"], source: redirect))
                #expect(code == 403, "\(target): \(text)")
            }
            // A redirect to a good source is followed…
            let good = "\(base)/redirect?to=\("\(base)/f/p.jpg".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            #expect(try await status(Harness.path(["w:10"], source: good, extension: "png")).0 == 200)
            // …but not more than ten times.
            var chain = "\(base)/f/p.jpg"
            for _ in 0..<11 { chain = "\(base)/redirect?to=\(chain.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }
            let (code, text) = try await status(Harness.path(["w:10"], source: chain, extension: "png"))
            #expect(code == 404 && text.contains("redirects"), "\(text)")
        }
    }

    @Test func localSourcesStayInTheRoot() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("iris-local-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try TestImages.photo().write(to: root.appendingPathComponent("p.jpg"))
        let config = Harness.configuration { $0.sourcePolicy.localRoot = root }
        #expect(try await status("/unsafe/w:10/plain/local:///p.jpg@png", config: config).0 == 200)
        #expect(try await status("/unsafe/w:10/plain/local://../etc/passwd", config: config).0 == 403)
        #expect(try await status("/unsafe/w:10/plain/local:///%2E%2E/etc/passwd", config: config).0 == 403)
        #expect(try await status(Harness.path([], source: "local:///../../etc/passwd"), config: config).0 == 403)
        #expect(try await status("/unsafe/w:10/plain/local:///missing.jpg", config: config).0 == 404)
        #expect(try await status("/unsafe/w:10/plain/local:///p.jpg").0 == 403)
    }

    @Test func allowListIsApplied() async throws {
        let config = Harness.configuration { $0.sourcePolicy.allowedPrefixes = ["https://images.test/"] }
        #expect(try await status(Harness.path([], source: "http://127.0.0.1:9/a.jpg"), config: config).0 == 403)
    }

    /// A redirect off the allow-list is refused even to an allowed address (the source server
    /// on 127.0.0.1, loopback allowed): only the redirect itself is fetched, never its target.
    @Test func redirectsAreCheckedAgainstTheAllowList() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            let onList = Harness.configuration { $0.sourcePolicy.allowedPrefixes = ["\(base)/redirect", "\(base)/f/"] }
            let offList = Harness.configuration { $0.sourcePolicy.allowedPrefixes = ["\(base)/redirect"] }
            let redirect = "\(base)/redirect?to=\("\(base)/f/p.jpg".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            let path = Harness.path(["w:10"], source: redirect, extension: "png")
            let (refused, text) = try await status(path, config: offList)
            #expect(refused == 403 && text.contains("allow-list"), "\(text)")
            #expect(files.count("p.jpg") == 0)
            #expect(files.count("redirect") == 1)
            #expect(try await status(path, config: onList).0 == 200)
            #expect(files.count("p.jpg") == 1)
        }
    }

    @Test func sizeLimitsOfSourceAndResult() async throws {
        let files = SourceFiles()
        files["huge.png"] = TestImages.pngHeader(width: 100_000, height: 100_000)
        files["big.bin"] = Data(repeating: 0xAB, count: 300_000)
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            let (code, text) = try await status(Harness.path([], source: "\(base)/f/huge.png"))
            #expect(code == 422 && text.contains("100000×100000"), "\(code) \(text)")  // as imgproxy
            let small = Harness.configuration { $0.maxSourceBytes = 100_000 }
            #expect(try await status(Harness.path([], source: "\(base)/f/big.bin"), config: small).0 == 413)
            #expect(try await status(Harness.path([], source: "\(base)/chunked/big.bin"), config: small).0 == 413)
            let result = Harness.configuration { $0.maxResultPixels = 1_000_000 }
            #expect(try await status(Harness.path(["rs:fit:4000:4000:1"], source: "\(base)/f/p.jpg"), config: result).0 == 413)
            #expect(try await status(Harness.path([], source: "\(base)/f/missing.jpg")).0 == 404)
            #expect(try await status(Harness.path([], source: "\(base)/f/big.bin")).0 == 422)
        }
    }

    @Test func errorsAreNotCached() async throws {
        let files = SourceFiles()
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration()) { client, _ in
                let path = Harness.path(["w:10"], source: "\(base)/f/late.jpg", extension: "png")
                #expect(try await client.get(path).status == .notFound)
                files["late.jpg"] = try TestImages.photo()
                #expect(try await client.get(path).status == .ok)
                files["junk.jpg"] = Data("not an image".utf8)
                let junk = Harness.path(["w:10"], source: "\(base)/f/junk.jpg", extension: "png")
                #expect(try await client.get(junk).status.code == 422)
                files["junk.jpg"] = try TestImages.photo()
                #expect(try await client.get(junk).status == .ok)
            }
        }
    }

    @Test func aSlowSourceTimesOut() async throws {
        let files = SourceFiles()
        try await withSourceServer(files) { base in
            // The source never answers; the timeout is the only way out (not a race: nothing arrives).
            let config = Harness.configuration { $0.downloadTimeout = .milliseconds(300) }
            let (code, _) = try await status(Harness.path([], source: "\(base)/hang"), config: config)
            #expect(code == 504)
        }
    }

    /// A source that refuses the connection is a 502 at once: the client makes one attempt
    /// instead of retrying with backoff until its connect timeout. Connecting may take the whole
    /// download timeout, ten minutes here, so a retrying client would not answer before the
    /// suite's time limit (a hang detector): the test needs no clock of its own.
    @Test(.timeLimit(.minutes(5))) func aSourceThatRefusesIsA502AtOnce() async throws {
        let (code, _) = try await status(Harness.path(["w:10"], source: "http://127.0.0.1:1/a.jpg"))
        #expect(code == 502)
    }

    @Test func twentyConcurrentRequestsMakeOneDownload() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration { $0.maxConcurrentRenders = 20 }) { client, _ in
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<20 {
                        group.addTask {
                            let width = 20 + index % 5 * 10
                            return try await client.get(Harness.path(["w:\(width)"], source: "\(base)/gated/p.jpg", extension: "png"))
                                .status.code
                        }
                    }
                    // Every request is in before the one download may answer.
                    var arrivals = files.arrivals.makeAsyncIterator()
                    _ = await arrivals.next()
                    files.gate.open()
                    for try await code in group { #expect(code == 200) }
                }
                #expect(files.count("p.jpg") == 1)
            }
        }
    }

    /// Requests waiting for their sources hold both admissions (one render slot, one place
    /// besides): every request beyond is refused at once, and the service resumes after.
    @Test func aFloodIsAnswered429ThenServiceResumes() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        files["q.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            let config = Harness.configuration {
                $0.maxConcurrentRenders = 1
                $0.maxQueuedRenders = 1
                $0.retryAfterSeconds = 2
            }
            try await Harness.withService(config) { client, renderer in
                let first = Task {
                    try await client.get(Harness.path(["w:30"], source: "\(base)/gated/p.jpg", extension: "png")).status.code
                }
                let second = Task {
                    try await client.get(Harness.path(["w:31"], source: "\(base)/gated/q.jpg", extension: "png")).status.code
                }
                var arrivals = files.arrivals.makeAsyncIterator()
                _ = await arrivals.next()
                _ = await arrivals.next()  // both admitted, both waiting for their sources
                #expect(renderer.gate.load.running == 0 && renderer.gate.load.waiting == 2)
                var refused = 0
                for index in 0..<5 {
                    let response = try await client.get(Harness.path(["w:\(40 + index)"], source: "\(base)/f/p.jpg", extension: "png"))
                    if response.status.code == 429 {
                        refused += 1
                        #expect(response.headers[.retryAfter] == "2" && response.headers[.cacheControl] == "no-store")
                    }
                }
                #expect(refused == 5)
                files.gate.open()
                #expect(try await first.value == 200)
                #expect(try await second.value == 200)
                #expect(try await client.get(Harness.path(["w:50"], source: "\(base)/f/p.jpg", extension: "png")).status == .ok)
            }
        }
    }

    /// A request waiting for a slow source holds its admission but not a render slot: with one
    /// slot, another request whose source is at hand is rendered meanwhile (before, it waited
    /// behind the download, up to the download timeout).
    @Test func aSourceStillDownloadingHoldsNoRenderSlot() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            let config = Harness.configuration {
                $0.maxConcurrentRenders = 1
                $0.maxQueuedRenders = 1
            }
            try await Harness.withService(config) { client, renderer in
                let held = Task {
                    try await client.get(Harness.path(["w:30"], source: "\(base)/gated/p.jpg", extension: "png")).status.code
                }
                var arrivals = files.arrivals.makeAsyncIterator()
                _ = await arrivals.next()  // its download has begun, and waits
                // A hang detector: without the fix, the request below waits for the slot until this opens the gate.
                let opener = Task {
                    try await Task.sleep(for: .seconds(20))
                    files.gate.open()
                }
                let other = try await client.get(Harness.path(["w:31"], source: "\(base)/f/p.jpg", extension: "png"))
                #expect(other.status == .ok)
                #expect(renderer.gate.load.running == 0 && renderer.gate.load.waiting == 1)  // the first still waits for its source
                opener.cancel()
                files.gate.open()
                #expect(try await held.value == 200)
                #expect(renderer.gate.load.running == 0 && renderer.gate.load.waiting == 0)
            }
        }
    }
    /// A page asking for one source in 100 sizes at once, on the default queue (two render
    /// slots here): every request is served, none refused; the source is fetched once.
    @Test func aHundredSizesOfOneSourceAtOnceAreAllServed() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            // The default count bound; the time bound (10 s) is only a hang detector here, so that
            // the other suites running beside it cannot make a waiting request late (that bound
            // is tested by `AdmissionGateTests.aRequestWaitingPastTheQueueTimeoutIs429`).
            let config = Harness.configuration {
                $0.maxConcurrentRenders = 2
                $0.maxQueuedRenders = IrisServerConfiguration().maxQueuedRenders
                $0.queueTimeout = .seconds(600)
            }
            try await Harness.withService(config) { client, renderer in
                let codes = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<100 {
                        group.addTask {
                            try await client.get(Harness.path(["w:\(20 + index)"], source: "\(base)/gated/p.jpg", extension: "webp")).status
                                .code
                        }
                    }
                    // Every request is admitted and waiting for the one download before it answers.
                    var arrivals = files.arrivals.makeAsyncIterator()
                    _ = await arrivals.next()
                    while renderer.gate.load.waiting < 100 { await Task.yield() }
                    files.gate.open()
                    var codes: [Int] = []
                    for try await code in group { codes.append(code) }
                    return codes
                }
                #expect(
                    codes.count == 100 && codes.allSatisfy { $0 == 200 }, "\(Dictionary(grouping: codes, by: { $0 }).mapValues(\.count))")
                #expect(files.count("p.jpg") == 1)
                #expect(renderer.gate.load.running == 0 && renderer.gate.load.waiting == 0)
            }
        }
    }
}
