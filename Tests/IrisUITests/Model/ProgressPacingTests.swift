import Foundation
import IrisSamples
import Observation
import Testing
@testable import Iris
@testable import IrisUI
import IrisTestSupport

/// How often a loading model's phase changes while bytes trickle in: at most once per
/// ``ImageModel/progressInterval`` on the model's clock, whatever the chunk size, so a cell's body
/// (which reads the phase) runs at a rate a screen can use.
@MainActor
@Suite("Progress pacing")
struct ProgressPacingTests {
    static let target = CGSize(width: 60, height: 60)

    /// A PNG of over half a megabyte (noise compresses badly), sent in 4 KiB pieces.
    static func bigPNG() throws -> Data {
        try PNGEncoder().encode(SampleImages.photo(width: 800, height: 600, seed: 9), options: EncodeOptions())
    }

    @Test("hundreds of chunks arriving within one interval change the phase three times: loading, the first progress, success")
    func chunksWithinOneInterval() async throws {
        let png = try Self.bigPNG()
        try await withTestServer { server in
            let route = TestHTTPRoute.inPieces(body: png, pieceSize: 4_096, contentType: "image/png")
            #expect(route.pieceCount > 120, "only \(route.pieceCount) pieces")
            server.serve("/big.png", route)
            let clock = VirtualClock()
            let model = ImageModel(pipeline: .modelTestPipeline())
            model.clock = clock
            let renders = RenderCounter(model)
            let recorder = PhaseRecorder(model)
            model.load(ImageRequest(url: server.url("/big.png"), targetSize: Self.target))
            server.releasePieces("/big.png", through: route.pieceCount)
            #expect(await modelSettled(model))
            #expect(model.phase.kind == .success)
            #expect(recorder.kinds == [.loading, .success])
            #expect(recorder.phases.count == 3, "\(recorder.phases.count) phases for \(route.pieceCount) chunks")
            #expect(renders.count <= 3, "\(renders.count) notifications for \(route.pieceCount) chunks")
            #expect(recorder.progressValues.first?.total == png.count)
        }
    }

    @Test("the newest progress held during an interval shows when it ends; progress only grows")
    func heldProgressShowsAtTheEndOfTheInterval() async throws {
        let png = try Self.bigPNG()
        try await withTestServer { server in
            let route = TestHTTPRoute.inPieces(body: png, pieceSize: 4_096, contentType: "image/png")
            server.serve("/big.png", route)
            let clock = VirtualClock()
            let model = ImageModel(pipeline: .modelTestPipeline())
            model.clock = clock
            let recorder = PhaseRecorder(model)
            model.load(ImageRequest(url: server.url("/big.png"), targetSize: Self.target))

            // The response's progress (0 bytes, the total) shows at once; the first piece, sent
            // with the headers, arrives within the interval: held.
            #expect(await modelEventually { (model.heldProgress?.completed ?? 0) >= 4_096 && clock.sleeperCount == 1 })
            #expect(recorder.progressValues.map(\.completed) == [0])
            let shownAfterFirst = recorder.phases.count
            // Three more pieces within the interval: held, not shown.
            server.releasePieces("/big.png", through: 3)
            #expect(await modelEventually { (model.heldProgress?.completed ?? 0) >= 4 * 4_096 })
            #expect(recorder.phases.count == shownAfterFirst)
            // The interval ends: the newest held progress shows, and a new interval starts.
            clock.advance(by: model.progressInterval)
            #expect(await modelEventually { (model.phase.progress?.completed ?? 0) >= 4 * 4_096 && clock.sleeperCount == 1 })
            #expect(recorder.phases.count == shownAfterFirst + 1)
            #expect(model.heldProgress == nil)

            server.releasePieces("/big.png", through: route.pieceCount)
            #expect(await modelSettled(model))
            #expect(model.phase.kind == .success)
            let completed = recorder.progressValues.map(\.completed)
            #expect(completed == completed.sorted())
            #expect(recorder.progressValues.allSatisfy { $0.total == png.count })
            #expect(clock.sleeperCount == 0, "the pacing interval outlived the load")
        }
    }
}

/// Counts how often a SwiftUI-like observer of a model's ``ImageModel/displayedPhase`` (what
/// ``IrisImage``'s body reads) is told it changed: it observes again after each notification, on
/// the main actor, as a view's next render does.
@MainActor
final class RenderCounter {
    private(set) var count = 0
    private weak var model: ImageModel?

    init(_ model: ImageModel) {
        self.model = model
        observe()
    }

    private func observe() {
        guard let model else { return }
        withObservationTracking {
            _ = model.displayedPhase
        } onChange: { [weak self] in
            Task { @MainActor in
                self?.count += 1
                self?.observe()
            }
        }
    }
}
