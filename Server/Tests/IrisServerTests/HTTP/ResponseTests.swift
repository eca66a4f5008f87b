import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Iris
import IrisServer
import IrisServerCore
import Testing

/// The headers a CDN relies on, signatures over HTTP, and the security headers on everything.
@Suite struct ResponseTests {
    @Test func headersOfAnImage() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration { $0.cacheTTL = 3600 }) { client, _ in
                let response = try await client.get(
                    Harness.path(["rs:fit:100:100", "fn:holiday"], source: "\(base)/f/p.jpg", extension: "webp"))
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/webp")
                #expect(response.headers[.contentLength] == String(response.data.count))
                #expect(response.headers[.cacheControl] == "max-age=3600, public")
                #expect(response.headers[.contentDisposition] == "inline; filename=\"holiday.webp\"")
                #expect(response.headers[.xContentTypeOptionsName] == "nosniff")
                #expect(response.headers[.contentSecurityPolicy]?.contains("sandbox") == true)
                let timing = try #require(response.headers[.serverTimingName])
                for part in ["fetch;dur=", "decode;dur=", "process;dur=", "encode;dur="] { #expect(timing.contains(part)) }
                let etag = try #require(response.headers[.eTag])
                #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))

                let again = try await client.get(
                    Harness.path(["rs:fit:100:100", "fn:holiday"], source: "\(base)/f/p.jpg", extension: "webp"),
                    headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified)
                #expect(again.headers[.eTag] == etag && again.body.readableBytes == 0)
                #expect(again.headers[.cacheControl] == "max-age=3600, public")

                let busted = try await client.get(
                    Harness.path(["rs:fit:100:100", "fn:holiday", "cb:2"], source: "\(base)/f/p.jpg", extension: "webp"),
                    headers: [.ifNoneMatch: etag])
                #expect(busted.status == .ok && busted.headers[.eTag] != etag)
                let other = try await client.get(Harness.path(["rs:fit:100:100"], source: "\(base)/f/p.jpg", extension: "png"))
                #expect(other.headers[.eTag] != etag)
                #expect(other.headers[.contentDisposition] == "inline; filename=\"p.png\"")
            }
        }
    }

    @Test func attachmentAndExpiresShortenTheTTL() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration()) { client, _ in
                let expires = Int(Date().timeIntervalSince1970) + 600
                let response = try await client.get(
                    Harness.path(["w:50", "att:1", "exp:\(expires)"], source: "\(base)/f/p.jpg", extension: "jpg"))
                #expect(response.headers[.contentDisposition] == "attachment; filename=\"p.jpg\"")
                let maxAge = try #require(response.headers[.cacheControl]).split(separator: "=")[1].split(separator: ",")[0]
                #expect(Int(maxAge)! <= 600 && Int(maxAge)! > 0)
                let expired = try await client.get(Harness.path(["w:50", "exp:1000"], source: "\(base)/f/p.jpg", extension: "jpg"))
                #expect(expired.status == .notFound && expired.headers[.cacheControl] == "no-store")
            }
        }
    }

    @Test func signaturesOverHTTP() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            let signedConfig = Harness.configuration {
                $0.development = false
                $0.signingKeys = [Harness.key]
            }
            try await Harness.withService(signedConfig) { client, _ in
                let path = Harness.path(["w:40"], source: "\(base)/f/p.jpg", extension: "png")
                #expect(try await client.get(Harness.signed(path)).status == .ok)
                let unsigned = try await client.get(path)
                #expect(unsigned.status == .forbidden && unsigned.text == "invalid signature\n")
                #expect(unsigned.headers[.cacheControl] == "no-store" && unsigned.headers[.xContentTypeOptionsName] == "nosniff")
                #expect(try await client.get(Harness.signed(path, size: 8)).status == .forbidden)
                var tampered = Harness.signed(path)
                tampered = tampered.replacingOccurrences(of: "w:40", with: "w:41")
                #expect(try await client.get(tampered).status == .forbidden)
            }
            var truncated = signedConfig
            truncated.signatureSize = 8
            try await Harness.withService(truncated) { client, _ in
                let path = Harness.path(["w:40"], source: "\(base)/f/p.jpg", extension: "png")
                let short = try await client.get(Harness.signed(path, size: 8))
                let long = try await client.get(Harness.signed(path))
                #expect(short.status == .ok && long.status == .forbidden)
            }
            // No key and no development mode: nothing is served.
            try await Harness.withService(Harness.configuration { $0.development = false }) { client, _ in
                let response = try await client.get(Harness.path(["w:40"], source: "\(base)/f/p.jpg"))
                #expect(response.status == .forbidden)
            }
        }
    }

    @Test func clientHintsSetTheDefaultDPR() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration { $0.clientHints = true }) { client, _ in
                let path = Harness.path(["w:100"], source: "\(base)/f/p.jpg", extension: "png")
                let hinted = try await client.get(path, headers: [.init("Sec-CH-DPR")!: "2"])
                #expect(try TestImages.decode(hinted.data).bitmap.width == 200)
                #expect(hinted.headers[.init("Accept-CH")!] == "DPR, Sec-CH-DPR, Width, Sec-CH-Width")
                #expect(hinted.headers[.vary]?.contains("Sec-CH-DPR") == true)
                let plain = try await client.get(path)
                #expect(try TestImages.decode(plain.data).bitmap.width == 100 && plain.headers[.eTag] != hinted.headers[.eTag])
                let explicit = try await client.get(
                    Harness.path(["w:100", "dpr:3"], source: "\(base)/f/p.jpg", extension: "png"),
                    headers: [.init("DPR")!: "2"])
                #expect(try TestImages.decode(explicit.data).bitmap.width == 300)
            }
            // Off by default: the hint is ignored.
            try await Harness.withService(Harness.configuration()) { client, _ in
                let response = try await client.get(
                    Harness.path(["w:100"], source: "\(base)/f/p.jpg", extension: "png"),
                    headers: [.init("DPR")!: "2"])
                #expect(try TestImages.decode(response.data).bitmap.width == 100 && response.headers[.init("Accept-CH")!] == nil)
            }
        }
    }

    @Test func headHasTheHeadersWithoutTheBody() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration()) { client, _ in
                let path = Harness.path(["w:64"], source: "\(base)/f/p.jpg", extension: "jpg")
                let get = try await client.get(path)
                let head = try await client.execute(uri: path, method: .head)
                #expect(head.status == .ok && head.body.readableBytes == 0)
                #expect(head.headers[.contentLength] == String(get.data.count) && head.headers[.eTag] == get.headers[.eTag])
            }
        }
    }

    /// The service itself on a live loopback port, over real HTTP, against the live source.
    @Test func liveOverLoopback() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            var config = Harness.configuration()
            config.port = 0
            let renderer = try ImageRenderer(configuration: config, resolver: TableResolver())
            defer { try? FileManager.default.removeItem(at: config.cacheDirectory) }
            let app = Application(
                router: IrisServerApplication.router(renderer: renderer),
                configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await app.test(.live) { client in
                // Requests through URLSession, whose timeout only detects a hang: the live test
                // client gives up after 20 s, which a render on a loaded machine can take.
                let port = try #require(client.port)
                let response = try await Self.get(
                    Harness.path(["rs:fill:120:80"], source: "\(base)/f/p.jpg", extension: "webp"), port: port)
                #expect(response.status == 200 && response.contentType == "image/webp")
                #expect(try TestImages.decode(response.body).bitmap.size == PixelSize(width: 120, height: 80))
                // A source port nobody listens on: a 502, the address not named.
                let refused = try await Self.get(Harness.path([], source: "http://127.0.0.1:1/x.jpg"), port: port)
                #expect(refused.status == 502 && !String(decoding: refused.body, as: UTF8.self).contains("127.0.0.1"))
            }
        }
    }

    /// GETs `path` from 127.0.0.1:`port` over real HTTP: the status, the content type, the body.
    static func get(_ path: String, port: Int) async throws -> (status: Int, contentType: String?, body: Data) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 600
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let url = try #require(URL(string: "http://127.0.0.1:\(port)\(path)"))
        let (body, response) = try await session.data(for: URLRequest(url: url))
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http.value(forHTTPHeaderField: "Content-Type"), body)
    }

    @Test func badOptionsAreA400NamingThem() async throws {
        try await Harness.withService(Harness.configuration()) { client, _ in
            let response = try await client.get("/unsafe/wat:1/plain/http://127.0.0.1:9/x.jpg")
            #expect(response.status == .badRequest && response.text.contains("\"wat\""))
            #expect(response.headers[.contentSecurityPolicy] != nil)
            let health = try await client.get("/health")
            #expect(health.status == .ok && health.headers[.xContentTypeOptionsName] == "nosniff")
        }
    }
}
