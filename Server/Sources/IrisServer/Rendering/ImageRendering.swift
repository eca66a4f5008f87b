import Foundation
import Iris
import IrisServerCore

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
