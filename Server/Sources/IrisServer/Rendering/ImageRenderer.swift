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
    /// The client's copy is current at the source's origin (its `If-None-Match` named the
    /// source's ETag, which the origin answered 304): a 304 with the origin's ETag.
    case sourceNotModified(ServeRequest, etag: String)
    /// A refusal or a failure.
    case failure(ServeError)
}

/// Renders imgproxy URLs: the parts every step of an image request uses (the URL reader, the
/// result cache, the work queue, the metrics), and the admitted work, one named step after
/// another: fetch the source through an ``ImagePipeline`` (one download for every request of a
/// source in flight, its disk cache, HTTP's rules), plan (limits from its header, the output
/// format, the ETag, 304), render (decode at the target size, process, encode) and store the
/// result. The steps before the work are the image routes' (`ImageRoutes`).
///
/// There is one render path, and it is not the pipeline's: the pipeline fetches sources and
/// decodes nothing (it has no decoder), and every render decodes the bytes in hand with the
/// service's decoder registry (``decoders``), joining the render of the same result in flight
/// or in a render slot of the work queue (`ImageRendering.swift`).
public final class ImageRenderer: Sendable {
    /// The configuration.
    public let configuration: IrisServerConfiguration
    /// The pipeline the sources are fetched through (its loader, its disk cache, HTTP's
    /// rules); nothing is decoded in it.
    package let pipeline: ImagePipeline
    /// The decoders every render reads and decodes sources with: every decoder but video's
    /// (FFmpeg never runs in the service: video posters are made by a child process).
    let decoders: ImageDecoderRegistry
    /// The bounds every source is checked against from its header, before it is decoded (a
    /// URL's own limits lower them).
    let limits: DecodingLimits
    /// The bounded work queue.
    package let gate: AdmissionGate
    /// The downloads of each source host, bounded.
    package let hostDownloads: HostDownloadGate
    /// The pipeline's loader of remote sources (also asked for conditional requests).
    let sourceLoader: SourceLoader
    /// The service's metrics.
    public let metrics: ServerMetrics
    /// Encoded results on disk, when configured.
    package let resultCache: ResultCache?
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
    /// ``IrisServerConfiguration/cacheDirectory``, without a memory cache of decoded images.
    public init(configuration: IrisServerConfiguration, resolver: any AddressResolving = SystemAddressResolver()) throws {
        try configuration.validate()
        self.configuration = configuration
        watermark = try Self.loadWatermark(configuration)
        var decoders = ImageDecoderRegistry.standard
        decoders.decoders.removeAll { !$0.formats.isDisjoint(with: ImageFormat.videoFormats) }
        self.decoders = decoders
        limits = DecodingLimits(maxPixels: configuration.maxSourcePixels, maxFrames: configuration.maxAnimationFrames)
        hostDownloads = HostDownloadGate(
            maxRunning: configuration.maxDownloadsPerHost, maxWaiting: configuration.maxQueuedDownloadsPerHost,
            maxWait: configuration.queueTimeout, clock: configuration.clock)
        sourceLoader = SourceLoader(
            policy: configuration.sourcePolicy, resolver: resolver,
            timeout: configuration.downloadTimeout, maxRedirects: configuration.maxRedirects, hosts: hostDownloads)
        pipeline = try Self.pipeline(configuration, loader: sourceLoader)
        metrics = ServerMetrics()
        resultCache = try ResultCache.configured(configuration)
        videoPosters = VideoPosterProcess(
            executable: configuration.videoPosterExecutable.map { URL(fileURLWithPath: $0) } ?? VideoPosterProcess.besideThisExecutable,
            cpuSeconds: max(1, Int(configuration.processingTimeout.components.seconds)),
            maxPixels: configuration.maxSourcePixels, maxBytes: configuration.maxSourceBytes)
        gate = AdmissionGate(
            maxRunning: configuration.maxConcurrentRenders, maxWaiting: configuration.maxQueuedRenders,
            maxWaitingBytes: configuration.maxWaitingSourceBytes, queueTimeout: configuration.queueTimeout,
            clock: configuration.clock)
        let logger = Logger(label: "iris-server")
        var urls = configuration.urlReader
        urls.options.warn = { logger.warning("\($0)") }
        self.urls = urls
        let available = OutputFormat.allCases.filter { ImageEncoders.encoder(for: $0.imageFormat) != nil }
        negotiation = FormatNegotiation(available: Set(available))
    }

    /// The pipeline of the service's sources: loaded through `loader` into a disk cache, no
    /// memory cache, and no decoder (the service renders with ``decoders``, never through the
    /// pipeline's decode stages). The pipeline's bound on loads at once is the admission's (no
    /// more loads can be asked for than requests admitted), so it never holds one back: a
    /// download is bounded by its host's slots in the loader (``HostDownloadGate``), which
    /// answer what cannot wait, where a shared bound would let a slow host stall every source.
    private static func pipeline(_ configuration: IrisServerConfiguration, loader: SourceLoader) throws -> ImagePipeline {
        let cache = try DataCache(directory: configuration.cacheDirectory, sizeLimit: configuration.cacheSizeLimit)
        return ImagePipeline(
            configuration: ImagePipeline.Configuration(
                dataLoader: loader, dataCache: cache, memoryCache: nil, decoders: ImageDecoderRegistry(decoders: []),
                maxConcurrentDownloads: configuration.maxConcurrentRenders + configuration.maxQueuedRenders,
                resumableData: nil, maxDataBytes: configuration.maxSourceBytes))
    }

    /// An admitted request's work: a 304 when the origin says the client's copy of the source
    /// is current (``originNotModified(_:ifNoneMatch:)``); else fetch and plan, a 304 or the
    /// source as it is when that answers, else render (in a slot, or joining the same render in flight) and store the result.
    func work(
        _ request: ServeRequest, accept: String?, ifNoneMatch: String?, lookup: ResultLookup, now: Date
    ) async throws(ServeError) -> ServeResult {
        if let ifNoneMatch, let etag = await originNotModified(request, ifNoneMatch: ifNoneMatch) {
            return .sourceNotModified(request, etag: etag)
        }
        let prepared = try await prepare(request, accept: accept)
        if let ifNoneMatch, ETag.matches(ifNoneMatch, etag: prepared.etag) { return .notModified(prepared) }
        // skip_processing, raw: the source's bytes as they are, no render slot.
        if prepared.passthrough != nil { return .image(RenderedImage(passingThrough: prepared)) }
        var image = try await render(prepared)
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
    static func loadWatermark(_ configuration: IrisServerConfiguration) throws -> Watermark? {
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

/// A source's bytes as fetched, with the pipeline request that fetched them (to drop them from
/// the disk cache if they turn out not to be a usable image).
struct FetchedSource: Sendable {
    /// The bytes.
    var data: Data
    /// The request they were fetched with.
    var request: ImageRequest
    /// Timings so far (fetch).
    var timings: RenderTimings
}

extension ImageRenderer {
    /// Fetches `request`'s source through the pipeline's loader and disk cache (one download
    /// for every request of a source in flight), counting a remote source's outcome as the
    /// fetch's result describes it: joined to a fetch in flight (coalesced), from the disk cache
    /// without asking the origin (a hit), or from the origin (a miss: loaded, revalidated, or
    /// stale after it failed).
    func fetch(_ request: ServeRequest) async throws(ServeError) -> FetchedSource {
        let clock = ContinuousClock()
        let started = clock.now
        let fetchRequest = ImageRequest(source: try imageSource(for: request.source))
        let fetched: FetchedData
        do {
            fetched = try await pipeline.fetch(fetchRequest)
        } catch {
            throw ServeError(error)
        }
        if case .remote = request.source {
            let outcome: ServerMetrics.SourceOutcome =
                fetched.joinedFetchInFlight ? .coalesced : fetched.origin == .diskCache ? .hit : .miss
            metrics.source(outcome, bytes: fetched.data.count)
        }
        var timings = RenderTimings()
        timings.fetch = started.duration(to: clock.now)
        return FetchedSource(data: fetched.data, request: fetchRequest, timings: timings)
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
    func forget(_ fetched: FetchedSource) {
        pipeline.cache.remove(fetched.request, from: .disk)
    }
}
