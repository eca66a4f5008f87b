import Foundation
import HTTPTypes
import HummingbirdTesting
import Iris
import IrisServer
import IrisServerCore
import Testing

/// The service's source cache obeys its sources' HTTP caching headers through the pipeline's
/// own code: a stale source is revalidated with a conditional request before it is rendered from.
@Suite struct SourceRevalidationTests {
    @Test func aStaleSourceIsRevalidatedBeforeItIsRendered() async throws {
        let files = SourceFiles()
        let first = try TestImages.photo()
        let second = try TestImages.encode(
            TestImages.bitmap(width: 90, height: 30) { _, _ in RGBA(r: 200, g: 40, b: 40, a: 255) }, as: .png)
        files["p.img"] = first
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration()) { client, _ in
                let source = "\(base)/revalidated/p.img"
                // Two sizes: two renders, each reading the source (no-cache: asked before each use).
                let a = try await client.get(Harness.path(["rs:fit:100:100"], source: source, extension: "png"))
                #expect(a.status == .ok)
                let b = try await client.get(Harness.path(["rs:fit:64:64"], source: source, extension: "png"))
                #expect(b.status == .ok)
                #expect(files.count("p.img") == 2)
                #expect(files.notModifiedCount("p.img") == 1)  // the second read cost no body
                // Replaced at the origin: the next render shows the new image.
                files["p.img"] = second
                let c = try await client.get(Harness.path(["rs:fit:90:90"], source: source, extension: "png"))
                #expect(c.status == .ok)
                #expect(try TestImages.decode(c.data).bitmap.size == PixelSize(width: 90, height: 30))
                #expect(files.notModifiedCount("p.img") == 1)
            }
        }
    }
}
