import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Iris
import IrisServer
import IrisServerCore
import Logging
import NIOCore

/// Resolves names from a table (a name the tests made up resolving to a private or metadata
/// address: the refusal is decided on it, no connection is ever made), IP literals as
/// themselves, and nothing else.
struct TableResolver: AddressResolving {
    var names: [String: [String]] = [:]
    func addresses(of host: String) async throws -> [IPAddress] {
        if let literal = IPAddress(host) { return [literal] }
        return (names[host] ?? []).compactMap(IPAddress.init)
    }
}

/// A renderer and its router for one test: a cache folder of its own, loopback sources allowed
/// (the test source server), development mode unless keys are given.
struct Harness {
    static let key = SigningKey(keyHex: "736563726574", saltHex: "68656C6C6F")!

    static func configuration(_ configure: (inout IrisServerConfiguration) -> Void = { _ in }) -> IrisServerConfiguration {
        var config = IrisServerConfiguration()
        config.development = true
        config.cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("iris-server-tests/\(UUID().uuidString)")
        config.sourcePolicy.allowedAddressKinds = [.global, .loopback]
        config.downloadTimeout = .seconds(600)
        config.processingTimeout = .seconds(600)
        config.resultCacheDirectory = nil
        configure(&config)
        return config
    }

    /// Runs `body` with Hummingbird's test client over the service's router.
    static func withService<T: Sendable>(
        _ config: IrisServerConfiguration, resolver: TableResolver = TableResolver(),
        drain: DrainState = DrainState(), logger: Logger = Harness.quietLogger,
        _ body: @Sendable (any TestClientProtocol, ImageRenderer) async throws -> T
    ) async throws -> T {
        let renderer = try ImageRenderer(configuration: config, resolver: resolver)
        defer { removeCaches(of: config) }
        let app = Application(router: IrisServerApplication.router(renderer: renderer, drain: drain, logger: logger))
        return try await app.test(.router) { client in try await body(client, renderer) }
    }

    /// Removes the test's source and result cache folders.
    static func removeCaches(of config: IrisServerConfiguration) {
        try? FileManager.default.removeItem(at: config.cacheDirectory)
        if let results = config.resultCacheDirectory { try? FileManager.default.removeItem(at: results) }
    }

    /// A logger that writes nothing (the request log is tested on its own).
    static let quietLogger = Logger(label: "iris-server-tests") { _ in SwiftLogNoOpLogHandler() }

    /// A result cache folder of the test's own, next to its source cache.
    static func withResultCache(_ config: inout IrisServerConfiguration) {
        config.resultCacheDirectory = config.cacheDirectory.appendingPathExtension("results")
    }

    /// An unsigned path for `source` with `options`, base64url-encoded, split every 16 characters.
    static func path(_ options: [String], source: String, extension ext: String? = nil) -> String {
        let encoded = Base64URL.encode(Array(source.utf8))
        let split = stride(from: 0, to: encoded.count, by: 16).map { start -> String in
            let from = encoded.index(encoded.startIndex, offsetBy: start)
            let to = encoded.index(from, offsetBy: min(16, encoded.count - start))
            return String(encoded[from..<to])
        }.joined(separator: "/")
        let optionPart = options.isEmpty ? "" : "/" + options.joined(separator: "/")
        return "/unsafe" + optionPart + "/" + split + (ext.map { "." + $0 } ?? "")
    }

    /// `path` signed with ``key`` (its first segment replaced by the signature).
    static func signed(_ path: String, size: Int = 32) -> String {
        let rest = String(path.dropFirst().drop { $0 != "/" })
        return "/" + URLSignature(keys: [key], size: size).sign(rest)! + rest
    }
}

extension TestResponse {
    var data: Data { Data(body.readableBytesView) }
    var text: String { String(buffer: body) }
}

extension TestClientProtocol {
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }
}

extension HTTPField.Name {
    static let serverTimingName = HTTPField.Name("Server-Timing")!
    static let xContentTypeOptionsName = HTTPField.Name("X-Content-Type-Options")!
}
