import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``ImageService`` speaking imgproxy's URL format, for imgproxy itself and Iris Server:
/// `BASE/SIGNATURE/rs:fill:W:H[/g:sm]/plain/SOURCE@webp`.
///
/// The app carries no key. Either the service accepts unsigned URLs for the sizes of the ladder
/// (Iris Server's public mode: `--public`, which refuses other sizes, sources off its list and
/// options the client may not set), or the app's backend signs each path
/// (``Signing/signer(_:)``; a signature is asked for once per path and kept).
///
/// ```swift
/// let pipeline = ImagePipeline {
///     $0.imageService = ImgproxyService(baseURL: URL(string: "https://images.example.com")!)
/// }
/// ```
public struct ImgproxyService: ImageService {
    /// How URLs are signed.
    public enum Signing: Sendable {
        /// Not signed: the path's signature segment is `placeholder` (imgproxy with signatures
        /// off, Iris Server's public mode).
        case unsigned(placeholder: String = "insecure")
        /// Signed by `sign`, given the path after the signature (`/rs:fill:.../plain/...@webp`)
        /// and returning its signature (imgproxy's base64url HMAC): typically a call to the app's
        /// backend, which holds the key.
        case signer(@Sendable (_ path: String) async throws -> String)
    }

    /// The service's address (its path prefix included).
    public let baseURL: URL
    /// The sizes asked for.
    public let ladder: SizeLadder
    /// The formats asked for, best first; the first the pipeline's decoders read is used.
    public let formats: [ImageFormat]
    /// imgproxy's gravity for fills (`sm`: smart, `ce`: centre...); `nil` leaves the service's.
    public let gravity: String?
    /// How URLs are signed.
    public let signing: Signing
    /// The hosts whose images the service renders; `nil`: every `http(s)` source.
    public let sourceHosts: Set<String>?
    /// Whether the service keeps an animated GIF or APNG moving in its rendition: imgproxy and
    /// Iris Server do (an animated WebP or GIF), unless told otherwise.
    public let keepsAnimations: Bool
    private let signatures = SignatureCache()

    /// A service at `baseURL`.
    /// - Parameters:
    ///   - baseURL: Where the service answers (`https://images.example.com`).
    ///   - ladder: The sizes asked for (``SizeLadder/standard``).
    ///   - formats: The formats to ask for, best first (WebP: every platform Iris runs on decodes
    ///     it, animations included; add `.avif` first where the service encodes it fast enough).
    ///   - gravity: imgproxy's gravity for fills (`"sm"` for smart crops).
    ///   - signing: Unsigned (the default) or signed by the app's backend.
    ///   - sourceHosts: The hosts the service renders; `nil` for every host.
    ///   - keepsAnimations: Whether the service's renditions of animations move (imgproxy's and
    ///     Iris Server's do); `false` sends GIF and APNG sources to their originals.
    public init(
        baseURL: URL, ladder: SizeLadder = .standard, formats: [ImageFormat] = [.webp], gravity: String? = nil,
        signing: Signing = .unsigned(), sourceHosts: Set<String>? = nil, keepsAnimations: Bool = true
    ) {
        self.keepsAnimations = keepsAnimations
        self.baseURL = baseURL
        self.ladder = ladder
        self.formats = formats
        self.gravity = gravity
        self.signing = signing
        self.sourceHosts = sourceHosts.map { Set($0.map { $0.lowercased() }) }
    }

    /// The base URL, the ladder, the formats and the gravity.
    public var cacheIdentity: String {
        "imgproxy \(baseURL.absoluteString) \(ladder.steps.map(String.init).joined(separator: ",")) "
            + formats.map(\.rawValue).joined(separator: ",") + " g:\(gravity ?? "")"
    }

    /// The box of the ladder for `target`, in the first of ``formats`` (the pipeline keeps only
    /// formats its decoders read).
    public func rendition(for target: DecodeTarget) -> ImageRendition {
        let box = ladder.box(for: target)
        return ImageRendition(width: box.width, height: box.height, contentMode: target.contentMode, format: formats.first)
    }

    /// `http(s)` sources, on ``sourceHosts`` when set.
    public func renders(_ source: URL) -> Bool {
        let scheme = source.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else { return false }
        guard let sourceHosts else { return true }
        return source.host.map { sourceHosts.contains($0.lowercased()) } ?? false
    }

    /// The path after the signature: the processing options, then the source, plain and
    /// percent-encoded, with the format as its extension.
    public func path(for source: URL, rendition: ImageRendition) -> String {
        var options = ["rs:\(rendition.contentMode == .fill ? "fill" : "fit"):\(rendition.width):\(rendition.height)"]
        if rendition.contentMode == .fill, let gravity { options.append("g:\(gravity)") }
        let encoded =
            source.absoluteString.addingPercentEncoding(withAllowedCharacters: Self.plainSourceCharacters)
            ?? source.absoluteString
        let format = rendition.format?.fileExtension.map { "@" + $0 } ?? ""
        return "/" + options.joined(separator: "/") + "/plain/" + encoded + format
    }

    /// The signed URL of `rendition` of `source`.
    public func url(for source: URL, rendition: ImageRendition) async throws -> URL {
        let path = path(for: source, rendition: rendition)
        let signature: String
        switch signing {
        case .unsigned(let placeholder): signature = placeholder
        case .signer(let sign): signature = try await signatures.signature(for: path, sign: sign)
        }
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        guard let url = URL(string: base + "/" + signature + path) else {
            throw ImageError.dataLoadingFailed(reason: "the image service's URL for \(source.absoluteString) is not a URL")
        }
        return url
    }

    /// A GET of ``url(for:rendition:)``.
    public func urlRequest(for source: URL, rendition: ImageRendition) async throws -> URLRequest {
        URLRequest(url: try await url(for: source, rendition: rendition))
    }

    /// The service refused a URL (401, 403: a rotated key): every kept signature is forgotten, so
    /// the next URLs are signed again.
    public func didRefuseCredentials() {
        signatures.removeAll()
    }

    /// What a plain source keeps as it is: unreserved characters and the URL's own delimiters,
    /// except those imgproxy's path reads (`@` ends the source, `?`/`#` would end the path, `%`
    /// is escaped so the source's own escapes survive).
    private static let plainSourceCharacters: CharacterSet = {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~:/!$&'()*+,;=")
        return allowed
    }()
}

/// Signatures already given, by path: a path is signed once, and the most recently used
/// ``capacity`` are kept (the least recently used go first).
final class SignatureCache: Sendable {
    /// How many signatures are kept.
    static let capacity = 1_000

    private struct Entries {
        var signatures: [String: (signature: String, lastUse: UInt64)] = [:]
        var uses: UInt64 = 0
    }

    private let entries = LockedState(Entries())

    /// How many signatures are kept now.
    var count: Int { entries.withLock { $0.signatures.count } }

    func signature(for path: String, sign: @Sendable (String) async throws -> String) async throws -> String {
        let known = entries.withLock { state -> String? in
            guard let known = state.signatures[path] else { return nil }
            state.uses += 1
            state.signatures[path] = (known.signature, state.uses)
            return known.signature
        }
        if let known { return known }
        let signature = try await sign(path)
        entries.withLock { state in
            state.uses += 1
            state.signatures[path] = (signature, state.uses)
            guard state.signatures.count > Self.capacity else { return }
            // Over the bound: the least recently used eighth goes at once (one sort per eighth).
            let dropped = state.signatures.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(Self.capacity / 8)
            for (path, _) in dropped { state.signatures[path] = nil }
        }
        return signature
    }

    /// Forgets every signature.
    func removeAll() {
        entries.withLock { $0.signatures.removeAll() }
    }
}
