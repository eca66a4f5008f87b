/// The frames of a lazy ``Animation``: a bounded window of composed frames, filled ahead of
/// the frame last asked for by one worker task at a time, off the caller's executor. A window
/// as long as the animation keeps every frame: each is composed once.
///
/// The window is the `capacity` frames from the last requested index on (wrapping past the
/// end, since animations loop). A request for a frame outside it makes the worker go there:
/// forward by composing the frames between, backward by rewinding to the nearest key frame.
/// A frame that fails to decode is remembered: asking for it, or for a later frame that can
/// only be reached through it, throws its error at once.
final class AnimationFrameBuffer: Sendable {
    let source: any AnimationFrameSource
    private let frameSize: PixelSize
    let kernel: ResamplingKernel
    /// Frames the window holds.
    let capacity: Int
    private let state: LockedState<State>

    init(source: any AnimationFrameSource, frameSize: PixelSize, kernel: ResamplingKernel, capacity: Int, first: Bitmap?) {
        self.source = source
        self.frameSize = frameSize
        self.kernel = kernel
        self.capacity = max(1, min(capacity, source.frameCount))
        var initial = State()
        if let first { initial.frames[0] = first }
        state = LockedState(initial)
    }

    /// Most bytes the buffer can hold: a full window of frames, a decoder's working state, the
    /// encoded data.
    var costLimit: Int {
        capacity * Self.frameBytes(frameSize) + source.maximumWorkingBytes + source.encodedByteCount
    }

    /// Most bytes one composed frame of `size` takes: 4 a pixel, rows padded to
    /// ``Bitmap/displayRowAlignment`` (frames made for Core Animation are).
    static func frameBytes(_ size: PixelSize) -> Int {
        let row = size.width * 4
        let alignment = Bitmap.displayRowAlignment
        return (row + alignment - 1) / alignment * alignment * size.height
    }

    /// Bytes held: buffered frames, the decoder's canvas, the encoded data.
    var cost: Int {
        state.withLock { s in s.frames.values.reduce(s.workingBytes) { $0 + $1.cost } } + source.encodedByteCount
    }

    /// Whether the worker is composing frames (ahead, or for a waiter); once it is not, the
    /// buffer holds what it will hold until the next request.
    var isWorking: Bool { state.withLock { $0.isWorking } }

    /// Frame `index`, from the buffer or decoded for this call.
    func frame(at index: Int) async throws(ImageError) -> Bitmap {
        let ready: Result<Bitmap, ImageError>? = state.withLock { s in
            moveWindow(&s, to: index)
            return available(s, index)
        }
        if let ready {
            startWorkerIfNeeded()
            return try ready.get()
        }
        let id = state.withLock { s in
            s.nextWaiterID += 1
            return s.nextWaiterID
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Bitmap, ImageError>, Never>) in
                let immediate: Result<Bitmap, ImageError>? = state.withLock { s in
                    if Task.isCancelled { return .failure(.cancelled) }
                    if let ready = available(s, index) { return ready }
                    s.waiters.append(Waiter(id: id, index: index, continuation: continuation))
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                } else {
                    startWorkerIfNeeded()
                }
            }
        } onCancel: {
            let waiter = state.withLock { s in
                s.waiters.firstIndex { $0.id == id }.map { s.waiters.remove(at: $0) }
            }
            waiter?.continuation.resume(returning: .failure(.cancelled))
        }
        // The worker made the frame, then took this lock to hand it over, then resumed the
        // continuation. ThreadSanitizer does not always see the resumption as ordering the two
        // threads (a report of the frame's pixels, seen once under load): taking the lock here
        // makes the order it already has visible to it.
        state.withLock { _ in }
        return try result.get()
    }

    // MARK: - State

    private struct Waiter {
        let id: Int
        let index: Int
        let continuation: CheckedContinuation<Result<Bitmap, ImageError>, Never>
    }

    /// The decoder, handed from the state to the worker and back; only the worker that took it
    /// out of the state uses it.
    private final class DecoderBox: @unchecked Sendable {
        let decoder: any AnimationFrameDecoder
        init(_ decoder: any AnimationFrameDecoder) { self.decoder = decoder }
    }

    private struct State {
        var frames: [Int: Bitmap] = [:]
        var failures: [Int: ImageError] = [:]
        /// The idle decoder; `nil` before the first one is made, after a failure, and while
        /// the worker has it.
        var decoder: DecoderBox?
        var workingBytes = 0
        var isWorking = false
        /// The frame last asked for: where the window starts.
        var cursor = 0
        var waiters: [Waiter] = []
        var nextWaiterID = 0
    }

    private func available(_ s: State, _ index: Int) -> Result<Bitmap, ImageError>? {
        if let frame = s.frames[index] { return .success(frame) }
        if let error = failure(s, reaching: index) { return .failure(error) }
        return nil
    }

    /// The error of a failed frame that composing `index` would have to pass through.
    private func failure(_ s: State, reaching index: Int) -> ImageError? {
        failure(s.failures, reaching: index)
    }

    private func failure(_ failures: [Int: ImageError], reaching index: Int) -> ImageError? {
        guard !failures.isEmpty else { return nil }
        let key = source.keyFrame(atOrBefore: index)
        return failures.first { (key...index).contains($0.key) }?.value
    }

    private func inWindow(_ index: Int, cursor: Int) -> Bool {
        let count = source.frameCount
        return ((index - cursor) % count + count) % count < capacity
    }

    private func moveWindow(_ s: inout State, to index: Int) {
        guard s.cursor != index else { return }
        s.cursor = index
        s.frames = s.frames.filter { inWindow($0.key, cursor: index) }
    }

    /// The frame to make next: the one waited for longest, or the first missing one in the
    /// window.
    private func goal(_ s: State) -> Int? {
        if let waiter = s.waiters.first { return waiter.index }
        for offset in 0..<capacity {
            let index = (s.cursor + offset) % source.frameCount
            if s.frames[index] == nil, failure(s, reaching: index) == nil { return index }
        }
        return nil
    }

    // MARK: - Worker

    private func startWorkerIfNeeded() {
        let start = state.withLock { s in
            guard !s.isWorking, goal(s) != nil else { return false }
            s.isWorking = true
            return true
        }
        if start {
            Task.detached(priority: Task.currentPriority) { [self] in work() }
        }
    }

    /// Makes one frame at a time towards the current goal until nothing is missing.
    private func work() {
        var next = state.withLock { s in takeJob(&s) }
        while let (goal, box) = next {
            var box = box
            var index = 0
            let result: Result<Bitmap, ImageError>
            do throws(ImageError) {
                let key = source.keyFrame(atOrBefore: goal)
                let decoder: any AnimationFrameDecoder
                if let existing = box?.decoder {
                    decoder = existing
                } else {
                    index = key
                    decoder = try source.makeDecoder(frameSize: frameSize, kernel: kernel)
                    box = DecoderBox(decoder)
                }
                // Behind the goal's key frame (or past the goal): start at the key frame rather
                // than compose frames the goal does not depend on.
                if decoder.nextIndex > goal || decoder.nextIndex < key { decoder.rewind(toKeyFrameAtOrBefore: goal) }
                index = decoder.nextIndex
                result = .success(try decoder.nextFrame())
            } catch {
                // `index` is the frame that failed (or, when no decoder could be made, the goal's
                // key frame): read before the call, since a decoder may have moved on when it
                // throws (a processed frame fails after its base frame was made).
                result = .failure(error)
                box = nil
            }
            let (resumed, job) = state.withLock { s in
                finish(&s, index: index, result: result, decoder: box)
            }
            for (waiter, outcome) in resumed { waiter.continuation.resume(returning: outcome) }
            next = job
        }
    }

    /// The next goal and the decoder (taken out of the state), or `nil` with the worker marked
    /// idle.
    private func takeJob(_ s: inout State) -> (Int, DecoderBox?)? {
        guard let goal = goal(s) else {
            s.isWorking = false
            return nil
        }
        let box = s.decoder
        s.decoder = nil
        return (goal, box)
    }

    private func finish(
        _ s: inout State, index: Int, result: Result<Bitmap, ImageError>,
        decoder: DecoderBox?
    ) -> ([(Waiter, Result<Bitmap, ImageError>)], (Int, DecoderBox?)?) {
        s.decoder = decoder
        s.workingBytes = decoder?.decoder.workingBytes ?? 0
        switch result {
        case .success(let frame):
            if inWindow(index, cursor: s.cursor) { s.frames[index] = frame }
        case .failure(let error):
            s.failures[index] = error
        }
        if s.frames.count == source.frameCount {
            // Every frame is kept (a window as long as the animation): the decoder's canvas is
            // never needed again.
            s.decoder = nil
            s.workingBytes = 0
        }
        // Waiters for this frame, and for frames now known to be unreachable.
        var resumed: [(Waiter, Result<Bitmap, ImageError>)] = []
        let failures = s.failures
        s.waiters.removeAll { waiter in
            if waiter.index == index {
                resumed.append((waiter, result))
                return true
            }
            if let error = failure(failures, reaching: waiter.index) {
                resumed.append((waiter, .failure(error)))
                return true
            }
            return false
        }
        let job = takeJob(&s)
        return (resumed, job)
    }
}
