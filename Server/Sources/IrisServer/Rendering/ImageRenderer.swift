import Crypto
import Foundation
import Iris
import IrisServerCore
import Logging

/// What the service answers one image request with.
package enum ServeResult: Sendable {
    /// The rendered image.
    case image(RenderedImage)
    /// The client's copy is current (`If-None-Match` matched): a 304 with these headers.
    case notModified(PreparedRender)
    /// A refusal or a failure.
    case failure(ServeError)
}

/// Renders imgproxy URLs on an ``ImagePipeline``, one named step after another (``serve(path:accept:ifNoneMatch:hints:now:)``):
/// parse and verify the URL, look the result up in the result cache, admit the request into
/// the bounded work queue within the processing timeout, fetch the source (one download for
/// every request of a source in flight), plan (limits from its header, the output format, the
/// ETag, 304), render (decode at the target size, process, encode) and store the result.
public final class ImageRenderer: Sendable {
    /// The configuration.
    public let configuration: ServerConfiguration
    /// The pipeline every render goes through.
    package let pipeline: ImagePipeline
    /// The bounded work queue.
    package let gate: AdmissionGate
    /// The service's metrics.
    public let metrics: ServerMetrics
    /// Encoded results on disk, when configured.
    package let resultCache: ResultCache?
    let sources = SourceTracker()
    let renders = RenderFlights<RenderedImage>()
    /// The configured watermark, decoded once.
    let watermark: Watermark?
    /// Makes video posters in a child process.
    let videoPosters: VideoPosterProcess
    /// Reads and verifies imgproxy URLs (warnings go to the log).
    let urls: ImgproxyURL
    /// Chooses a format the URL leaves open from `Accept`.
    let negotiation: FormatNegotiation

    /// Makes a renderer: a pipeline over a ``SourceLoader`` and a disk cache of sources in
    /// ``ServerConfiguration/cacheDirectory``, without a memory cache of decoded images.
    public init(configuration: ServerConfiguration, resolver: any AddressResolving = SystemAddressResolver()) throws {
        try configuration.validate()
        self.configuration = configuration
        watermark = try Self.loadWatermark(configuration)
        let sources = sources
        let loader = SourceLoader(
            policy: configuration.sourcePolicy, resolver: resolver,
            timeout: configuration.downloadTimeout, maxRedirects: configuration.maxRedirects,
            onDownload: { sources.didDownload($0.absoluteString) })
        pipeline = try Self.pipeline(configuration, loader: loader)
        metrics = ServerMetrics()
        resultCache = try ResultCache.configured(configuration)
        videoPosters = VideoPosterProcess(
            executable: configuration.videoPosterExecutable.map { URL(fileURLWithPath: $0) } ?? VideoPosterProcess.besideThisExecutable,
            cpuSeconds: max(1, Int(configuration.processingTimeout.components.seconds)),
            maxPixels: configuration.maxSourcePixels, maxBytes: configuration.maxSourceBytes)
        gate = AdmissionGate(
            maxRunning: configuration.maxConcurrentRenders, maxWaiting: configuration.maxQueuedRenders,
            maxWaitingBytes: configuration.maxWaitingSourceBytes, queueTimeout: configuration.queueTimeout)
        let logger = Logger(label: "iris-server")
        var urls = configuration.urlReader
        urls.options.warn = { logger.warning("\($0)") }
        self.urls = urls
        let available = OutputFormat.allCases.filter { ImageEncoders.encoder(for: $0.imageFormat) != nil }
        negotiation = FormatNegotiation(available: Set(available))
    }

    /// The pipeline of the service: sources through `loader` and a disk cache, no memory cache,
    /// and every decoder but video's (FFmpeg never runs in the service: video posters are made
    /// by a child process).
    private static func pipeline(_ configuration: ServerConfiguration, loader: SourceLoader) throws -> ImagePipeline {
        let cache = try DataCache(directory: configuration.cacheDirectory, sizeLimit: configuration.cacheSizeLimit)
        let limits = DecodingLimits(maxPixels: configuration.maxSourcePixels, maxFrames: configuration.maxAnimationFrames)
        var decoders = ImageDecoderRegistry.standard
        decoders.decoders.removeAll { !$0.formats.isDisjoint(with: ImageFormat.videoFormats) }
        return ImagePipeline(
            configuration: ImagePipeline.Configuration(
                dataLoader: loader, dataCache: cache, memoryCache: nil, decoders: decoders, limits: limits, maxConcurrentDownloads: 16,
                resumableData: nil, maxDataBytes: configuration.maxSourceBytes))
    }

    /// The whole answer to a request for `path` (as received, without the query). `accept`
    /// negotiates the format when the URL names none; `ifNoneMatch` may answer 304; `hints`
    /// (`Sec-CH-DPR`/`DPR`, `Sec-CH-Width`/`Width`), when client hints are on, are the dpr and
    /// width of URLs that set none. Every answer is counted in ``metrics``.
    package func serve(
        path: String, accept: String?, ifNoneMatch: String?, hints: ClientHints = ClientHints(),
        now: Date = Date()
    ) async -> ServeResult {
        let result = await answer(path: path, accept: accept, ifNoneMatch: ifNoneMatch, hints: hints, now: now)
        metrics.record(result)
        return result
    }

    /// The steps: parse and verify, the result cache, then, admitted, the work.
    private func answer(path: String, accept: String?, ifNoneMatch: String?, hints: ClientHints, now: Date) async -> ServeResult {
        let request: ServeRequest
        do throws(ServeError) {
            request = try urls.parse(path, now: now, defaults: configuration.clientHints ? hints.defaults : ProcessingOptions())
        } catch {
            return .failure(error)
        }
        let lookup = await lookUpResult(of: request, accept: accept, ifNoneMatch: ifNoneMatch, now: now)
        if let hit = lookup.hit { return hit }
        do {
            return try await admitted {
                try await self.work(request, accept: accept, ifNoneMatch: ifNoneMatch, lookup: lookup, now: now)
            }
        } catch let error as ServeError {
            return .failure(error)
        } catch {
            return .failure(ServeError(status: 500, "the image could not be made"))
        }
    }

    /// An admitted request's work: fetch and plan, a 304 or the source as it is when that
    /// answers, else render in a slot and store the result.
    private func work(
        _ request: ServeRequest, accept: String?, ifNoneMatch: String?, lookup: ResultLookup, now: Date
    ) async throws(ServeError) -> ServeResult {
        let prepared = try await prepare(request, accept: accept)
        if let ifNoneMatch, ETag.matches(ifNoneMatch, etag: prepared.etag) { return .notModified(prepared) }
        // skip_processing, raw: the source's bytes as they are, no render slot.
        if prepared.passthrough != nil { return .image(RenderedImage(passingThrough: prepared)) }
        var image = try await inRenderSlot(for: prepared) { () async throws(ServeError) in try await self.render(prepared) }
        store(&image, lookup: lookup, now: now)
        return .image(image)
    }

    /// Fetches the source and decides everything that does not need its pixels: limits from
    /// the header, the output format, the ETag.
    package func prepare(_ request: ServeRequest, accept: String?) async throws(ServeError) -> PreparedRender {
        let fetched = try await fetch(request)
        switch try await inspect(fetched, for: request) {
        case .asIs(let name, let data):
            return PreparedRender(passingThrough: request, data: data, source: name, timings: fetched.timings)
        case .image(let held):
            return try plan(request, source: held, accept: accept, timings: fetched.timings)
        }
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
}
