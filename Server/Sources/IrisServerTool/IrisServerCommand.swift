import ArgumentParser
import Foundation
import IrisServer
import IrisServerCore

/// `iris-server`: the image service. Flags override `IRIS_*` variables, which override the
/// defaults (127.0.0.1:8080, signed URLs only, public sources only).
@main
struct IrisServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iris-server",
        abstract: "Serve images over HTTP with imgproxy-compatible signed URLs, rendered by Iris.")

    @Option(help: "Address to listen on (IRIS_HOST; default 127.0.0.1).") var host: String?
    @Option(help: "Port (IRIS_PORT; default 8080).") var port: Int?
    @Flag(help: "Development mode: serve unsigned URLs (IRIS_DEV).") var dev = false
    @Flag(
        name: .customLong("public"),
        help:
            "Public mode: serve unsigned URLs of --allow-source sources at --public-sizes, with a gravity and a format only (IRIS_PUBLIC).")
    var publicMode = false
    @Option(
        help:
            "Sizes a side of an unsigned URL may have in public mode, comma-separated pixels (IRIS_PUBLIC_SIZES; default: Iris's SizeLadder.standard)."
    )
    var publicSizes: String?
    @Option(help: "Signing key, hex (IRIS_KEY; repeat for rotation).") var key: [String] = []
    @Option(help: "Signing salt, hex, one per key (IRIS_SALT).") var salt: [String] = []
    @Option(help: "Bytes of the HMAC kept in signatures (IRIS_SIGNATURE_SIZE; default 32).") var signatureSize: Int?
    @Option(help: "Allowed source URL prefix (IRIS_ALLOWED_SOURCES; repeatable; default any).") var allowSource: [String] = []
    @Option(help: "Folder served as local:// (IRIS_LOCAL_ROOT; default none).") var localRoot: String?
    @Option(help: "Address kinds sources may resolve to besides public ones: loopback, private, link-local… (IRIS_ALLOW_ADDRESSES).")
    var allowAddresses: [String] = []
    @Option(help: "Source cache folder (IRIS_CACHE_DIR).") var cacheDir: String?
    @Option(help: "Named preset, name=option/option (IRIS_PRESETS; repeatable).") var preset: [String] = []
    @Option(help: "Renders at once (IRIS_WORKERS; default: cores).") var workers: Int?
    @Flag(help: "Client hints: ask for DPR and use it as the default dpr (IRIS_CLIENT_HINTS).") var clientHints = false
    @Option(help: "Requests fetching or waiting for a render besides the running ones, before 429 (IRIS_QUEUE; default 2048).") var queue:
        Int?
    @Option(help: "Seconds a request waits for a render or host download slot before 429 (IRIS_QUEUE_TIMEOUT; default 10).")
    var queueTimeout: Int?
    @Option(help: "Downloads from one source host at once (IRIS_DOWNLOADS_PER_HOST; default 6).") var downloadsPerHost: Int?
    @Option(help: "Downloads from one source host waiting for a slot, before 429 (IRIS_DOWNLOAD_QUEUE_PER_HOST; default 256).")
    var downloadQueuePerHost: Int?
    @Flag(help: "Serve video sources (MP4, MOV, WebM, Matroska) as their poster; off by default (IRIS_VIDEO).") var video = false
    @Option(help: "Watermark image file for the watermark option (IRIS_WATERMARK; default none).") var watermark: String?
    @Option(help: "Watermark base opacity, 0 to 1 (IRIS_WATERMARK_OPACITY; default 1).") var watermarkOpacity: Double?
    @Option(help: "Port of /metrics, Prometheus text (IRIS_METRICS_PORT; default: no metrics listener).") var metricsPort: Int?
    @Option(help: "Address of /metrics (IRIS_METRICS_HOST; default 127.0.0.1).") var metricsHost: String?
    @Option(help: "Result cache folder (IRIS_RESULT_CACHE_DIR; default ~/.cache/iris-server/results).") var resultCacheDir: String?
    @Option(help: "Result cache size in bytes, 0 turns it off (IRIS_RESULT_CACHE_SIZE; default 1 GiB).") var resultCacheSize: Int?
    @Option(help: "Seconds a cached result serves (IRIS_RESULT_CACHE_MAX_AGE; default: until pushed out by size).") var resultCacheMaxAge:
        Int?
    @Option(help: "Seconds /health answers 503 on SIGTERM before the listener closes (IRIS_DRAIN_DELAY; default 0).") var drainDelay: Int?
    @Option(help: "Seconds requests in flight are waited for on SIGTERM (IRIS_DRAIN_LIMIT; default 30).") var drainLimit: Int?
    @Option(help: "Seconds an idle client connection stays open, 0 for ever (IRIS_IDLE_TIMEOUT; default 75).") var idleTimeout: Int?

    func run() async throws {
        var config = try IrisServerConfiguration().applying(environment: ProcessInfo.processInfo.environment)
        if let host { config.host = host }
        if let port { config.port = port }
        if dev { config.development = true }
        if publicMode { config.publicMode = true }
        if let publicSizes { config.publicSizes = try IrisServerConfiguration.sizeLadder(publicSizes, name: "--public-sizes") }
        if !key.isEmpty { config.signingKeys = try IrisServerConfiguration.signingKeys(keys: key, salts: salt) }
        if let signatureSize { config.signatureSize = signatureSize }
        if !allowSource.isEmpty { config.sourcePolicy.allowedPrefixes = allowSource }
        if let localRoot { config.sourcePolicy.localRoot = URL(fileURLWithPath: localRoot) }
        config.sourcePolicy.allowedAddressKinds.formUnion(try IrisServerConfiguration.addressKinds(allowAddresses))
        if let cacheDir { config.cacheDirectory = URL(fileURLWithPath: cacheDir) }
        for entry in preset { try config.addPreset(entry) }
        if let workers { config.maxConcurrentRenders = max(1, workers) }
        if let queue { config.maxQueuedRenders = queue }
        if let queueTimeout { config.queueTimeout = .seconds(queueTimeout) }
        if let downloadsPerHost { config.maxDownloadsPerHost = max(1, downloadsPerHost) }
        if let downloadQueuePerHost { config.maxQueuedDownloadsPerHost = max(0, downloadQueuePerHost) }
        if video { config.videoSources = true }
        if let watermark { config.watermarkPath = watermark }
        if let watermarkOpacity { config.watermarkOpacity = min(1, max(0, watermarkOpacity)) }
        if clientHints { config.clientHints = true }
        if let metricsPort { config.metricsPort = metricsPort }
        if let metricsHost { config.metricsHost = metricsHost }
        if let resultCacheDir { config.resultCacheDirectory = URL(fileURLWithPath: resultCacheDir) }
        if let resultCacheSize { config.resultCacheSizeLimit = resultCacheSize }
        if let resultCacheMaxAge { config.resultCacheMaxAge = .seconds(resultCacheMaxAge) }
        if let drainDelay { config.drainDelay = .seconds(drainDelay) }
        if let drainLimit { config.drainLimit = .seconds(drainLimit) }
        if let idleTimeout { config.idleTimeout = idleTimeout > 0 ? .seconds(idleTimeout) : nil }
        if !config.development && !config.publicMode && config.signingKeys.isEmpty {
            print("iris-server: no signing key (--key/--salt or IRIS_KEY/IRIS_SALT): every URL will be refused; --dev serves unsigned URLs")
        }
        let renderer = try ImageRenderer(configuration: config)
        let host = config.host
        let rest =
            (config.development ? " (development: unsigned URLs served)" : "")
            + (config.publicMode
                ? " (public: unsigned URLs of \(config.sourcePolicy.allowedPrefixes.count) source prefixes, "
                    + "\(config.publicSizes.steps.count) sizes)" : "")
            + (config.metricsPort.map { ", metrics on http://\(config.metricsHost):\($0)/metrics" } ?? "") + "\n"
        // SIGTERM/SIGINT: drain, answer what is in flight, return (exit 0). The banner is written
        // once the socket is bound (at once, not buffered), with the port bound: whoever started
        // the server reads one line and knows it accepts connections, with nothing to poll.
        try await IrisServerService.group(
            configuration: config, renderer: renderer,
            onRunning: { port in
                FileHandle.standardOutput.write(Data("iris-server \(IrisServerInfo.version) on http://\(host):\(port)\(rest)".utf8))
            }
        ).run()
    }
}
