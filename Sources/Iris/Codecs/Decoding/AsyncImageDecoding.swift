import Foundation

/// A decoder whose work ends asynchronously (AVFoundation's, which reads video only through
/// `async` calls): the pipeline awaits it, holding no thread meanwhile, through
/// ``ImageDecoderRegistry/decodeAwaiting(_:options:)``. Its synchronous ``ImageDecoding``
/// methods cannot honour the call without blocking a thread, so they throw an error that says
/// where such a file can be decoded.
package protocol AsyncImageDecoding: ImageDecoding {
    /// Reads the header (the orientation may be left `.up`; the registry fills it in).
    func asyncHeader(of data: Data) async throws(ImageError) -> ImageHeader

    /// Decodes the still at exactly `context.outputSize`, as ``ImageDecoding/decode(_:context:)``.
    func asyncDecode(_ data: Data, context: DecodeContext) async throws(ImageError) -> Bitmap
}

extension ImageDecoderRegistry {
    /// Decodes `data` like ``decode(_:options:)`` (the same limits, target and orientation); a
    /// decoder whose work is asynchronous (``AsyncImageDecoding``) is awaited, for at most
    /// ``DecodingLimits/maxDecodingTime``. What the pipeline's decode stage calls.
    package func decodeAwaiting(_ data: Data, options: DecodeOptions) async throws(ImageError) -> LoadedImage {
        guard let decoder = asyncDecoder(for: data) else { return try decode(data, options: options) }
        let options = effective(options)
        let limit = options.limits.maxDecodingTime
        var header = try await Self.within(limit) { () async throws(ImageError) in try await decoder.asyncHeader(of: data) }
        header.orientation = EXIFReader.orientation(in: data, format: header.format) ?? .up
        try options.limits.check(header)
        let context = try stillContext(header: header, options: options)
        let bitmap = try await Self.within(limit) { () async throws(ImageError) in try await decoder.asyncDecode(data, context: context) }
        return finishStill(bitmap, data: data, context: context)
    }

    /// ``decode(contentsOf:options:)``, awaiting a decoder whose work is asynchronous.
    package func decodeAwaiting(contentsOf url: URL, options: DecodeOptions) async throws(ImageError) -> LoadedImage {
        guard decoders.contains(where: { $0 is any AsyncImageDecoding }) else { return try decode(contentsOf: url, options: options) }
        let file = try MappedFile(url)
        guard asyncDecoder(for: file.data) != nil else { return try decode(contentsOf: url, options: options) }
        return try await decodeAwaiting(file.data, options: options)
    }

    /// The decoder of `data` when its work is asynchronous.
    private func asyncDecoder(for data: Data) -> (any AsyncImageDecoding)? {
        guard decoders.contains(where: { $0 is any AsyncImageDecoding }),
              let (decoder, _) = try? decoderAndFormat(of: data) else { return nil }
        return decoder as? any AsyncImageDecoding
    }

    /// The result of `operation`, or ``ImageError/overLimit(_:)`` (``LimitViolation/decodingTime(limit:)``)
    /// once `limit` (if any) has passed on `clock`; the operation is then cancelled and not waited for (a
    /// system call that ignores cancellation cannot hold the decode). Cancelling the caller
    /// cancels the operation and ends with ``ImageError/cancelled`` at once.
    static func within<T: Sendable, C: Clock>(
        _ limit: Duration?, on clock: C = ContinuousClock(),
        _ operation: @escaping @Sendable () async throws(ImageError) -> T
    ) async throws(ImageError) -> T where C.Duration == Duration {
        let outcome = FirstOutcome<T>()
        let work = Task {
            do throws(ImageError) {
                outcome.settle(.success(try await operation()))
            } catch {
                outcome.settle(.failure(error))
            }
        }
        let timer = limit.map { limit in
            Task {
                try? await clock.sleep(for: limit)
                if !Task.isCancelled { outcome.settle(.failure(.overLimit(.decodingTime(limit: limit)))) }
            }
        }
        let result = await withTaskCancellationHandler {
            await outcome.value()
        } onCancel: {
            work.cancel()
            outcome.settle(.failure(.cancelled))
        }
        work.cancel()
        timer?.cancel()
        return try result.get()
    }
}

/// The first of several outcomes racing to settle one result; later ones are ignored.
private final class FirstOutcome<T: Sendable>: Sendable {
    private struct State {
        var result: Result<T, ImageError>?
        var isSettled: Bool { result != nil }
        var waiter: CheckedContinuation<Result<T, ImageError>, Never>?
    }

    private let state = LockedState(State())

    /// Settles the result unless one was settled first.
    func settle(_ result: Result<T, ImageError>) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<T, ImageError>, Never>? in
            guard !state.isSettled else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    /// Waits for the result.
    func value() async -> Result<T, ImageError> {
        await withCheckedContinuation { continuation in
            let settled = state.withLock { state -> Result<T, ImageError>? in
                if state.result == nil { state.waiter = continuation }
                return state.result
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }
}
