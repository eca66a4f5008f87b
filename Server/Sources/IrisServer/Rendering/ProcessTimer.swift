import Iris
import Synchronization

/// Measures the processors' time inside a render, where the decoder registry runs them right
/// after the decode (``ImageDecoderRegistry/image(decoding:target:appliesOrientation:limits:processors:)``):
/// a mark before the first processor and one after the last.
final class ProcessTimer: Sendable {
    private let marks = Mutex<(start: ContinuousClock.Instant?, end: ContinuousClock.Instant?)>((nil, nil))

    /// The time between the marks, zero when either is missing.
    var elapsed: Duration {
        marks.withLock { marks in
            guard let start = marks.start, let end = marks.end else { return .zero }
            return start.duration(to: end)
        }
    }

    /// The processors to put around a request's own.
    func wrapping(_ processors: [any ImageProcessing]) -> [any ImageProcessing] {
        [Mark(timer: self, isStart: true)] + processors + [Mark(timer: self, isStart: false)]
    }

    fileprivate func mark(start: Bool) {
        let now = ContinuousClock.now
        marks.withLock { marks in
            if start { marks.start = marks.start ?? now } else { marks.end = now }
        }
    }

    private struct Mark: ImageProcessing {
        let timer: ProcessTimer
        let isStart: Bool
        var identifier: String { isStart ? "iris-server.timer.start" : "iris-server.timer.end" }
        func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
            timer.mark(start: isStart)
            return image
        }
    }
}
