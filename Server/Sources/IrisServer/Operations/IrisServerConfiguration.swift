import Foundation
import Iris
import IrisServerCore

/// Everything the service is configured with; every limit has a default safe for a public
/// service (the `iris-server` tool fills it from flags and `IRIS_*` variables).
public struct IrisServerConfiguration: Sendable {
    /// The address to listen on (127.0.0.1 by default).
    public var host = "127.0.0.1"
    /// The port to listen on (8080 by default; 0 picks a free one).
    public var port = 8080
    /// Development mode: unsigned URLs are served. Off by default.
    public var development = false
    /// Public mode: unsigned URLs are served, but only for sources on the allow-list
    /// (``SourcePolicy/allowedPrefixes``, which must then be given), at sizes of ``publicSizes``,
    /// with a gravity and a format (``PublicAccess``); signed URLs keep every option. Off by
    /// default.
    public var publicMode = false
    /// The sizes a side of an unsigned URL may have in public mode: Iris's
    /// `SizeLadder.standard` by default, the sizes its `ImgproxyService` asks for.
    public var publicSizes = SizeLadder.standard
    /// Signing keys (imgproxy's key/salt pairs): a URL signed by any of them is accepted.
    public var signingKeys: [SigningKey] = []
    /// Bytes of the HMAC a signature keeps (32: all of it).
    public var signatureSize = 32
    /// Named option lists (`preset:name`); `default` applies to every request.
    public var presets: [String: [String]] = [:]
    /// Which sources may be loaded.
    public var sourcePolicy = SourcePolicy()
    /// The folder of the source cache on disk (original bytes, shared by every option).
    public var cacheDirectory: URL = IrisServerConfiguration.defaultCacheDirectory
    /// The source cache's size limit in bytes (1 GiB by default).
    public var cacheSizeLimit = 1 << 30
    /// The longest a source download may take, in seconds (10).
    public var downloadTimeout: Duration = .seconds(10)
    /// The longest a request may take from admission to encoded bytes, in seconds (30).
    public var processingTimeout: Duration = .seconds(30)
    /// The most bytes a source may have, checked while it streams (50 MiB).
    public var maxSourceBytes = 50 * 1024 * 1024
    /// The most pixels a source may have, read from its header before decoding (50 MP).
    public var maxSourcePixels = 50_000_000
    /// The most frames an animated source may have (200); more is refused before decoding.
    public var maxAnimationFrames = 200
    /// The most pixels a result may have (36 MP).
    public var maxResultPixels = 36_000_000
    /// The most redirects followed for one source (10).
    public var maxRedirects = 10
    /// `Cache-Control: max-age` of a result, in seconds (one year).
    public var cacheTTL = 31_536_000
    /// Quality of lossy formats when the URL names none (80).
    public var defaultQuality = 80
    /// Renders running at once (the number of cores).
    public var maxConcurrentRenders = ProcessInfo.processInfo.activeProcessorCount
    /// Requests admitted besides the running renders (fetching their source or waiting for a
    /// render slot) before new ones are answered 429: 2,048 (imgproxy's default client limit).
    /// A waiting request holds no pixels; what it does hold is bounded by
    /// ``maxWaitingSourceBytes`` and ``queueTimeout``.
    public var maxQueuedRenders = 2048
    /// The most source bytes held by requests waiting for a render slot, each distinct source
    /// counted once (1 GiB); a request whose source would go past it is answered 429.
    public var maxWaitingSourceBytes = 1 << 30
    /// The longest a request waits for a render slot, or its download for a slot of its
    /// source's host, before it is answered 429 (10 s, imgproxy's `IMGPROXY_TIMEOUT`).
    public var queueTimeout: Duration = .seconds(10)
    /// Downloads from one source host (name and port) at once (6, what browsers open to one
    /// HTTP/1.1 host, so an origin sized for browsers copes): a slow host holds these, not the
    /// downloads of every other host.
    public var maxDownloadsPerHost = 6
    /// Downloads from one source host waiting for one of its slots before new ones are answered
    /// 429 (256); a wait that is expected to outlast ``queueTimeout`` is answered 429 at once.
    public var maxQueuedDownloadsPerHost = 256
    /// The clock the queues keep their deadlines on: the continuous clock (tests pass their own).
    package var clock = DeadlineClock.continuous
    /// The listen backlog: the kernel's maximum (`/proc/sys/net/core/somaxconn` on Linux),
    /// so that a burst of connections is queued by the kernel rather than dropped.
    public var listenBacklog = ListenBacklog.kernelMaximum
    /// The watermark image file the `watermark` option lays over results; `nil`: none (the
    /// option is then accepted and has no effect, as in imgproxy).
    public var watermarkPath: String?
    /// The watermark's base opacity, 0…1, which every `watermark` option multiplies (1).
    public var watermarkOpacity = 1.0
    /// Video sources (MP4, MOV, WebM, Matroska) are served as their poster, made by FFmpeg in
    /// a child process (``VideoPosterProcess``), so a crash costs one request. Off by default:
    /// a video source is then a 415 saying so.
    public var videoSources = false
    /// The `iris-video-poster` executable that makes video posters in a process of its own;
    /// `nil`: the one beside the running executable.
    public var videoPosterExecutable: String?
    /// Client hints: responses ask for `DPR` (`Accept-CH`), and a request's `Sec-CH-DPR` or
    /// `DPR` is the dpr of URLs that set none (with `Vary`). Off by default.
    public var clientHints = false
    /// `Retry-After` of a 429, in seconds.
    public var retryAfterSeconds = 1
    /// The folder of the result cache (encoded responses); `nil`: no result cache.
    public var resultCacheDirectory: URL? = IrisServerConfiguration.defaultCacheDirectory
        .deletingLastPathComponent().appendingPathComponent("results")
    /// The result cache's size limit in bytes (1 GiB); the least recently used go first.
    public var resultCacheSizeLimit = 1 << 30
    /// How long a cached result serves; `nil` (the default): until the size limit pushes it out.
    public var resultCacheMaxAge: Duration?
    /// The address `/metrics` listens on (127.0.0.1).
    public var metricsHost = "127.0.0.1"
    /// The port `/metrics` listens on; `nil` (the default): no metrics listener.
    public var metricsPort: Int?
    /// On SIGTERM, how long `/health` answers 503 before the listener closes (so a load
    /// balancer stops sending first); zero by default.
    public var drainDelay: Duration = .zero
    /// On SIGTERM, the longest requests in flight are waited for before they are cut (30 s).
    public var drainLimit: Duration = .seconds(30)
    /// How long a client connection may stay idle (no request in progress, or a request that
    /// stopped arriving) before it is closed; `nil` keeps idle connections open. Default 75 s:
    /// longer than nginx's 60 s keep-alive to its upstreams, so nginx closes first.
    public var idleTimeout: Duration? = .seconds(75)

    /// The defaults.
    public init() {}

    /// The signer and checker of URLs over ``signingKeys``; `nil` when there is none.
    public var urlSignature: URLSignature? {
        signingKeys.isEmpty ? nil : URLSignature(keys: signingKeys, size: signatureSize)
    }

    /// What unsigned URLs may ask for in public mode; `nil` when it is off.
    package var publicAccess: PublicAccess? {
        publicMode ? PublicAccess(ladder: publicSizes, allowedSources: sourcePolicy.allowedPrefixes) : nil
    }

    /// The reader of image URLs this configuration serves: its signature, development mode,
    /// public mode and presets.
    package var urlReader: ImgproxyURL {
        ImgproxyURL(
            signature: urlSignature, acceptsUnsigned: development, options: OptionParser(presets: presets),
            publicAccess: publicAccess)
    }

    /// Checks what can only be checked as a whole: every preset applies cleanly (a service with
    /// a broken preset refuses to start, as imgproxy does), and public mode has an explicit
    /// source allow-list and sizes, and is not mixed with development mode.
    public func validate() throws {
        if publicMode {
            if development {
                throw ConfigurationError(
                    "public mode (--public) and development mode (--dev) exclude each other: "
                        + "development mode serves every unsigned URL, public mode only the allowed ones")
            }
            if sourcePolicy.allowedPrefixes.allSatisfy(\.isEmpty) {
                throw ConfigurationError(
                    "public mode (--public) serves unsigned URLs, so it needs an explicit source allow-list "
                        + "(--allow-source or IRIS_ALLOWED_SOURCES): without one anybody could have any URL fetched and rendered")
            }
            if publicSizes.steps.isEmpty {
                throw ConfigurationError("public mode (--public) needs at least one size (--public-sizes)")
            }
        }
        do throws(ServeError) {
            try OptionParser(presets: presets).validatePresets()
        } catch {
            throw ConfigurationError(error.reason)
        }
    }

    /// `$XDG_CACHE_HOME/iris-server/sources` or `~/.cache/iris-server/sources`.
    public static var defaultCacheDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("iris-server/sources")
    }
}
