import Foundation

/// Decodes progressive previews for one decode stage: one preview decode at a time, in the
/// decode queue at the stage's priority; data offered while one runs is dropped (the next scan
/// brings more anyway).
final class PreviewDecoder: Sendable {
    private let isDecoding = LockedState(false)

    /// Decodes `data` (the download so far) as a preview unless one is already being decoded,
    /// and publishes it on `operation` unless the operation has ended by then.
    func offer(_ data: Data, for request: ImageRequest, to operation: SharedOperation<LoadedImage>, in pipeline: ImagePipeline) {
        let start = isDecoding.withLock { busy -> Bool in
            if busy { return false }
            busy = true
            return true
        }
        guard start else { return }
        let options = pipeline.decodeOptions(for: request, partial: true)
        let decoders = pipeline.configuration.decoders
        let job = pipeline.decodeQueue.enqueue(priority: operation.priority) { [isDecoding] in
            defer { isDecoding.withLock { $0 = false } }
            guard !Task.isCancelled, !operation.isEnded else { return }
            if let preview = try? decoders.decode(data, options: options) {
                operation.publishInterim(.preview(preview))
            }
        }
        operation.onCancel { job.cancel() }
    }
}
