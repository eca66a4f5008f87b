import Foundation
import Iris
import IrisServerCore
import NIOPosix

/// Encoded results on disk, in Iris's ``DataCache`` (written atomically, so a crash leaves
/// whole entries or none; bounded by size, least recently used first out), so a repeat of a
/// URL is answered without fetching or decoding. An entry is keyed by the signed path, the
/// format the request gets (the one it names, or what its `Accept` allows), the dpr and width (client hints); it
/// holds the bytes, the format, the ETag and when it was made, and is dropped once older than
/// ``maxAge``. Only finished images are stored: errors never are.
package final class ResultCache: Sendable {
    /// The entries on disk.
    package let storage: DataCache
    /// How long an entry serves; `nil`: until the size limit pushes it out.
    package let maxAge: Duration?

    /// A cached result.
    package struct Entry: Sendable, Equatable {
        /// The encoded bytes.
        package var data: Data
        /// Their format.
        package var format: OutputFormat
        /// Whether the format was chosen from `Accept`.
        package var negotiated: Bool
        /// The result's strong validator.
        package var etag: String
        /// When it was made (seconds since 1970).
        package var created: Int

        /// Makes an entry.
        package init(data: Data, format: OutputFormat, negotiated: Bool, etag: String, created: Int) {
            self.data = data
            self.format = format
            self.negotiated = negotiated
            self.etag = etag
            self.created = created
        }
    }

    /// Opens (or makes) the cache in `directory`, at most `sizeLimit` bytes.
    package init(directory: URL, sizeLimit: Int, maxAge: Duration? = nil) throws {
        storage = try DataCache(directory: directory, sizeLimit: sizeLimit)
        self.maxAge = maxAge
    }

    /// The result cache `configuration` asks for: `nil` without a folder or with a size limit of 0.
    static func configured(_ configuration: IrisServerConfiguration) throws -> ResultCache? {
        guard let directory = configuration.resultCacheDirectory, configuration.resultCacheSizeLimit > 0 else { return nil }
        return try ResultCache(
            directory: directory, sizeLimit: configuration.resultCacheSizeLimit, maxAge: configuration.resultCacheMaxAge)
    }

    /// The key of a request: its signed path, the negotiation it falls in and its dpr.
    /// `formats` is the format asked for by name, or what `Accept` leads to for each kind of
    /// source (opaque, with alpha, animated), so two clients share an entry only when they
    /// would get the same format.
    package static func key(signedPath: String, formats: String, dpr: Double, width: Int = 0) -> String {
        "iris-result 1\n\(signedPath)\n\(formats)\ndpr \(dpr)" + (width != 0 ? "\nwidth \(width)" : "")
    }

    /// The entry for `key` at `now`, read on NIO's blocking-I/O pool (never on a cooperative
    /// thread); a damaged or expired entry is removed and missed.
    package func entry(for key: String, now: Date = Date()) async -> Entry? {
        let storage = storage
        guard let bytes = try? await NIOThreadPool.singleton.runIfActive({ storage.data(for: key) }) else { return nil }
        guard let entry = Self.decode(bytes) else {
            storage.remove(for: key)
            return nil
        }
        if let maxAge, Int(now.timeIntervalSince1970) - entry.created >= Int(maxAge.components.seconds) {
            storage.remove(for: key)
            return nil
        }
        return entry
    }

    /// Stores `entry` for `key` (the write happens in the background).
    package func store(_ entry: Entry, for key: String) {
        storage.store(Self.encode(entry), for: key)
    }

    /// An entry as bytes: a header line (magic, format, negotiated, created, ETag), then the image.
    static func encode(_ entry: Entry) -> Data {
        var data = Data("IRISRESULT1 \(entry.format.rawValue) \(entry.negotiated ? 1 : 0) \(entry.created) \(entry.etag)\n".utf8)
        data.append(entry.data)
        return data
    }

    /// The entry in `bytes`, `nil` when they are not one.
    static func decode(_ bytes: Data) -> Entry? {
        guard let newline = bytes.prefix(256).firstIndex(of: UInt8(ascii: "\n")),
            let header = String(data: bytes[bytes.startIndex..<newline], encoding: .utf8)
        else { return nil }
        let fields = header.split(separator: " ", maxSplits: 4).map(String.init)
        guard fields.count == 5, fields[0] == "IRISRESULT1", let format = OutputFormat(rawValue: fields[1]),
            let created = Int(fields[3]), fields[2] == "0" || fields[2] == "1"
        else { return nil }
        return Entry(data: Data(bytes[(newline + 1)...]), format: format, negotiated: fields[2] == "1", etag: fields[4], created: created)
    }
}

/// The result cache's step of an image request (``ImageRoutes/answer(_:)``): what a lookup
/// found, and the key a new result is stored under.
struct ResultLookup: Sendable {
    /// The key of the request's result; `nil` without a result cache.
    var key: String?
    /// How long the lookup took.
    var duration: Duration = .zero
    /// The answer when the cache had the result (the image, or a 304).
    var hit: ServeResult?
}

extension ImageRenderer {
    /// Looks `request`'s result up in the result cache (when there is one): a hit is the
    /// answer, a 304 when `ifNoneMatch` names its ETag.
    func lookUpResult(of request: ServeRequest, accept: String?, ifNoneMatch: String?, now: Date) async -> ResultLookup {
        guard let resultCache else { return ResultLookup() }
        let clock = ContinuousClock()
        let started = clock.now
        let key = ResultCache.key(
            signedPath: request.signedPath, formats: formatsKey(request, accept: accept), dpr: request.options.dpr,
            width: request.options.width)
        var lookup = ResultLookup(key: key)
        let entry = await resultCache.entry(for: key, now: now)
        lookup.duration = started.duration(to: clock.now)
        metrics.resultCache(hit: entry != nil)
        guard let entry else { return lookup }
        var timings = RenderTimings()
        timings.resultCacheHit = true
        timings.resultCacheLookup = lookup.duration
        if let ifNoneMatch, ETag.matches(ifNoneMatch, etag: entry.etag) {
            lookup.hit = .notModified(
                PreparedRender(
                    request: request, data: Data(), format: entry.format, negotiated: entry.negotiated,
                    isAnimated: false, etag: entry.etag, timings: timings))
        } else {
            lookup.hit = .image(
                RenderedImage(
                    request: request, data: entry.data, format: entry.format, negotiated: entry.negotiated,
                    etag: entry.etag, timings: timings))
        }
        return lookup
    }

    /// Stores a new result under the lookup's key (when there is a result cache), noting the
    /// miss in its timings.
    func store(_ image: inout RenderedImage, lookup: ResultLookup, now: Date) {
        guard let resultCache, let key = lookup.key else { return }
        image.timings.resultCacheHit = false
        image.timings.resultCacheLookup = lookup.duration
        resultCache.store(
            ResultCache.Entry(
                data: image.data, format: image.format, negotiated: image.negotiated,
                etag: image.etag, created: Int(now.timeIntervalSince1970)), for: key)
    }

    /// The part of a result cache key that stands for the format: the one named, or for a
    /// negotiated one, what `accept` leads to for an opaque, a transparent and an animated source.
    func formatsKey(_ request: ServeRequest, accept: String?) -> String {
        if let requested = request.requestedFormat { return requested.rawValue }
        var choices: [String] = []
        for source in [nil] + FormatNegotiation.preferred {
            for (alpha, animated) in [(false, false), (true, false), (false, true), (true, true)] {
                choices.append(negotiation.choose(accept: accept, hasAlpha: alpha, isAnimated: animated, source: source).rawValue)
            }
        }
        return "accept " + choices.joined(separator: ",")
    }
}
