import Foundation
import HTTPTypes
import HummingbirdTesting
import Iris
import IrisServer
import IrisServerCore
import Testing

/// The development playground: its page, its list of local sources, and the URLs it builds,
/// requested from the same service (and, signed, from a service that checks signatures).
@Suite struct PlaygroundTests {
    struct Built: Decodable {
        var path: String
        var url: String
        var original: String
        var options: [String]
        var signed: Bool
    }

    struct Sources: Decodable {
        var sources: [String]
        var signed: Bool
    }

    /// A local root holding images made by Iris's encoders: `photo.jpg` (640×480),
    /// `sub/subject.png` (600×300, the subject off centre), and a hidden file.
    static func withLocalRoot<T>(_ body: (URL) async throws -> T) async throws -> T {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("iris-playground-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try TestImages.photo().write(to: root.appendingPathComponent("photo.jpg"))
        try TestImages.offCentreSubject().write(to: root.appendingPathComponent("sub/subject.png"))
        try Data("x".utf8).write(to: root.appendingPathComponent(".hidden"))
        return try await body(root)
    }

    /// `/playground/url` with `fields` as the page sends them.
    static func query(_ fields: KeyValuePairs<String, String>) -> String { query(pairs: Array(fields)) }

    static func query(pairs fields: [(key: String, value: String)]) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return "/playground/url?"
            + fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed)!)" }
            .joined(separator: "&")
    }

    static func decode<T: Decodable>(_: T.Type, _ response: TestResponse) throws -> T {
        #expect(response.headers[.contentType] == "application/json")
        return try JSONDecoder().decode(T.self, from: response.data)
    }

    @Test func thePageItsScriptAndItsSources() async throws {
        try await Self.withLocalRoot { root in
            let config = Harness.configuration { $0.sourcePolicy.localRoot = root }
            try await Harness.withService(config) { client, _ in
                let page = try await client.get("/playground")
                #expect(page.status == .ok)
                #expect(page.headers[.contentType] == "text/html; charset=utf-8")
                #expect(page.headers[.cacheControl] == "no-store")
                for control in [
                    "<form id=\"form\"", "name=\"rs\"", "name=\"g\"", "value=\"sm\"", "name=\"format\"",
                    "<option>webp</option>", "name=\"q\"", "name=\"bl\"", "name=\"sm\"",
                    "<script src=\"/playground/playground.js\"></script>",
                ] {
                    #expect(page.text.contains(control), "\(control)")
                }
                // Its own script may run (the images' policy, sandboxed, would stop it).
                let policy = try #require(page.headers[.contentSecurityPolicy])
                #expect(policy.contains("script-src 'self'") && policy.contains("connect-src 'self'") && !policy.contains("sandbox"))
                #expect(!policy.contains("unsafe-eval") && !policy.contains("script-src 'self' 'unsafe-inline'"))

                let script = try await client.get("/playground/playground.js")
                #expect(script.status == .ok)
                #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(script.text.contains("/playground/url?") && script.text.contains("Server-Timing"))

                let sources = try Self.decode(Sources.self, await client.get("/playground/sources"))
                #expect(sources.sources == ["local:///photo.jpg", "local:///sub/subject.png"])
                #expect(!sources.signed)
            }
        }
    }

    /// The page's state for a smart crop to WebP: the URL it builds, requested from the same
    /// service, is the image it asked for; the original is the source's size.
    @Test func theURLItBuildsRenders() async throws {
        try await Self.withLocalRoot { root in
            let config = Harness.configuration { $0.sourcePolicy.localRoot = root }
            try await Harness.withService(config) { client, _ in
                let response = try await client.get(
                    Self.query([
                        "source": "local:///sub/subject.png", "rs": "fill", "w": "150",
                        "h": "150", "g": "sm", "format": "webp",
                    ]))
                #expect(response.status == .ok, "\(response.text)")
                let built = try Self.decode(Built.self, response)
                #expect(built.url == "/unsafe/rs:fill/w:150/h:150/g:sm/plain/local:///sub/subject.png@webp")
                #expect(built.path == "/rs:fill/w:150/h:150/g:sm/plain/local:///sub/subject.png@webp")
                #expect(built.options == ["rs:fill", "w:150", "h:150", "g:sm"])
                #expect(built.original == "/unsafe/plain/local:///sub/subject.png")
                #expect(!built.signed)

                let image = try await client.get(built.url)
                #expect(image.status == .ok, "\(image.text)")
                #expect(image.headers[.contentType] == "image/webp")
                #expect(image.headers[.serverTimingName]?.contains("encode;dur=") == true)
                let result = try TestImages.decode(image.data)
                #expect(result.format == .webp)
                #expect(result.bitmap.size == PixelSize(width: 150, height: 150))
                // The crop holds the off-centre subject, which a centre crop misses (WebP's
                // subsampled chroma softens the subject's edges: the bounds are looser than PNG's).
                let smart = RenderingTests.saturatedFraction(result.bitmap)
                let centreURL = try Self.decode(
                    Built.self,
                    await client.get(
                        Self.query([
                            "source": "local:///sub/subject.png", "rs": "fill", "w": "150", "h": "150", "g": "ce", "format": "webp",
                        ]))
                ).url
                let centre = RenderingTests.saturatedFraction(try TestImages.decode(await client.get(centreURL).data).bitmap)
                #expect(smart > 0.06 && centre < 0.03, "smart \(smart), centre \(centre)")

                let original = try await client.get(built.original)
                #expect(original.status == .ok)
                #expect(try TestImages.decode(original.data).bitmap.size == PixelSize(width: 600, height: 300))
            }
        }
    }

    /// Every control reaches the URL: base64 source, focus point, dpr, quality, effects,
    /// metadata, more options; and the URL renders.
    @Test func everyControlReachesTheURL() async throws {
        try await Self.withLocalRoot { root in
            let config = Harness.configuration { $0.sourcePolicy.localRoot = root }
            try await Harness.withService(config) { client, _ in
                let response = try await client.get(
                    Self.query([
                        "source": "local:///photo.jpg", "rs": "fill", "w": "100", "h": "40", "el": "1", "g": "fp", "gx": "0.5",
                        "gy": "0.9", "dpr": "2", "q": "70", "format": "png", "bl": "1", "sh": "0.5", "rot": "90", "bg": "ffffff",
                        "pd": "4", "sm": "0", "extra": "cb:7/ fn:x ", "enc": "base64",
                    ]))
                #expect(response.status == .ok, "\(response.text)")
                let built = try Self.decode(Built.self, response)
                #expect(
                    built.options == [
                        "rs:fill", "w:100", "h:40", "el:1", "g:fp:0.5:0.9", "dpr:2", "q:70", "bl:1", "sh:0.5",
                        "rot:90", "bg:ffffff", "pd:4", "sm:0", "cb:7", "fn:x",
                    ])
                let encoded = built.path.split(separator: "/").dropFirst(built.options.count).joined()
                #expect(encoded == Base64URL.encode(Array("local:///photo.jpg".utf8)) + ".png")

                let image = try await client.get(built.url)
                #expect(image.status == .ok, "\(image.text)")
                #expect(image.headers[.contentType] == "image/png")
                // 100×40 at dpr 2 (of the source turned a quarter first), padded by 4 × 2 on every side.
                #expect(try TestImages.decode(image.data).bitmap.size == PixelSize(width: 200 + 16, height: 80 + 16))
            }
        }
    }

    @Test func formsTheServiceWouldRefuseAreRefusedWithTheReason() async throws {
        try await Harness.withService(Harness.configuration()) { client, _ in
            for (fields, reason) in [
                (["rs": "fill"], "choose a source"),
                (["source": "local:///a.jpg", "rs": "sideways"], "rs"),
                (["source": "local:///a.jpg", "w": "10/plain"], "w may not contain /"),
                (["source": "local:///a.jpg", "extra": "nonsense"], "nonsense"),
                (["source": "ftp://a.test/x.jpg"], "source"),
                (["source": "local:///a.jpg", "format": "bmp"], "bmp"),
            ] as [([String: String], String)] {
                let response = try await client.get(Self.query(pairs: fields.map { ($0.key, $0.value) }))
                #expect(response.status == .badRequest, "\(fields)")
                struct Failure: Decodable { var error: String }
                let failure = try Self.decode(Failure.self, response)
                #expect(failure.error.contains(reason), "\(fields): \(failure.error)")
            }
        }
    }

    /// With a key, the built URL carries its signature, and a service that checks signatures
    /// (not in development mode) serves it.
    @Test func withAKeyTheURLIsSignedAndPasses() async throws {
        try await Self.withLocalRoot { root in
            let dev = Harness.configuration {
                $0.sourcePolicy.localRoot = root
                $0.signingKeys = [Harness.key]
            }
            let built = try await Harness.withService(dev) { client, _ in
                let sources = try Self.decode(Sources.self, await client.get("/playground/sources"))
                #expect(sources.signed)
                return try Self.decode(
                    Built.self,
                    await client.get(
                        Self.query([
                            "source": "local:///photo.jpg", "rs": "fit",
                            "w": "160", "format": "webp",
                        ])))
            }
            #expect(built.signed)
            #expect(built.url == Harness.signed("/unsafe" + built.path))
            #expect(!built.url.hasPrefix("/unsafe/"))

            var production = dev
            production.development = false
            try await Harness.withService(production) { client, _ in
                let image = try await client.get(built.url)
                #expect(image.status == .ok, "\(image.text)")
                #expect(image.headers[.contentType] == "image/webp")
                #expect(try TestImages.decode(image.data).bitmap.size == PixelSize(width: 160, height: 120))
                #expect(try await client.get(built.original).status == .ok)
                // The same path unsigned is refused there: the signature is what passed.
                #expect(try await client.get("/unsafe" + built.path).status == .forbidden)
            }
        }
    }

    /// Without development mode there is no playground: `/playground` is read as an image URL
    /// (and refused), never the page, the script, the sources or a signed URL.
    @Test func notServedOutsideDevelopmentMode() async throws {
        try await Self.withLocalRoot { root in
            let config = Harness.configuration {
                $0.development = false
                $0.signingKeys = [Harness.key]
                $0.sourcePolicy.localRoot = root
            }
            try await Harness.withService(config) { client, _ in
                let page = try await client.get("/playground")
                #expect(page.status == .badRequest)
                #expect(page.headers[.contentType] == "text/plain; charset=utf-8")
                #expect(!page.text.contains("<form"))
                for path in ["/playground/playground.js", "/playground/sources", "/playground/url?source=local:///photo.jpg"] {
                    let response = try await client.get(path)
                    #expect(response.status == .forbidden, "\(path)")
                    #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
                    #expect(response.headers[.contentSecurityPolicy]?.contains("sandbox") == true)
                }
            }
        }
    }
}
