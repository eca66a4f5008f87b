import Dispatch
import Foundation

/// A decoder that waits for work done elsewhere (AVFoundation's asynchronous API behind the
/// synchronous ``ImageDecoding``): the pipeline runs its decodes on a thread of their own
/// (``ImageDecoderRegistry/decodeOffCooperativePool(_:options:)``), never on a thread of Swift
/// concurrency's cooperative pool, which must never block.
protocol ThreadBlockingDecoding: ImageDecoding {}

/// The threads that decodes of a ``ThreadBlockingDecoding`` decoder block: Dispatch's, outside
/// the cooperative pool. How many run at once is bounded by the pipeline's decode queue.
private let blockingDecodeQueue = DispatchQueue(label: "Iris.blocking-decode", qos: .userInitiated, attributes: .concurrent)

extension ImageDecoderRegistry {
    /// Decodes `data` like ``decode(_:options:)``; when its decoder blocks its thread
    /// (``ThreadBlockingDecoding``: video on Apple platforms), on a Dispatch thread while the
    /// caller's task waits without holding a thread. What the pipeline's decode stage calls.
    package func decodeOffCooperativePool(_ data: Data, options: DecodeOptions) async throws(ImageError) -> LoadedImage {
        guard blocksThread(decoding: data) else { return try decode(data, options: options) }
        return try await onBlockingThread { () throws(ImageError) in try decode(data, options: options) }
    }

    /// ``decode(contentsOf:options:)`` off the cooperative pool when its decoder blocks.
    package func decodeOffCooperativePool(contentsOf url: URL, options: DecodeOptions) async throws(ImageError) -> LoadedImage {
        guard hasThreadBlockingDecoder, let prefix = try? FileHandle(forReadingFrom: url).read(upToCount: 64),
              blocksThread(decoding: prefix) else { return try decode(contentsOf: url, options: options) }
        return try await onBlockingThread { () throws(ImageError) in try decode(contentsOf: url, options: options) }
    }

    /// Whether the decoder `data` goes to blocks its thread.
    func blocksThread(decoding data: Data) -> Bool {
        hasThreadBlockingDecoder && decoder(for: format(of: data)) is any ThreadBlockingDecoding
    }

    /// Whether any decoder blocks its thread (none on Linux: every decode stays where it is).
    private var hasThreadBlockingDecoder: Bool {
        decoders.contains { $0 is any ThreadBlockingDecoding }
    }

    private func onBlockingThread(_ body: @escaping @Sendable () throws(ImageError) -> LoadedImage) async throws(ImageError) -> LoadedImage {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<LoadedImage, ImageError>, Never>) in
            blockingDecodeQueue.async {
                continuation.resume(returning: Result { () throws(ImageError) in try body() })
            }
        }
        return try result.get()
    }
}
