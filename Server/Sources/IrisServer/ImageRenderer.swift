import Crypto
import Foundation
import Iris
import IrisServerCore
import Logging

/// What the service answers one image request with.
public enum ServeResult: Sendable {
    /// The rendered image.
    case image(RenderedImage)
    /// The client's copy is current (`If-None-Match` matched): a 304 with these headers.
    case notModified(PreparedRender)
    /// A refusal or a failure.
    case failure(ServeError)
}

/// Renders imgproxy URLs on an ``ImagePipeline``: parse and check the URL, admit the request
/// into the bounded work queue, fetch the source through the pipeline's loader and disk cache
/// (one download for every request of a source in flight), read its header (limits, format,
/// ETag, 304), decode at the target size, process and encode, within the processing timeout.
public final class ImageRenderer: Sendable {
    /// The configuration.
    public let configuration: ServerConfiguration
    /// The pipeline every render goes through.
    public let pipeline: ImagePipeline
    /// The bounded work queue.
    public let gate: AdmissionGate
    /// The service's metrics.
    public let metrics: ServerMetrics
    /// Encoded results on disk, when configured.
    public let resultCache: ResultCache?
    let sources = SourceTracker()
    /// The configured watermark, decoded once.
    let watermark: Watermark?
    /// Makes video posters in a child process.
    let videoPosters: VideoPosterProcess
    private let urls: ImgproxyURL
    private let negotiation: FormatNegotiation

    /// Makes a renderer: a pipeline over a ``SourceLoader`` and a disk cache of sources in
    /// ``ServerConfiguration/cacheDirectory``, without a memory cache of decoded images.
    public init(configuration: ServerConfiguration, resolver: any AddressResolving = SystemAddressResolver()) throws {
        try configuration.validate()
        self.configuration = configuration
        watermark = try Self.loadWatermark(configuration)
        let cache = try DataCache(directory: configuration.cacheDirectory, sizeLimit: configuration.cacheSizeLimit)
        let sources = sources
        let loader = SourceLoader(
            policy: configuration.sourcePolicy, resolver: resolver,
            timeout: configuration.downloadTimeout, maxRedirects: configuration.maxRedirects,
            onDownload: { sources.didDownload($0.absoluteString) })
        metrics = ServerMetrics()
        if let directory = configuration.resultCacheDirectory, configuration.resultCacheSizeLimit > 0 {
            resultCache = try ResultCache(
                directory: directory, sizeLimit: configuration.resultCacheSizeLimit,
                maxAge: configuration.resultCacheMaxAge)
        } else {
            resultCache = nil
        }
        let limits = DecodingLimits(maxPixels: configuration.maxSourcePixels, maxFrames: configuration.maxAnimationFrames)
        // FFmpeg never runs in the service: video posters are made by a child process.
        var decoders = ImageDecoderRegistry.standard
        decoders.decoders.removeAll { !$0.formats.isDisjoint(with: ImageFormat.videoFormats) }
        videoPosters = VideoPosterProcess(
            executable: configuration.videoPosterExecutable.map { URL(fileURLWithPath: $0) } ?? VideoPosterProcess.besideThisExecutable,
            cpuSeconds: max(1, Int(configuration.processingTimeout.components.seconds)),
            maxPixels: configuration.maxSourcePixels, maxBytes: configuration.maxSourceBytes)
        pipeline = ImagePipeline(
            configuration: ImagePipeline.Configuration(
                dataLoader: loader, dataCache: cache, memoryCache: nil, decoders: decoders, limits: limits, maxConcurrentDownloads: 16,
                resumableData: nil, maxDataBytes: configuration.maxSourceBytes))
        gate = AdmissionGate(
            maxRunning: configuration.maxConcurrentRenders, maxWaiting: configuration.maxQueuedRenders,
            maxWaitingBytes: configuration.maxWaitingSourceBytes, queueTimeout: configuration.queueTimeout)
        let logger = Logger(label: "iris-server")
        var urls = configuration.urlReader
        urls.options.warn = { logger.warning("\($0)") }
        self.urls = urls
        var available: Set<OutputFormat> = []
        for format in OutputFormat.allCases where ImageEncoders.encoder(for: format.imageFormat) != nil { available.insert(format) }
        negotiation = FormatNegotiation(available: available)
    }

    /// The whole answer to a request for `path` (as received, without the query). `accept`
    /// negotiates the format when the URL names none; `ifNoneMatch` may answer 304; `hints`
    /// (`Sec-CH-DPR`/`DPR`, `Sec-CH-Width`/`Width`), when client hints are on, are the dpr and
    /// width of URLs that set none.
    public func serve(
        path: String, accept: String?, ifNoneMatch: String?, hints: ClientHints = ClientHints(),
        now: Date = Date()
    ) async -> ServeResult {
        let result = await answer(path: path, accept: accept, ifNoneMatch: ifNoneMatch, hints: hints, now: now)
        switch result {
        case .image(let image):
            metrics.request(status: 200, format: image.format)
            if image.timings.resultCacheHit != true { metrics.stages(image.timings) }
        case .notModified(let prepared):
            metrics.request(status: 304, format: prepared.format)
        case .failure(let error):
            metrics.request(status: error.status, format: nil)
            metrics.refusal(error)
        }
        return result
    }

    private func answer(path: String, accept: String?, ifNoneMatch: String?, hints: ClientHints, now: Date) async -> ServeResult {
        let request: ServeRequest
        do throws(ServeError) {
            request = try urls.parse(path, now: now, defaults: configuration.clientHints ? hints.defaults : ProcessingOptions())
        } catch {
            return .failure(error)
        }
        let serveRequest = request
        let clock = ContinuousClock()
        let lookupStarted = clock.now
        let cacheKey = resultCache.map { _ in
            ResultCache.key(
                signedPath: request.signedPath, formats: formatsKey(request, accept: accept), dpr: request.options.dpr,
                width: request.options.width)
        }
        if let resultCache, let cacheKey {
            if let entry = await resultCache.entry(for: cacheKey, now: now) {
                metrics.resultCache(hit: true)
                var timings = RenderTimings()
                timings.resultCacheHit = true
                timings.resultCacheLookup = lookupStarted.duration(to: clock.now)
                if let ifNoneMatch, Self.matches(ifNoneMatch, etag: entry.etag) {
                    return .notModified(
                        PreparedRender(
                            request: request, data: Data(), format: entry.format, negotiated: entry.negotiated,
                            isAnimated: false, etag: entry.etag, timings: timings))
                }
                return .image(
                    RenderedImage(
                        request: request, data: entry.data, format: entry.format, negotiated: entry.negotiated,
                        etag: entry.etag, timings: timings))
            }
            metrics.resultCache(hit: false)
        }
        let lookup = lookupStarted.duration(to: clock.now)
        do {
            // Admitted at once or refused (429). The admission is held until the work ends, even
            // past a timeout that answered already; a render slot only while rendering, so a
            // request waiting on a slow source keeps no core from the others, and an encode that
            // cannot stop still has its core.
            try gate.admit()
            return try await withTimeout(configuration.processingTimeout, whenWorkEnds: { self.gate.dismiss() }) {
                let prepared = try await self.prepare(serveRequest, accept: accept)
                if let ifNoneMatch, Self.matches(ifNoneMatch, etag: prepared.etag) { return .notModified(prepared) }
                if let passthrough = prepared.passthrough {
                    // skip_processing, raw: the source's bytes as they are, no render slot.
                    return .image(
                        RenderedImage(
                            request: prepared.request, data: prepared.data, format: prepared.format,
                            negotiated: false, etag: prepared.etag, timings: prepared.timings,
                            passthrough: passthrough))
                }
                try await self.gate.enter(source: serveRequest.source.description, bytes: prepared.data.count)
                defer { self.gate.leave() }
                // Cut off by the timeout while it waited: the slot goes straight back.
                if Task.isCancelled { throw ServeError(status: 503, "the request was cancelled") }
                var image = try await self.render(prepared)
                if let resultCache = self.resultCache, let cacheKey {
                    image.timings.resultCacheHit = false
                    image.timings.resultCacheLookup = lookup
                    resultCache.store(
                        ResultCache.Entry(
                            data: image.data, format: image.format, negotiated: image.negotiated,
                            etag: image.etag, created: Int(now.timeIntervalSince1970)), for: cacheKey)
                }
                return .image(image)
            }
        } catch let error as ServeError {
            return .failure(error)
        } catch {
            return .failure(ServeError(status: 500, "the image could not be made"))
        }
    }

    /// Fetches the source and decides everything that does not need its pixels: limits from
    /// the header, the output format, the ETag.
    public func prepare(_ request: ServeRequest, accept: String?) async throws(ServeError) -> PreparedRender {
        let clock = ContinuousClock()
        let started = clock.now
        let source = try imageSource(for: request.source)
        let fetchRequest = ImageRequest(source: source)
        var data: Data
        var remote: String?
        if case .remote(let url) = request.source { remote = url.absoluteString }
        let role = remote.map { sources.begin($0) }
        do {
            data = try await pipeline.data(for: fetchRequest)
            if let remote, let role {
                let downloaded = sources.end(remote)
                metrics.source(role == .joined ? .coalesced : downloaded ? .miss : .hit, bytes: data.count)
            }
        } catch {
            if let remote { _ = sources.end(remote) }
            throw ServeError(error)
        }
        var timings = RenderTimings()
        timings.fetch = started.duration(to: clock.now)
        let options = request.options
        let limits = options.limits
        let maxBytes = RequestLimits.lower(configuration.maxSourceBytes, limits.sourceBytes)
        guard data.count <= maxBytes else { throw .tooLarge("the source is over the source size limit") }
        // Sniffed by every decoder's rule (a video container by its bytes, never by FFmpeg).
        let sniffed = ImageDecoderRegistry.standard.format(of: data)
        if ImageFormat.videoFormats.contains(sniffed) && !configuration.videoSources {
            throw ServeError(status: 415, "video sources are turned off on this service (--video, IRIS_VIDEO)")
        }
        if options.raw, SVGSources.servedAsIs(sniffed) {
            // Served as it is: only its media type is read, from its bytes.
            guard let name = SourceFormatName(sniffed) else { throw .unprocessable("the source is not an image the service can read") }
            return passthrough(request, data: data, source: name, timings: timings)
        }
        if ImageFormat.videoFormats.contains(sniffed) {
            // The poster, at the size the result needs, made out of process while holding a
            // render slot (a decode like any other); from here on the source is that still.
            var posters = videoPosters
            posters.maxPixels = RequestLimits.lower(posters.maxPixels, limits.sourcePixels)
            try await gate.enter(source: request.source.description, bytes: data.count)
            defer { gate.leave() }
            do throws(ServeError) {
                data = try await posters.poster(of: data, target: RenderPlan(options: options, format: .png).decodeTarget)
            } catch {
                if error.status == 422 { forget(fetchRequest) }
                throw error
            }
        }
        let header: ImageHeader
        do {
            header = try pipeline.configuration.decoders.header(of: data)
            var requestLimits = pipeline.configuration.limits
            requestLimits.maxPixels = RequestLimits.lower(requestLimits.maxPixels, limits.sourcePixels)
            requestLimits.maxFrames = RequestLimits.lower(requestLimits.maxFrames, limits.animationFrames)
            try requestLimits.check(header)
        } catch {
            forget(fetchRequest)
            throw ServeError(error)
        }
        if header.isAnimated, let framePixels = limits.animationFramePixels, framePixels > 0,
            header.width * header.height > framePixels
        {
            throw .tooLarge("an animation frame is over the URL's frame resolution limit")
        }
        // imgproxy skips only when the output format is the source's, or left open.
        if let name = SourceFormatName(header.format), options.skipProcessing.contains(name.name), SVGSources.servedAsIs(header.format),
            options.format.map({ SourceFormatName($0.rawValue) == name }) ?? true
        {
            return passthrough(request, data: data, source: name, timings: timings)
        }
        // A video is served as its poster (a still), as imgproxy's video thumbnails are.
        let isAnimated = header.isAnimated && !ImageFormat.videoFormats.contains(header.format)
        var sourceSize = options.autoRotate ? header.orientedSize : header.storedSize
        if options.rotate == 90 || options.rotate == 270 { sourceSize = sourceSize.transposed }
        let result = Geometry(source: sourceSize, options: options).resultSize
        guard result.pixelCount <= configuration.maxResultPixels else {
            throw .tooLarge("the result would be \(result.width)×\(result.height), over the result size limit")
        }
        let format: OutputFormat
        let negotiated: Bool
        if let requested = request.requestedFormat {
            guard negotiation.available.contains(requested) else {
                throw .badRequest("\(requested.rawValue) output is not supported")
            }
            format = requested
            negotiated = false
        } else {
            let alpha =
                options.background == nil
                && (header.hasAlpha || options.extend || options.extendAspectRatio || !options.padding.isEmpty)
            format = negotiation.choose(
                accept: accept, hasAlpha: alpha, isAnimated: isAnimated,
                source: OutputFormat(extension: header.format.rawValue))
            negotiated = true
        }
        return PreparedRender(
            request: request, data: data, format: format, negotiated: negotiated,
            isAnimated: isAnimated, etag: Self.etag(request, format: format.rawValue, data: data), timings: timings)
    }

    /// A source served as it is (`raw`, `skip_processing`).
    private func passthrough(_ request: ServeRequest, data: Data, source: SourceFormatName, timings: RenderTimings) -> PreparedRender {
        var prepared = PreparedRender(
            request: request, data: data, format: OutputFormat(extension: source.name) ?? .jpeg,
            negotiated: false, isAnimated: false,
            etag: Self.etag(request, format: "as-is " + source.name, data: data), timings: timings)
        prepared.passthrough = source
        return prepared
    }

    /// The strong validator of a result: the service's version, the format, the path, the
    /// hints that shaped it, and the source's bytes.
    static func etag(_ request: ServeRequest, format: String, data: Data) -> String {
        let options = request.options
        var hash = SHA256()
        hash.update(data: Array("iris-server \(IrisServerInfo.version)\n\(format)\n\(request.signedPath)\ndpr \(options.dpr)\n".utf8))
        if options.width != 0 { hash.update(data: Array("width \(options.width)\n".utf8)) }
        hash.update(data: Array(SHA256.hash(data: data)))
        return "\"" + Base64URL.encode(Array(hash.finalize()).prefix(18)) + "\""
    }

    /// Decodes at the target size, processes and encodes a prepared request.
    public func render(_ prepared: PreparedRender) async throws(ServeError) -> RenderedImage {
        let clock = ContinuousClock()
        let options = prepared.request.options
        let plan = RenderPlan(options: options, format: prepared.format, isAnimated: prepared.isAnimated, watermark: watermark)
        let timer = ProcessTimer()
        let data = prepared.data
        let target = plan.decodeTarget
        let request = ImageRequest(
            source: .data(id: "\(prepared.request.source)#\(data.count)") { data },
            targetSize: target.map { CGSize(width: $0.size.width, height: $0.size.height) },
            contentMode: target?.contentMode ?? .fit, processors: timer.wrapping(plan.processors),
            options: ImageRequest.Options(skipsOrientation: plan.skipsOrientation))
        var timings = prepared.timings
        let started = clock.now
        let image: LoadedImage
        do {
            image = try await pipeline.image(for: request)
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
            if let animation = image.animation, animation.frameCount > 1, !ImageFormat.videoFormats.contains(image.format),
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

    /// The part of a result cache key that stands for the format: the one named, or for a
    /// negotiated one, what `accept` leads to for an opaque, a transparent and an animated source.
    func formatsKey(_ request: ServeRequest, accept: String?) -> String {
        if let requested = request.requestedFormat { return requested.rawValue }
        var choices: [String] = []
        for source in [nil] + FormatNegotiation.preferred {
            for (alpha, animated) in [(false, false), (true, false), (false, true), (true, true)] {
                choices.append(negotiation.choose(accept: accept, hasAlpha: alpha, isAnimated: animated, source: source).rawValue)
            }
        }
        return "accept " + choices.joined(separator: ",")
    }

    /// The watermark image of the configuration, or `nil`; a file that is missing or not an
    /// image stops the service from starting.
    static func loadWatermark(_ configuration: ServerConfiguration) throws -> Watermark? {
        guard let path = configuration.watermarkPath else { return nil }
        guard let data = FileManager.default.contents(atPath: path),
            let image = try? ImageDecoderRegistry.standard.decode(data)
        else {
            throw ConfigurationError("the watermark \"\(path)\" is not an image Iris can read")
        }
        let digest = Base64URL.encode(Array(SHA256.hash(data: data)).prefix(12))
        return Watermark(bitmap: image.bitmap, identifier: digest, opacity: configuration.watermarkOpacity)
    }

    /// The pipeline's source for a checked reference.
    func imageSource(for source: SourceReference) throws(ServeError) -> ImageRequest.Source {
        switch source {
        case .remote(let url):
            try configuration.sourcePolicy.checkAllowed(url)
            return .url(url)
        case .local(let path):
            return .file(try configuration.sourcePolicy.localFile(path))
        }
    }

    /// Drops a source that turned out not to be a usable image from the disk cache.
    private func forget(_ request: ImageRequest) {
        pipeline.configuration.dataCache?.remove(for: pipeline.dataKey(for: request))
    }

    /// Whether an `If-None-Match` value names `etag` (or is `*`).
    static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            let value = candidate.trimmingCharacters(in: .whitespaces)
            return value == "*" || value == etag || value == "W/" + etag
        }
    }
}
