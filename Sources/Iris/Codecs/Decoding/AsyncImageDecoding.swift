import Foundation

/// A decoder whose work ends asynchronously (AVFoundation's, which reads video only through
/// `async` calls): the pipeline awaits it, holding no thread meanwhile, through
/// ``ImageDecoderRegistry/decodeAwaiting(_:options:)``. Its synchronous ``ImageDecoding``
/// methods cannot honour the call without blocking a thread, so they throw an error that says
/// where such a file can be decoded.
protocol AsyncImageDecoding: ImageDecoding {
    /// Reads the header (the orientation may be left `.up`: it is asked of
    /// ``ImageDecoding/orientation(in:releasingInput:)``).
    func asyncHeader(of data: Data) async throws(ImageError) -> ImageHeader

    /// Decodes the still at exactly `context.outputSize`, as ``ImageDecoding/decode(_:context:)``
    /// (a video's poster with the time of its frame).
    func asyncDecode(_ data: Data, context: DecodeContext) async throws(ImageError) -> DecodedStill
}

extension ImageDecoderRegistry {
    /// Decodes `data` like ``decode(_:options:)`` (the same limits, target and orientation); a
    /// decoder whose work is asynchronous (``AsyncImageDecoding``) is awaited, header and
    /// decode together for at most ``DecodingLimits/maxDecodingTime``. What the pipeline's
    /// image stage calls. The format is sniffed once, whichever way the decode goes.
    func decodeAwaiting(_ data: Data, options: DecodeOptions) async throws(ImageError) -> LoadedImage {
        try await decodeAwaiting(data, options: options, releasingInput: nil)
    }

    /// ``decode(contentsOf:options:)``, awaiting a decoder whose work is asynchronous: the file
    /// is mapped once either way.
    func decodeAwaiting(contentsOf url: URL, options: DecodeOptions) async throws(ImageError) -> LoadedImage {
        guard hasAsyncDecoder else { return try decode(contentsOf: url, options: options) }
        let file = try MappedFile(url)
        return try await decodeAwaiting(file.data, options: options, releasingInput: { file.releasePages(before: $0) })
    }

    private func decodeAwaiting(
        _ data: Data, options: DecodeOptions,
        releasingInput: (@Sendable (Int) -> Void)?
    ) async throws(ImageError) -> LoadedImage {
        // Where no decoder is asynchronous (Linux), nothing is looked up here.
        guard hasAsyncDecoder else { return try decode(data, options: options, releasingInput: releasingInput) }
        let found = try decoderAndFormat(of: data).0
        guard let decoder = found as? any AsyncImageDecoding else {
            return try decode(data, options: options, releasingInput: releasingInput, found: found)
        }
        let decode = makeDecode(of: data, options: options, releasingInput: releasingInput)
        return try await Self.within(decode.options.limits.maxDecodingTime) { () async throws(ImageError) in
            var header = try await decoder.asyncHeader(of: data)
            header.orientation = decoder.orientation(in: data, releasingInput: releasingInput) ?? .up
            let context = try decode.stillContext(header: header, options: try decode.checked(header))
            let still = try await decoder.asyncDecode(data, context: context)
            return decode.finishStill(still.bitmap, posterSeconds: still.posterSeconds, context: context)
        }
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
