import Foundation
import Iris
import IrisServerCore
import Synchronization

extension ImageRenderer {
    /// Decodes at the target size, processes and encodes a prepared request in a render slot;
    /// a request whose result is being rendered already (the same ETag: the same options, format
    /// and source bytes) joins that render (``RenderFlights``) and takes no slot of its own.
    package func render(_ prepared: PreparedRender) async throws(ServeError) -> RenderedImage {
        var image = try await renders.render(
            prepared.etag, inSlotOf: gate, source: prepared.request.source.description, bytes: prepared.data.count
        ) { () async throws(ServeError) in try await self.renderAlone(prepared) }
        image.request = prepared.request
        return image
    }

    /// The render itself, in its flight's task: the bytes in hand decoded at the target size
    /// with the header read while planning (not sniffed or parsed again), processed, encoded.
    private func renderAlone(_ prepared: PreparedRender) async throws(ServeError) -> RenderedImage {
        let clock = ContinuousClock()
        let options = prepared.request.options
        let plan = RenderPlan(options: options, format: prepared.format, isAnimated: prepared.isAnimated, watermark: watermark)
        let timer = ProcessTimer()
        var timings = prepared.timings
        let started = clock.now
        // The header was read while planning (every render is planned; only the source served
        // as it is, and a 304, come without one).
        guard let held = prepared.held else { throw ServeError(status: 500, "the render was not planned") }
        let image: LoadedImage
        do throws(ImageError) {
            image = try await decoders.image(
                decoding: held, target: plan.decodeTarget, appliesOrientation: !plan.skipsOrientation, limits: limits,
                processors: timer.wrapping(plan.processors))
        } catch {
            throw ServeError(error)
        }
        timings.process = timer.elapsed
        timings.decode = started.duration(to: clock.now) - timings.process
        let encodeStarted = clock.now
        let quality = RenderPlan.quality(for: prepared.format, options: options, fallback: configuration.defaultQuality)
        let encoded = try await encode(image, format: prepared.format, quality: quality, maxBytes: options.maxBytes)
        timings.encode = encodeStarted.duration(to: clock.now)
        return RenderedImage(
            request: prepared.request, data: encoded, format: prepared.format, negotiated: prepared.negotiated, etag: prepared.etag,
            timings: timings)
    }

    /// The image in `format`; formats with a quality (JPEG, WebP, AVIF) step it down until
    /// `maxBytes` fit (PNG and GIF have none).
    func encode(_ image: LoadedImage, format: OutputFormat, quality: Int, maxBytes: Int) async throws(ServeError) -> Data {
        var quality = quality
        while true {
            let data = try await encodeOnce(image, format: format, quality: quality)
            let lossy = format != .png && format != .gif
            if maxBytes <= 0 || data.count <= maxBytes || !lossy || quality <= 10 { return data }
            // A request cut off by its timeout stops between attempts.
            if Task.isCancelled { throw ServeError(status: 503, "the request was cancelled") }
            quality = max(10, quality - 10)
        }
    }

    private func encodeOnce(_ image: LoadedImage, format: OutputFormat, quality: Int) async throws(ServeError) -> Data {
        let options = EncodeOptions(quality: quality)
        do {
            if let animation = image.animation, animation.frameCount > 1, image.video == nil,
                let encoder = ImageEncoders.animationEncoder(for: format.imageFormat)
            {
                return try await encoder.encode(animation, options: options)
            }
            guard let encoder = ImageEncoders.encoder(for: format.imageFormat) else {
                throw ServeError.badRequest("\(format.rawValue) output is not supported")
            }
            var bitmap = image.bitmap
            if format == .jpeg, bitmap.format.hasAlpha { bitmap = bitmap.flattened(over: RGBA(r: 255, g: 255, b: 255)) }
            // A grey picture stays grey in PNG (a third of the bytes to compress), as imgproxy keeps it.
            if format == .png, bitmap.format != .gray8, bitmap.isOpaqueGrey { bitmap = bitmap.converted(to: .gray8) }
            return try encoder.encode(bitmap, options: options)
        } catch let error as ServeError {
            throw error
        } catch let error as ImageError {
            throw ServeError(error)
        } catch {
            throw ServeError(status: 500, "the result could not be encoded")
        }
    }
}

/// Renders in flight by the strong validator of their result (``PreparedRender/etag``: the
/// service's version, the options, the format and the source's bytes): a request whose result is
/// being rendered joins that render instead of decoding and encoding the same again, as a
/// request whose source is being fetched joins that fetch. Without a result cache (or before
/// it has the result) a burst of one URL is rendered once per render in flight, not once per
/// request.
///
/// The render runs in a task of its own, which the requests await; it is cancelled only when
/// every request waiting for it has been cancelled (a request cut off by its timeout leaves
/// the others their result).
final class RenderFlights<Value: Sendable>: Sendable {
    private struct Flight {
        let id: Int
        let task: Task<Result<Value, ServeError>, Never>
        var waiting: Int
    }

    private struct State {
        var flights: [String: Flight] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// The result `render` makes for `key`, by the render in flight for `key` if there is one.
    func render(
        _ key: String, _ render: @escaping @Sendable () async throws(ServeError) -> Value
    ) async throws(ServeError) -> Value {
        let (id, task) = state.withLock { state in
            if var flight = state.flights[key] {
                flight.waiting += 1
                state.flights[key] = flight
                return (flight.id, flight.task)
            }
            let id = state.nextID
            state.nextID += 1
            let task = Task { () async -> Result<Value, ServeError> in
                defer { self.end(key, id: id) }
                do throws(ServeError) {
                    return .success(try await render())
                } catch {
                    return .failure(error)
                }
            }
            state.flights[key] = Flight(id: id, task: task, waiting: 1)
            return (id, task)
        }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            leave(key, id: id)
        }
        return try result.get()
    }

    /// The result `render` makes for `key` in a render slot of `gate` (the source's `bytes`
    /// counted while it waits for one), or that of the render of `key` in flight: a request that
    /// joins a render waits without a slot of its own.
    func render(
        _ key: String, inSlotOf gate: AdmissionGate, source: String, bytes: Int,
        _ render: @escaping @Sendable () async throws(ServeError) -> Value
    ) async throws(ServeError) -> Value {
        try await self.render(key) { () async throws(ServeError) in
            try await gate.inRenderSlot(source: source, bytes: bytes) { () async throws(ServeError) in try await render() }
        }
    }

    /// Renders in flight.
    var count: Int { state.withLock { $0.flights.count } }

    /// The requests waiting for the render of `key` (0 when none is in flight).
    func waiting(for key: String) -> Int { state.withLock { $0.flights[key]?.waiting ?? 0 } }

    /// A cancelled request stops waiting; the last one cancels the render.
    private func leave(_ key: String, id: Int) {
        let orphaned: Task<Result<Value, ServeError>, Never>? = state.withLock { state in
            guard var flight = state.flights[key], flight.id == id else { return nil }
            flight.waiting -= 1
            guard flight.waiting == 0 else {
                state.flights[key] = flight
                return nil
            }
            state.flights[key] = nil
            return flight.task
        }
        // Outside the lock: cancelling runs the task's cancellation handlers synchronously.
        orphaned?.cancel()
    }

    /// The render of flight `id` has ended: a later request renders anew.
    private func end(_ key: String, id: Int) {
        state.withLock { state in
            if state.flights[key]?.id == id { state.flights[key] = nil }
        }
    }
}
