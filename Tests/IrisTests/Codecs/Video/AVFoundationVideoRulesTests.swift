import Dispatch
import Foundation
import IrisTestSupport
import Testing
@testable import Iris

/// The platform-neutral rules of videos on Apple platforms, checked on Linux: what AVFoundation
/// is asked to play, which frames the poster is looked for at, and that a decoder that blocks
/// its thread (AVFoundation's) never holds a thread of the cooperative pool.
@Suite("Video on Apple platforms: the rules")
struct AVFoundationVideoRulesTests {
    @Test("MP4 and QuickTime are played; WebM and Matroska fail with an error that says AVFoundation cannot play them")
    func playableFormats() throws {
        try AVFoundationVideoFormats.checkPlayable(.mp4)
        try AVFoundationVideoFormats.checkPlayable(.quickTime)
        #expect(throws: ImageError.decodingFailed(format: .webm, reason: "AVFoundation cannot play WebM")) {
            try AVFoundationVideoFormats.checkPlayable(.webm)
        }
        #expect(throws: ImageError.decodingFailed(format: .matroska, reason: "AVFoundation cannot play Matroska")) {
            try AVFoundationVideoFormats.checkPlayable(.matroska)
        }
        #expect(AVFoundationVideoFormats.contentType(of: .mp4) == "public.mpeg-4")
        #expect(AVFoundationVideoFormats.contentType(of: .quickTime) == "com.apple.quicktime-movie")
        #expect(AVFoundationVideoFormats.contentType(of: .webm) == nil)
    }

    @Test("the poster is looked for at the start, then every quarter second within the first seconds of the clip; or at the time asked")
    func posterSeekTimes() {
        #expect(VideoPoster.firstNonBlack.seekSeconds(duration: 1) == [0, 0.25, 0.5, 0.75])
        #expect(VideoPoster.firstNonBlack.seekSeconds(duration: 60).count == 20)
        #expect(VideoPoster.firstNonBlack.seekSeconds(duration: nil).last == 4.75)
        #expect(VideoPoster.at(seconds: 0.5).seekSeconds(duration: 2) == [0.5])
        #expect(VideoPoster.at(seconds: 9).seekSeconds(duration: 2) == [1.95])   // past the end: the end
    }

    @Test("decodes that block their thread run beside each other off the cooperative pool, which stays free")
    func blockingDecodesLeaveThePoolFree() async throws {
        // Four decodes each wait until all four have started; a task on the cooperative pool
        // lets them go. Were they on the pool (as wide as the cores), they could not all start.
        let decodes = 4
        let gate = BlockingGate(count: decodes)
        var registry = ImageDecoderRegistry(decoders: [])
        registry.register(GatedDecoder(gate: gate))
        let pipeline = ImagePipeline(configuration: .init(memoryCache: nil, decoders: registry, maxConcurrentDecodes: decodes))
        try await withThrowingTaskGroup(of: LoadedImage.self) { group in
            for index in 0..<decodes {
                group.addTask {
                    try await pipeline.image(for: ImageRequest(source: .data(id: "gated-\(index)", load: { Data("GATE".utf8) })))
                }
            }
            #expect(await pipelineEventually { gate.startedCount == decodes })
            gate.open()
            for try await image in group { #expect(image.format == GatedDecoder.format) }
        }
    }
}

/// Counts started decodes and holds them until opened; a decode never let go (its gate waited
/// on by a blocked pool) gives up after a minute, which only detects that hang.
private final class BlockingGate: Sendable {
    private let started = LockedState(0)
    private let release = DispatchSemaphore(value: 0)
    let count: Int

    init(count: Int) { self.count = count }

    var startedCount: Int { started.withLock { $0 } }

    /// Blocks until opened; false when never opened.
    func enter() -> Bool {
        started.withLock { $0 += 1 }
        return release.wait(timeout: .now() + 60) == .success
    }

    func open() { for _ in 0..<count { release.signal() } }
}

/// A decoder that blocks its thread until its gate opens.
private struct GatedDecoder: ThreadBlockingDecoding {
    static let format = ImageFormat("gated", name: "Gated")
    let gate: BlockingGate
    var formats: Set<ImageFormat> { [Self.format] }
    func format(of data: Data) -> ImageFormat? { data.starts(with: Data("GATE".utf8)) ? Self.format : nil }
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        ImageHeader(format: Self.format, width: 1, height: 1, hasAlpha: false)
    }
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        guard gate.enter() else { throw .decodingFailed(format: Self.format, reason: "never let go: the pool was blocked") }
        return Bitmap(width: 1, height: 1, format: .rgba8)
    }
}
