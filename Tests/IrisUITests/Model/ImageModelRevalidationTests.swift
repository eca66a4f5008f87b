import Foundation
import Testing
@testable import Iris
@testable import IrisUI
import IrisTestSupport

/// What views show when HTTP's caching rules let a stale image be shown while it is revalidated:
/// the cached image at once, then the new one swapped in place, in every model showing the
/// source, with no placeholder between.
@MainActor
@Suite("Stale while revalidate in models")
struct ImageModelRevalidationTests {
    static let old = try! TestImages.png(width: 40, height: 30, seed: 1)
    static let new = try! TestImages.png(width: 50, height: 20, seed: 2)

    static func route(_ body: Data, etag: String, gated: Bool = false) -> TestHTTPRoute {
        TestHTTPRoute(
            body: body, contentType: "image/png", isGated: gated, etag: etag,
            headers: [("Cache-Control", "max-age=60, stale-while-revalidate=86400")])
    }

    @Test("a stale memory hit shows at once; a changed origin swaps the new image into every model of it, never loading")
    func swapsInPlace() async throws {
        try await withTestServer { server in
            let clock = ManualWallClock()
            let (pipeline, disk) = try ImagePipeline.launched(diskCache: temporaryCacheFolder(), clock: clock, memoryCache: MemoryCache())
            server.serve("/a.png", Self.route(Self.old, etag: "\"v1\""))
            let large = ImageRequest(url: server.url("/a.png"), targetSize: CGSize(width: 20, height: 20))
            let small = ImageRequest(url: server.url("/a.png"), targetSize: CGSize(width: 10, height: 10))
            let first = ImageModel(pipeline: pipeline), second = ImageModel(pipeline: pipeline)
            first.load(large)
            second.load(small)
            #expect(await modelSettled(first))
            #expect(await modelSettled(second))
            await disk.waitForPendingWrites()
            let firstPhases = PhaseRecorder(first), secondPhases = PhaseRecorder(second)

            server.serve("/a.png", Self.route(Self.new, etag: "\"v2\"", gated: true))
            clock.advance(by: 600)  // stale, within stale-while-revalidate
            let third = ImageModel(pipeline: pipeline)
            let thirdPhases = PhaseRecorder(third)
            third.load(large)
            // The stale image, before load returned: no placeholder.
            #expect(third.phase.loadedImage?.sourceSize == PixelSize(width: 40, height: 30))
            #expect(third.animatesPhaseChange == false)
            #expect(await modelEventually { server.requests("/a.png").contains { $0.ifNoneMatch == "\"v1\"" } })
            server.release("/a.png")
            for model in [first, second, third] {
                #expect(await modelEventually { model.phase.loadedImage?.sourceSize == PixelSize(width: 50, height: 20) })
            }
            // Success all along: the old image stayed up until the new one replaced it.
            #expect(firstPhases.kinds == [.success])
            #expect(secondPhases.kinds == [.success])
            #expect(thirdPhases.kinds == [.success])
            #expect(first.resultCount == 2 && third.resultCount == 2)
            #expect(server.requests("/a.png").filter(\.isConditional).count == 1)
        }
    }

    @Test("a stale disk entry is decoded and shown while it is revalidated; a 304 leaves it as it is")
    func staleFromDiskUnchanged() async throws {
        try await withTestServer { server in
            let clock = ManualWallClock(), folder = temporaryCacheFolder()
            server.serve("/a.png", Self.route(Self.old, etag: "\"v1\""))
            let (launch, disk) = try ImagePipeline.launched(diskCache: folder, clock: clock)
            _ = try await launch.data(for: ImageRequest(url: server.url("/a.png")))
            await disk.waitForPendingWrites()
            server.serve("/a.png", Self.route(Self.old, etag: "\"v1\"", gated: true))
            clock.advance(by: 600)
            // Relaunched: an empty memory cache, a stale entry on disk.
            let (pipeline, _) = try ImagePipeline.launched(diskCache: folder, clock: clock, memoryCache: MemoryCache())
            let model = ImageModel(pipeline: pipeline)
            let phases = PhaseRecorder(model)
            model.load(ImageRequest(url: server.url("/a.png")))
            #expect(await modelSettled(model))  // shown while the revalidation waits at the origin
            #expect(model.phase.loadedImage?.sourceSize == PixelSize(width: 40, height: 30))
            #expect(await modelEventually { server.requestCount("/a.png") == 2 })
            server.release("/a.png")
            #expect(await modelEventually { pipeline.inFlightCount == 0 })
            // A disk read may finish before `load` returns (then no loading phase is seen); either
            // way one image is shown once and the 304 changes nothing.
            #expect(phases.kinds.drop { $0 == .loading } == [.success])
            #expect(phases.phases.filter { $0.kind == .success }.count == 1)
            #expect(model.resultCount == 1)
        }
    }
}
