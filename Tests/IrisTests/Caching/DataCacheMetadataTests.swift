import Foundation
import Testing
@testable import Iris
import IrisTestSupport

/// The disk cache keeps each original with its HTTP metadata, written and read as one: a torn
/// entry is a miss, never bytes with the wrong metadata; a folder of the format before metadata
/// is read, its entries without metadata.
@Suite("Disk cache metadata")
struct DataCacheMetadataTests {
    static let metadata = HTTPCacheMetadata(
        headers: [
            "Cache-Control": "max-age=60, stale-while-revalidate=30", "ETag": "\"v1\"", "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT",
            "Content-Type": "image/png",
        ],
        requestTime: Date(timeIntervalSince1970: 1_000), responseTime: Date(timeIntervalSince1970: 1_001.5))

    @Test("bytes and metadata come back together, through a reopened cache; fields a cache does not read are not kept")
    func roundTrip() async throws {
        let folder = temporaryCacheFolder("metadata")
        let payload = cachePattern(count: 5_000, seed: 7)
        let cache = try DataCache(directory: folder)
        cache.store(DataCacheEntry(data: payload, metadata: Self.metadata), for: "k")
        await cache.waitForPendingWrites()
        let entry = try #require(try DataCache(directory: folder).entry(for: "k"))
        #expect(entry.data.count == payload.count && CRC32.checksum(entry.data) == CRC32.checksum(payload))
        #expect(entry.metadata == Self.metadata)
        #expect(entry.metadata?.etag == "\"v1\"")
        #expect(entry.metadata?.headers["content-type"] == nil)
        #expect(entry.metadata?.cacheControl.staleWhileRevalidate == 30)
    }

    @Test("a crash mid-write leaves a miss: every cut of an entry file, and a flipped metadata byte, read as nothing")
    func tornEntries() async throws {
        let folder = temporaryCacheFolder("torn")
        let cache = try DataCache(directory: folder)
        cache.store(DataCacheEntry(data: cachePattern(count: 300, seed: 3), metadata: Self.metadata), for: "k")
        await cache.waitForPendingWrites()
        let path = cache.fileURL(for: "k").path
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let metadataStart = DataCacheEntryFile.headerSize + 1  // the key "k" is one byte
        for cut in stride(from: 0, to: whole.count, by: 7) {
            try whole.prefix(cut).write(to: URL(fileURLWithPath: path))
            #expect(DataCacheEntryFile.read(from: path, key: Array("k".utf8), touch: false).isCorruptOrMissing, "cut at \(cut)")
        }
        var flipped = whole
        flipped[metadataStart + 20] ^= 0x40
        try flipped.write(to: URL(fileURLWithPath: path))
        #expect(DataCacheEntryFile.read(from: path, key: Array("k".utf8), touch: false).isCorruptOrMissing)
        // Through the cache: a miss, and the damaged file is gone.
        #expect(try DataCache(directory: folder).entry(for: "k") == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(
        "an entry written before metadata (format 1) is read as bytes without metadata: stale under HTTP's rules, fresh when kept for ever")
    func formatOneIsRead() throws {
        let folder = temporaryCacheFolder("v1")
        let payload = cachePattern(count: 1_000, seed: 9)
        let key = Array("https://images.test/a.png".utf8)
        // Format 1 as the previous version wrote it: the header checksum covers bytes 0..<24 and the key.
        var header: [UInt8] = Array("IRDC".utf8)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) } }
        append(UInt16(1))
        append(UInt16(0))
        append(UInt32(key.count))
        append(CRC32.checksum(payload))
        append(UInt64(payload.count))
        append(CRC32.checksum(key, continuing: CRC32.checksum(header)))
        append(UInt32(0))
        let file = Data(header + key) + payload
        try file.write(to: folder.appendingPathComponent(DataCache.fileName(for: String(decoding: key, as: UTF8.self))))

        let entry = try #require(try DataCache(directory: folder).entry(for: String(decoding: key, as: UTF8.self)))
        #expect(CRC32.checksum(entry.data) == CRC32.checksum(payload))
        #expect(entry.metadata == nil)
        #expect(!HTTPCacheMetadata.validityWithoutMetadata(policy: HTTPCachePolicy()).isFresh)
        #expect(HTTPCacheMetadata.validityWithoutMetadata(policy: .keepForever).isFresh)
    }

    @Test("freshness as RFC 9111 computes it: max-age over Expires, Age and the time in transit counted, Expires against Date")
    func freshnessArithmetic() {
        let policy = HTTPCachePolicy()
        let sent = Date(timeIntervalSince1970: 10_000), received = sent.addingTimeInterval(2)
        let both = HTTPCacheMetadata(
            headers: ["Cache-Control": "max-age=100", "Expires": HTTPDate.format(sent.addingTimeInterval(5)), "Age": "30"],
            requestTime: sent, responseTime: received)
        #expect(both.freshnessLifetime(policy) == 100)
        #expect(both.age(at: received) == 32)  // Age plus the 2 s the response took
        #expect(both.validity(at: received.addingTimeInterval(67), policy: policy).isFresh)
        #expect(!both.validity(at: received.addingTimeInterval(69), policy: policy).isFresh)
        let expires = HTTPCacheMetadata(
            headers: ["Date": HTTPDate.format(sent), "Expires": HTTPDate.format(sent.addingTimeInterval(300))], requestTime: sent,
            responseTime: sent)
        #expect(expires.freshnessLifetime(policy) == 300)
        let invalid = HTTPCacheMetadata(headers: ["Expires": "0"], requestTime: sent, responseTime: sent)
        #expect(invalid.freshnessLifetime(policy) == 0)
        #expect(CacheControl("max-age=ten").maxAge == 0)
        #expect(CacheControl("max-age=5, max-age=500").maxAge == 5)
        #expect(CacheControl("No-Cache, MUST-REVALIDATE").noCache && CacheControl("No-Cache, MUST-REVALIDATE").mustRevalidate)
        for text in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: 784_111_777), "\(text)")
        }
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("yesterday") == nil)
    }
}

extension DataCacheEntryFile.ReadResult {
    /// Whether the read found no entry to return.
    var isCorruptOrMissing: Bool {
        switch self {
        case .corrupt, .missing: true
        case .hit, .otherKey: false
        }
    }
}
