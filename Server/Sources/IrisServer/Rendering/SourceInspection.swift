import Foundation
import Iris
import IrisServerCore

/// What a fetched source turned out to be.
enum InspectedSource: Sendable {
    /// Served as it is (`raw`): its media type, read from its bytes, and the bytes.
    case asIs(SourceFormatName, Data)
    /// An image to render (a video's poster stands for the video), its header read once.
    case image(HeldImageData)
}

extension ImageRenderer {
    /// Checks a fetched source against the limits and the formats the service serves, makes a
    /// video's poster, and reads the header once (checked against the URL's limits).
    func inspect(_ fetched: FetchedSource, for request: ServeRequest) async throws(ServeError) -> InspectedSource {
        let options = request.options
        let maxBytes = RequestLimits.lower(configuration.maxSourceBytes, options.limits.sourceBytes)
        guard fetched.data.count <= maxBytes else { throw .tooLarge("the source is over the source size limit") }
        // Sniffed by every decoder's rule (a video container by its bytes, never by FFmpeg).
        let sniffed = ImageDecoderRegistry.standard.format(of: fetched.data)
        try refuseUnserved(sniffed)
        if options.raw, SVGSources.servedAsIs(sniffed) {
            // Served as it is: only its media type is read, from its bytes.
            guard let name = SourceFormatName(sniffed) else { throw .unprocessable("the source is not an image the service can read") }
            return .asIs(name, fetched.data)
        }
        var data = fetched.data
        if ImageFormat.videoFormats.contains(sniffed) { data = try await poster(of: fetched, for: request) }
        return .image(try readHeader(data, of: fetched, for: request))
    }

    /// Refuses the formats the service does not serve: video when turned off. (An SVG is
    /// rasterised, never passed through: ``SVGSources``.)
    private func refuseUnserved(_ format: ImageFormat) throws(ServeError) {
        if ImageFormat.videoFormats.contains(format) && !configuration.videoSources {
            throw ServeError(status: 415, "video sources are turned off on this service (--video, IRIS_VIDEO)")
        }
    }

    /// A video's poster, at the size the result needs, made out of process while holding a
    /// render slot (a decode like any other); from here on the source is that still.
    private func poster(of fetched: FetchedSource, for request: ServeRequest) async throws(ServeError) -> Data {
        var posters = videoPosters
        posters.maxPixels = RequestLimits.lower(posters.maxPixels, request.options.limits.sourcePixels)
        try await gate.enter(source: request.source.description, bytes: fetched.data.count)
        defer { gate.leave() }
        do throws(ServeError) {
            return try await posters.poster(of: fetched.data, target: RenderPlan(options: request.options, format: .png).decodeTarget)
        } catch {
            if error.status == 422 { forget(fetched) }
            throw error
        }
    }

    /// The header of `data`, read once, within the service's limits lowered by the URL's; a
    /// source that fails them is dropped from the disk cache.
    private func readHeader(_ data: Data, of fetched: FetchedSource, for request: ServeRequest) throws(ServeError) -> HeldImageData {
        let urlLimits = request.options.limits
        let held: HeldImageData
        do {
            held = try decoders.readHeader(of: data)
            var requestLimits = limits
            requestLimits.maxPixels = RequestLimits.lower(requestLimits.maxPixels, urlLimits.sourcePixels)
            requestLimits.maxFrames = RequestLimits.lower(requestLimits.maxFrames, urlLimits.animationFrames)
            try requestLimits.check(held.header)
        } catch {
            forget(fetched)
            throw ServeError(error)
        }
        let header = held.header
        if header.isAnimated, let framePixels = urlLimits.animationFramePixels, framePixels > 0,
            header.width * header.height > framePixels
        {
            throw .unprocessable("an animation frame is over the URL's frame resolution limit")
        }
        return held
    }
}
