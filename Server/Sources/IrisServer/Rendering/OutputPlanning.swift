import Foundation
import Iris
import IrisServerCore

extension ImageRenderer {
    /// What a render knows before decoding: the source as it is when `skip_processing` says so,
    /// else the result's size (checked), the output format (named or negotiated) and the ETag.
    func plan(
        _ request: ServeRequest, source held: HeldImageData, accept: String?, timings: RenderTimings
    ) throws(ServeError) -> PreparedRender {
        let options = request.options
        let header = held.header
        // imgproxy skips only when the output format is the source's, or left open.
        if let name = SourceFormatName(header.format), options.skipProcessing.contains(name.name), SVGSources.servedAsIs(header.format),
            options.format.map({ SourceFormatName($0.rawValue) == name }) ?? true
        {
            return PreparedRender(passingThrough: request, data: held.data, source: name, timings: timings)
        }
        // A video is served as its poster (a still), as imgproxy's video thumbnails are.
        let isAnimated = header.isAnimated && !header.isVideo
        var sourceSize = options.autoRotate ? header.orientedSize : header.storedSize
        if options.rotate == 90 || options.rotate == 270 { sourceSize = sourceSize.transposed }
        let result = Geometry(source: sourceSize, options: options).resultSize
        guard result.pixelCount <= configuration.maxResultPixels else {
            throw .tooLarge("the result would be \(result.width)×\(result.height), over the result size limit")
        }
        let (format, negotiated) = try outputFormat(for: request, header: header, isAnimated: isAnimated, accept: accept)
        return PreparedRender(
            request: request, data: held.data, format: format, negotiated: negotiated,
            isAnimated: isAnimated, etag: ETag.of(request, format: format.rawValue, data: held.data), timings: timings,
            held: held)
    }

    /// The format the URL names (when this service writes it), or the one `accept` leads to
    /// for this source; whether it was negotiated (`Vary: Accept`).
    private func outputFormat(
        for request: ServeRequest, header: ImageHeader, isAnimated: Bool, accept: String?
    ) throws(ServeError) -> (OutputFormat, negotiated: Bool) {
        if let requested = request.requestedFormat {
            guard negotiation.available.contains(requested) else {
                throw .badRequest("\(requested.rawValue) output is not supported")
            }
            return (requested, false)
        }
        let options = request.options
        let alpha =
            options.background == nil
            && (header.hasAlpha || options.extend || options.extendAspectRatio || !options.padding.isEmpty)
        let format = negotiation.choose(
            accept: accept, hasAlpha: alpha, isAnimated: isAnimated,
            source: OutputFormat(extension: header.format.rawValue))
        return (format, true)
    }
}
