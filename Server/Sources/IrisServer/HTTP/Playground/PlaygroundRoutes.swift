import Foundation
import HTTPTypes
import Hummingbird
import IrisServerCore

/// The playground of development mode, under `/playground`: the page, its script, the list of
/// local sources, and the URL its form builds, signed by the server (never by the page).
///
/// - `GET /playground`: the page (its query, the form's fields, is the state it shows).
/// - `GET /playground/playground.js`: the page's script.
/// - `GET /playground/sources`: `{"sources": ["local:///name", …], "signed": bool}`.
/// - `GET /playground/url?source=…&rs=…`: `{"path", "url", "original", "options", "signed"}`, the
///   URL of the form's options (see ``PlaygroundForm``) and of the source with none, each read
///   back as the service reads a request (signature, options, source) before it is answered;
///   a form the service would refuse: 400 `{"error": reason}`.
struct PlaygroundRoutes: Sendable {
    /// The configuration of the service the URLs are for (keys, presets, local root).
    var configuration: IrisServerConfiguration

    /// The policy of the page: its own script, inline styles, images from the service or
    /// `blob:`, requests to the service only.
    static let pageContentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; "
        + "img-src 'self' blob:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// Adds the routes to `router`.
    func add(to router: Router<BasicRequestContext>) {
        router.get("/playground") { _, _ in
            var headers = Self.headers("text/html; charset=utf-8")
            headers[.contentSecurityPolicy] = Self.pageContentSecurityPolicy
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: PlaygroundPage.html)))
        }
        router.get("/playground/playground.js") { _, _ in
            Response(
                status: .ok, headers: Self.headers("text/javascript; charset=utf-8"),
                body: ResponseBody(byteBuffer: ByteBuffer(string: PlaygroundScript.javaScript)))
        }
        router.get("/playground/sources") { _, _ in
            Self.json(
                SourceList(
                    sources: PlaygroundSources.list(root: configuration.sourcePolicy.localRoot),
                    signed: configuration.urlSignature != nil))
        }
        router.get("/playground/url") { request, _ in
            var fields: [String: String] = [:]
            for (name, value) in request.uri.queryParameters { fields[String(name)] = String(value) }
            do throws(ServeError) {
                return Self.json(try build(fields))
            } catch {
                return Self.json(Failure(error: error.reason), status: HTTPResponse.Status(code: error.status))
            }
        }
    }

    /// The URLs of the form `fields`, each read back as the service would read it.
    func build(_ fields: [String: String]) throws(ServeError) -> BuiltURL {
        let form = try PlaygroundForm(fields: fields)
        let signature = configuration.urlSignature
        let builder = ImgproxyURLBuilder(signature: signature)
        let path = builder.path(options: form.options, source: form.source, extension: form.fileExtension, encoding: form.encoding)
        let url = builder.signed(path)
        let original = builder.url(options: [], source: form.source, encoding: form.encoding)
        // Unsigned URLs pass only when there is no key: with one, its signature is checked.
        let reader = ImgproxyURL(
            signature: signature, acceptsUnsigned: signature == nil,
            options: OptionParser(presets: configuration.presets))
        _ = try reader.parse(url)
        _ = try reader.parse(original)
        return BuiltURL(path: path, url: url, original: original, options: form.options, signed: signature != nil)
    }

    /// The answer of `/playground/url`.
    struct BuiltURL: Codable, Sendable, Equatable {
        /// The signed part: options and source.
        var path: String
        /// The URL of the image (signature and path), relative to the service.
        var url: String
        /// The URL of the source with no options, for comparison.
        var original: String
        /// The option segments.
        var options: [String]
        /// Whether the URLs are signed (a key is configured) or `unsafe`.
        var signed: Bool
    }

    struct SourceList: Codable, Sendable {
        var sources: [String]
        var signed: Bool
    }

    struct Failure: Codable, Sendable {
        var error: String
    }

    static func headers(_ contentType: String) -> HTTPFields {
        [.contentType: contentType, .cacheControl: "no-store"]
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(status: status, headers: headers("application/json"), body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
