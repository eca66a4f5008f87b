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
    @Option(help: "Renders waiting before 429 (IRIS_QUEUE; default 8 per core).") var queue: Int?

    func run() async throws {
        var config = try ServerConfiguration().applying(environment: ProcessInfo.processInfo.environment)
        if let host { config.host = host }
        if let port { config.port = port }
        if dev { config.development = true }
        if !key.isEmpty { config.signingKeys = try ServerConfiguration.signingKeys(keys: key, salts: salt) }
        if let signatureSize { config.signatureSize = signatureSize }
        if !allowSource.isEmpty { config.sourcePolicy.allowedPrefixes = allowSource }
        if let localRoot { config.sourcePolicy.localRoot = URL(fileURLWithPath: localRoot) }
        config.sourcePolicy.allowedAddressKinds.formUnion(try ServerConfiguration.addressKinds(allowAddresses))
        if let cacheDir { config.cacheDirectory = URL(fileURLWithPath: cacheDir) }
        for entry in preset { try config.addPreset(entry) }
        if let workers { config.maxConcurrentRenders = max(1, workers) }
        if let queue { config.maxQueuedRenders = queue }
        if clientHints { config.clientHints = true }
        if !config.development && config.signingKeys.isEmpty {
            print("iris-server: no signing key (--key/--salt or IRIS_KEY/IRIS_SALT): every URL will be refused; --dev serves unsigned URLs")
        }
        let renderer = try ImageRenderer(configuration: config)
        let app = IrisServerApplication.make(configuration: config, renderer: renderer)
        // Written at once (not buffered), so whoever started the server sees where it listens.
        let banner = "iris-server \(IrisServerInfo.version) on http://\(config.host):\(config.port)"
            + (config.development ? " (development: unsigned URLs served)" : "") + "\n"
        FileHandle.standardOutput.write(Data(banner.utf8))
        try await app.runService()
    }
}
