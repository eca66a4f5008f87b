import Foundation
import IrisTestSupport
import Testing
@testable import Iris

/// A decoder whose work is asynchronous (AVFoundation's video on Apple platforms), checked on
/// Linux with one that waits for the test: the pipeline awaits it (its synchronous methods are
/// never called), with the same limits, target and orientation as any decode, within the
/// decoding time limit, and a cancelled caller does not wait for it.
@Suite("Asynchronous decoders")
struct AsyncDecodingTests {
    @Test("the pipeline awaits an asynchronous decoder: four decodes wait at once, then all finish")
    func pipelineAwaits() async throws {
        let decodes = 4
        let decoder = AwaitingDecoder()
        var registry = ImageDecoderRegistry(decoders: [])
        registry.register(decoder)
        // No decoding-time limit: the decodes wait at the gate for as long as the machine takes to
        // start all four (the limit, on the real clock, is `decodingTimeLimit`'s to test).
        let pipeline = ImagePipeline(
            configuration: .init(
                memoryCache: nil, decoders: registry, limits: DecodingLimits(maxDecodingTime: nil), maxConcurrentDecodes: decodes))
        try await withThrowingTaskGroup(of: LoadedImage.self) { group in
            for index in 0..<decodes {
                group.addTask {
                    try await pipeline.image(for: ImageRequest(source: .data(id: "awaited-\(index)", load: { AwaitingDecoder.bytes })))
                }
            }
            #expect(await pipelineEventually { decoder.gate.startedCount == decodes })
            decoder.gate.open()
            for try await image in group {
                #expect(image.format == AwaitingDecoder.format)
                #expect(image.sourceSize == AwaitingDecoder.size)
            }
        }
    }

    @Test(
        "an asynchronous decode gets the registry's target and limits: a 4000×3000 header fit in 100×100 is decoded at 100×75; over the pixel limit, it is never decoded"
    )
    func targetAndLimits() async throws {
        let decoder = AwaitingDecoder()
        decoder.gate.open()
        var registry = ImageDecoderRegistry(decoders: [])
        registry.register(decoder)
        let image = try await registry.decodeAwaiting(
            AwaitingDecoder.bytes, options: DecodeOptions(target: DecodeTarget(width: 100, height: 100)))
        #expect(image.bitmap.width == 100 && image.bitmap.height == 75)
        #expect(image.sourceSize == AwaitingDecoder.size)

        let limited = DecodeOptions(limits: DecodingLimits(maxPixels: 1_000_000))
        await #expect(throws: ImageError.overLimit(.pixels(width: 4000, height: 3000, limit: 1_000_000))) {
            try await registry.decodeAwaiting(AwaitingDecoder.bytes, options: limited)
        }
        #expect(decoder.gate.startedCount == 1)  // the refused one never reached the decoder
    }

    @Test("an asynchronous decode that does not end is stopped at maxDecodingTime, even when it ignores cancellation")
    func decodingTimeLimit() async throws {
        let decoder = AwaitingDecoder()  // its gate stays shut until the end
        var registry = ImageDecoderRegistry(decoders: [])
        registry.register(decoder)
        let limit = Duration.milliseconds(20)
        await #expect(throws: ImageError.overLimit(.decodingTime(limit: limit))) {
            try await registry.decodeAwaiting(AwaitingDecoder.bytes, options: DecodeOptions(limits: DecodingLimits(maxDecodingTime: limit)))
        }
        #expect(decoder.gate.startedCount == 1)
        decoder.gate.open()
    }

    @Test("a cancelled caller of an asynchronous decode ends with .cancelled at once, even when the decoder ignores cancellation")
    func cancelledCaller() async throws {
        let decoder = AwaitingDecoder()
        var registry = ImageDecoderRegistry(decoders: [])
        registry.register(decoder)
        let noTimeLimit = DecodeOptions(limits: DecodingLimits(maxDecodingTime: nil))
        let decode = Task { () async throws(ImageError) -> LoadedImage in
            try await registry.decodeAwaiting(AwaitingDecoder.bytes, options: noTimeLimit)
        }
        #expect(await pipelineEventually { decoder.gate.startedCount == 1 })
        decode.cancel()
        let result = await decode.result
        #expect(throws: ImageError.cancelled) { try result.get() }
        decoder.gate.open()
    }
}

/// Holds the decodes that enter it until opened, counting them; waiting ignores cancellation,
/// as a system call might.
private final class AsyncGate: Sendable {
    private let state = LockedState<(isOpen: Bool, started: Int, waiting: [CheckedContinuation<Void, Never>])>((false, 0, []))

    var startedCount: Int { state.withLock { $0.started } }

    func enter() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                state.started += 1
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}

/// A decoder of a made-up format that only decodes asynchronously, once its gate lets it: its
/// synchronous methods fail, so a decode that reaches them shows.
private struct AwaitingDecoder: AsyncImageDecoding {
    static let format = ImageFormat("awaited", name: "Awaited")
    static let bytes = Data("AWAIT".utf8)
    static let size = PixelSize(width: 4000, height: 3000)
    let gate = AsyncGate()

    var formats: Set<ImageFormat> { [Self.format] }
    func format(of data: Data) -> ImageFormat? { data.starts(with: Self.bytes) ? Self.format : nil }

    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        throw .decodingFailed(format: Self.format, reason: "read synchronously")
    }

    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        throw .decodingFailed(format: Self.format, reason: "decoded synchronously")
    }

    func asyncHeader(of data: Data) async throws(ImageError) -> ImageHeader {
        ImageHeader(format: Self.format, width: Self.size.width, height: Self.size.height, hasAlpha: false)
    }

    func asyncDecode(_ data: Data, context: DecodeContext) async throws(ImageError) -> DecodedStill {
        await gate.enter()
        return DecodedStill(bitmap: Bitmap(width: context.outputSize.width, height: context.outputSize.height, format: .rgba8))
    }
}
