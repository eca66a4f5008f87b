import Foundation
import HTTPTypes
import HummingbirdTesting
import IrisServer
import IrisServerCore
import Testing

/// The result cache: a repeat is served from disk without the source (neither fetched nor
/// decoded), per negotiated format; errors are never stored; entries age out; hits show in
/// `Server-Timing` and the metrics.
@Suite struct ResultCacheTests {
    @Test func aRepeatIsServedWithoutTheSource() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration(Harness.withResultCache)) { client, renderer in
                let path = Harness.path(["rs:fit:64:64"], source: "\(base)/f/p.jpg", extension: "webp")
                let first = try await client.get(path)
                #expect(first.status == .ok)
                #expect(first.headers[.serverTimingName]?.contains("result-cache;desc=miss") == true)
                await renderer.resultCache?.storage.waitForPendingWrites()
                // The source is gone from the server and from the source cache: only the result cache can answer.
                files["p.jpg"] = nil
                renderer.pipeline.configuration.dataCache?.removeAll()
                let second = try await client.get(path)
                #expect(second.status == .ok && second.data == first.data)
                #expect(second.headers[.eTag] == first.headers[.eTag])
                #expect(second.headers[.contentType] == "image/webp")
                #expect(second.headers[.serverTimingName]?.hasPrefix("result-cache;desc=hit") == true)
                #expect(second.headers[.serverTimingName]?.contains("decode") == false)
                let notModified = try await client.get(path, headers: [.ifNoneMatch: try #require(first.headers[.eTag])])
                #expect(notModified.status == .notModified)
                #expect(files.count("p.jpg") == 1)
                let text = renderer.metrics.exposition(load: renderer.gate.load)
                #expect(metricValue(text, "iris_result_cache_total", ["outcome": "hit"]) == 2)
                #expect(metricValue(text, "iris_result_cache_total", ["outcome": "miss"]) == 1)
                #expect(metricValue(text, "iris_stage_duration_seconds_count", ["stage": "decode"]) == 1)
            }
        }
    }

    /// The test holds the one admission there is: a hit is still answered (the result cache
    /// comes before admission), a miss is refused 429.
    @Test func aHitIsAnsweredWithoutAdmission() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            let config = Harness.configuration {
                Harness.withResultCache(&$0)
                $0.maxConcurrentRenders = 1
                $0.maxQueuedRenders = 0
            }
            try await Harness.withService(config) { client, renderer in
                let path = Harness.path(["rs:fit:64:64"], source: "\(base)/f/p.jpg", extension: "webp")
                #expect(try await client.get(path).status == .ok)
                await renderer.resultCache?.storage.waitForPendingWrites()
                try renderer.gate.admit()
                let hit = try await client.get(path)
                let miss = try await client.get(Harness.path(["rs:fit:32:32"], source: "\(base)/f/p.jpg", extension: "webp"))
                renderer.gate.dismiss()
                #expect(hit.status == .ok && hit.headers[.serverTimingName]?.hasPrefix("result-cache;desc=hit") == true)
                #expect(miss.status.code == 429)
                #expect(renderer.gate.load.waiting == 0 && files.count("p.jpg") == 1)
            }
        }
    }

    @Test func negotiatedFormatsAreCachedApart() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration(Harness.withResultCache)) { client, renderer in
                let path = Harness.path(["rs:fit:64:64"], source: "\(base)/f/p.jpg")
                let webp = try await client.get(path, headers: [.accept: "image/webp,*/*"])
                let jpeg = try await client.get(path, headers: [.accept: "*/*"])
                await renderer.resultCache?.storage.waitForPendingWrites()
                let webpAgain = try await client.get(path, headers: [.accept: "image/webp,image/*"])
                let jpegAgain = try await client.get(path, headers: [.accept: "image/png,*/*"])
                #expect(webp.headers[.contentType] == "image/webp" && webpAgain.headers[.contentType] == "image/webp")
                #expect(jpeg.headers[.contentType] == "image/jpeg" && jpegAgain.headers[.contentType] == "image/jpeg")
                #expect(webpAgain.data == webp.data && jpegAgain.data == jpeg.data)
                #expect(webpAgain.headers[.vary] == "Accept" && jpegAgain.headers[.vary] == "Accept")
                #expect(webpAgain.headers[.serverTimingName]?.hasPrefix("result-cache;desc=hit") == true)
                #expect(jpegAgain.headers[.serverTimingName]?.hasPrefix("result-cache;desc=hit") == true)
            }
        }
    }

    @Test func errorsAreNeverCached() async throws {
        let files = SourceFiles()
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration(Harness.withResultCache)) { client, renderer in
                let path = Harness.path(["rs:fit:64:64"], source: "\(base)/f/late.jpg", extension: "png")
                #expect(try await client.get(path).status.code == 404)
                await renderer.resultCache?.storage.waitForPendingWrites()
                #expect(renderer.resultCache?.storage.count == 0)
                files["late.jpg"] = try TestImages.photo()
                let served = try await client.get(path)
                #expect(served.status == .ok && served.headers[.serverTimingName]?.contains("result-cache;desc=miss") == true)
            }
        }
    }

    @Test func entriesAgeOutAndDamagedOnesAreMissed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iris-results-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try ResultCache(directory: directory, sizeLimit: 1 << 20, maxAge: .seconds(60))
        let entry = ResultCache.Entry(data: Data([1, 2, 3]), format: .webp, negotiated: true, etag: "\"e t\"", created: 1_000)
        cache.store(entry, for: "k")
        #expect(await cache.entry(for: "k", now: Date(timeIntervalSince1970: 1_059)) == entry)
        #expect(await cache.entry(for: "k", now: Date(timeIntervalSince1970: 1_060)) == nil)
        #expect(await cache.entry(for: "k", now: Date(timeIntervalSince1970: 1_000)) == nil)
        cache.storage.store(Data("not an entry".utf8), for: "bad")
        #expect(await cache.entry(for: "bad") == nil)
        #expect(cache.storage.data(for: "bad") == nil)
    }
}
