import Foundation
import Iris
import IrisServerCore

extension IrisServerConfiguration {
    /// The configuration with every `IRIS_*` variable of `environment` applied:
    /// `IRIS_HOST`, `IRIS_PORT`, `IRIS_DEV` (1/true), `IRIS_PUBLIC` (1/true), `IRIS_PUBLIC_SIZES`
    /// (comma-separated pixels), `IRIS_KEY` and `IRIS_SALT` (hex, several
    /// comma-separated, paired in order), `IRIS_SIGNATURE_SIZE`, `IRIS_ALLOWED_SOURCES`
    /// (comma-separated prefixes), `IRIS_LOCAL_ROOT`, `IRIS_ALLOW_ADDRESSES` (comma-separated
    /// kinds: loopback, private, link-local…), `IRIS_CACHE_DIR`, `IRIS_CACHE_SIZE`,
    /// `IRIS_DOWNLOAD_TIMEOUT` and `IRIS_PROCESSING_TIMEOUT` (seconds), `IRIS_MAX_SOURCE_BYTES`,
    /// `IRIS_MAX_SOURCE_PIXELS`, `IRIS_MAX_FRAMES`, `IRIS_MAX_RESULT_PIXELS`, `IRIS_TTL`,
    /// `IRIS_QUALITY`, `IRIS_WORKERS`, `IRIS_QUEUE`, `IRIS_QUEUE_TIMEOUT` (seconds), `IRIS_DOWNLOADS_PER_HOST`,
    /// `IRIS_DOWNLOAD_QUEUE_PER_HOST`, `IRIS_CLIENT_HINTS`, `IRIS_VIDEO`, `IRIS_WATERMARK` (a file), `IRIS_WATERMARK_OPACITY`, `IRIS_PRESETS` (`name=opt/opt;name=opt`),
    /// `IRIS_METRICS_HOST`, `IRIS_METRICS_PORT`, `IRIS_RESULT_CACHE_DIR`, `IRIS_RESULT_CACHE_SIZE` (0: off),
    /// `IRIS_RESULT_CACHE_MAX_AGE`, `IRIS_DRAIN_DELAY`, `IRIS_DRAIN_LIMIT` and `IRIS_IDLE_TIMEOUT` (seconds; 0 for none).
    /// A value that does not parse is an error naming the variable.
    public func applying(environment: [String: String]) throws -> IrisServerConfiguration {
        var config = self
        func int(_ name: String) throws -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text), value >= 0 else { throw ConfigurationError("\(name) must be a whole number, not \"\(text)\"") }
            return value
        }
        if let host = environment["IRIS_HOST"] { config.host = host }
        if let port = try int("IRIS_PORT") { config.port = port }
        if let dev = environment["IRIS_DEV"] { config.development = ["1", "true", "yes"].contains(dev.lowercased()) }
        if let publicMode = environment["IRIS_PUBLIC"] { config.publicMode = ["1", "true", "yes"].contains(publicMode.lowercased()) }
        if let sizes = environment["IRIS_PUBLIC_SIZES"] { config.publicSizes = try Self.sizeLadder(sizes, name: "IRIS_PUBLIC_SIZES") }
        let keys = environment["IRIS_KEY"].map(Self.list) ?? []
        let salts = environment["IRIS_SALT"].map(Self.list) ?? []
        if !keys.isEmpty { config.signingKeys = try Self.signingKeys(keys: keys, salts: salts) }
        if let size = try int("IRIS_SIGNATURE_SIZE") { config.signatureSize = size }
        if let prefixes = environment["IRIS_ALLOWED_SOURCES"] { config.sourcePolicy.allowedPrefixes = Self.list(prefixes) }
        if let root = environment["IRIS_LOCAL_ROOT"] { config.sourcePolicy.localRoot = URL(fileURLWithPath: root) }
        if let kinds = environment["IRIS_ALLOW_ADDRESSES"] {
            config.sourcePolicy.allowedAddressKinds.formUnion(try Self.addressKinds(Self.list(kinds)))
        }
        if let directory = environment["IRIS_CACHE_DIR"] { config.cacheDirectory = URL(fileURLWithPath: directory) }
        if let size = try int("IRIS_CACHE_SIZE") { config.cacheSizeLimit = size }
        if let seconds = try int("IRIS_DOWNLOAD_TIMEOUT") { config.downloadTimeout = .seconds(seconds) }
        if let seconds = try int("IRIS_PROCESSING_TIMEOUT") { config.processingTimeout = .seconds(seconds) }
        if let bytes = try int("IRIS_MAX_SOURCE_BYTES") { config.maxSourceBytes = bytes }
        if let pixels = try int("IRIS_MAX_SOURCE_PIXELS") { config.maxSourcePixels = pixels }
        if let frames = try int("IRIS_MAX_FRAMES") { config.maxAnimationFrames = frames }
        if let pixels = try int("IRIS_MAX_RESULT_PIXELS") { config.maxResultPixels = pixels }
        if let ttl = try int("IRIS_TTL") { config.cacheTTL = ttl }
        if let quality = try int("IRIS_QUALITY") { config.defaultQuality = quality }
        if let workers = try int("IRIS_WORKERS") { config.maxConcurrentRenders = max(1, workers) }
        if let queue = try int("IRIS_QUEUE") { config.maxQueuedRenders = queue }
        if let hints = environment["IRIS_CLIENT_HINTS"] { config.clientHints = ["1", "true", "yes"].contains(hints.lowercased()) }
        if let video = environment["IRIS_VIDEO"] { config.videoSources = ["1", "true", "yes"].contains(video.lowercased()) }
        if let seconds = try int("IRIS_QUEUE_TIMEOUT") { config.queueTimeout = .seconds(seconds) }
        if let downloads = try int("IRIS_DOWNLOADS_PER_HOST") { config.maxDownloadsPerHost = max(1, downloads) }
        if let queue = try int("IRIS_DOWNLOAD_QUEUE_PER_HOST") { config.maxQueuedDownloadsPerHost = queue }
        if let path = environment["IRIS_WATERMARK"] { config.watermarkPath = path }
        if let text = environment["IRIS_WATERMARK_OPACITY"] {
            guard let value = Double(text), (0...1).contains(value) else {
                throw ConfigurationError("IRIS_WATERMARK_OPACITY must be a number from 0 to 1, not \"\(text)\"")
            }
            config.watermarkOpacity = value
        }
        if let host = environment["IRIS_METRICS_HOST"] { config.metricsHost = host }
        if let port = try int("IRIS_METRICS_PORT") { config.metricsPort = port }
        if let directory = environment["IRIS_RESULT_CACHE_DIR"] { config.resultCacheDirectory = URL(fileURLWithPath: directory) }
        if let size = try int("IRIS_RESULT_CACHE_SIZE") { config.resultCacheSizeLimit = size }
        if let seconds = try int("IRIS_RESULT_CACHE_MAX_AGE") { config.resultCacheMaxAge = .seconds(seconds) }
        if let seconds = try int("IRIS_DRAIN_DELAY") { config.drainDelay = .seconds(seconds) }
        if let seconds = try int("IRIS_DRAIN_LIMIT") { config.drainLimit = .seconds(seconds) }
        if let seconds = try int("IRIS_IDLE_TIMEOUT") { config.idleTimeout = seconds > 0 ? .seconds(seconds) : nil }
        if let presets = environment["IRIS_PRESETS"] {
            for entry in presets.split(separator: ";", omittingEmptySubsequences: false) { try config.addPreset(String(entry)) }
        }
        return config
    }

    /// Adds a preset written `name=option/option`, as imgproxy reads `IMGPROXY_PRESETS`: blank
    /// entries and `#` comments are skipped; a missing name or value, or a value that is not
    /// options (a segment without `:`), is an error. Whether each option is valid is checked
    /// when the service starts (``OptionParser/validatePresets()``).
    public mutating func addPreset(_ text: String) throws {
        let entry = text.trimmingCharacters(in: .whitespaces)
        if entry.isEmpty || entry.hasPrefix("#") { return }
        let parts = entry.split(separator: "=", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw ConfigurationError("a preset is name=option/option, not \"\(text)\"")
        }
        let segments = parts[1].split(separator: "/").map(String.init)
        guard segments.allSatisfy({ $0.contains(":") }) else {
            throw ConfigurationError("preset \"\(parts[0])\" holds something that is not an option: \"\(parts[1])\"")
        }
        presets[parts[0]] = segments
    }

    /// Key/salt pairs from hex strings, paired in order.
    public static func signingKeys(keys: [String], salts: [String]) throws -> [SigningKey] {
        guard keys.count == salts.count else { throw ConfigurationError("give as many salts as keys") }
        return try zip(keys, salts).map { key, salt in
            guard let pair = SigningKey(keyHex: key, saltHex: salt) else { throw ConfigurationError("keys and salts must be hex") }
            return pair
        }
    }

    /// A ladder of sizes written `32,48,64` (`name`: the flag or variable, for the error).
    public static func sizeLadder(_ text: String, name: String) throws -> SizeLadder {
        var sizes: [Int] = []
        for item in list(text) {
            guard let size = Int(item), (1...100_000).contains(size) else {
                throw ConfigurationError("\(name) is a comma-separated list of sizes in pixels, not \"\(text)\"")
            }
            sizes.append(size)
        }
        guard !sizes.isEmpty else { throw ConfigurationError("\(name) needs at least one size") }
        return SizeLadder(sizes)
    }

    /// Address kinds by name (`loopback`, `private`, `link-local`, `multicast`, `unspecified`).
    public static func addressKinds(_ names: [String]) throws -> Set<IPAddress.Kind> {
        try Set(
            names.map { name in
                guard let kind = IPAddress.Kind(rawValue: name) else {
                    throw ConfigurationError("unknown address kind \"\(name)\" (loopback, private, link-local, multicast, unspecified)")
                }
                return kind
            })
    }

    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// A configuration value that does not parse.
public struct ConfigurationError: Error, CustomStringConvertible {
    /// What was wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}
