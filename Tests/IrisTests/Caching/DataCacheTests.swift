import Foundation
import IrisSamples
import Testing
@testable import Iris
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IrisTestSupport

/// A fresh directory under the temporary directory; removed by `cleanUp`.
private func makeDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("iris-datacache-\(UUID().uuidString)")
}

private func cleanUp(_ directory: URL) {
    try? FileManager.default.removeItem(at: directory)
}

/// `count` bytes derived from `seed`: what a test means to store, reproducible to verify.
func cachePattern(count: Int, seed: UInt64) -> Data {
    var generator = SplitMix(seed: seed)
    var data = Data(count: count)
    data.withUnsafeMutableBytes { buffer in
        var index = 0
        while index < count {
            var word = generator.next()
            let chunk = min(8, count - index)
            withUnsafeBytes(of: &word) { buffer.baseAddress!.advanced(by: index).copyMemory(from: $0.baseAddress!, byteCount: chunk) }
            index += chunk
        }
    }
    return data
}

/// Names of the files in `directory`.
private func fileNames(in directory: URL) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
}

/// Sum of the sizes of the entry files in `directory`.
private func entryBytes(in directory: URL) -> Int {
    fileNames(in: directory).filter(DataCache.isEntryName).reduce(0) { total, name in
        let size = (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size]) as? NSNumber
        return total + (size?.intValue ?? 0)
    }
}

/// Flips every bit of the byte at `offset` of the file at `url`.
private func flipByte(at offset: Int, in url: URL) throws {
    var bytes = try Data(contentsOf: url)
    bytes[offset] ^= 0xFF
    try bytes.write(to: url)
}

/// CRC-32 bit by bit (ISO 3309, reflected polynomial 0xEDB88320): the reference the disk
/// cache's table-driven checksum is compared with.
private func referenceCRC32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

@Suite("Disk cache")
struct DataCacheTests {
    @Test func checksumsMatchReference() {
        // The standard CRC-32 check value of "123456789".
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        for count in [0, 1, 7, 8, 9, 63, 64, 65, 1_000, 4_099] {
            let bytes = [UInt8](cachePattern(count: count, seed: UInt64(count)))
            #expect(CRC32.checksum(bytes) == referenceCRC32(bytes))
            // Continuing over two halves equals one pass.
            let half = count / 2
            #expect(CRC32.checksum(bytes[half...], continuing: CRC32.checksum(bytes[..<half])) == CRC32.checksum(bytes))
        }
        let name = DataCache.fileName(for: "https://example.com/a.jpg")
        #expect(DataCache.isEntryName(name))
        #expect(name != DataCache.fileName(for: "https://example.com/b.jpg"))
        #expect(name == DataCache.fileName(for: "https://example.com/a.jpg"))
    }

    @Test func roundTripPendingAndOnDisk() async throws {
        let directory = makeDirectory()
        defer { cleanUp(directory) }
        let cache = try DataCache(directory: directory)
        let payload = cachePattern(count: 100_000, seed: 1)
        cache.store(payload, for: "a")
        // A read right after a store is a hit, written or not.
        expectSameBytes(cache.data(for: "a"), payload)
        #expect(cache.data(for: "b") == nil)
        await cache.waitForPendingWrites()
        #expect(FileManager.default.fileExists(atPath: cache.fileURL(for: "a").path))
        expectSameBytes(cache.data(for: "a"), payload)
        #expect(cache.totalSize == entryBytes(in: directory))
        #expect(cache.totalSize == DataCacheEntryFile.fileSize(keyCount: 1, payloadCount: payload.count))
        // Empty data is an entry too.
        cache.store(Data(), for: "empty")
        await cache.waitForPendingWrites()
        #expect(cache.data(for: "empty") == Data())
        // Replacing.
        let second = cachePattern(count: 5_000, seed: 2)
        cache.store(second, for: "a")
        await cache.waitForPendingWrites()
        expectSameBytes(cache.data(for: "a"), second)
        #expect(cache.count == 2)
        #expect(cache.totalSize == entryBytes(in: directory))
    }

    @Test func survivesRestart() async throws {
        let directory = makeDirectory()
        defer { cleanUp(directory) }
        let keys = (0..<10).map { "https://example.com/photo-\($0).jpg" }
        let first = try DataCache(directory: directory)
        for (index, key) in keys.enumerated() { first.store(cachePattern(count: 1_000 * (index + 1), seed: UInt64(index)), for: key) }
        await first.waitForPendingWrites()
        let reopened = try DataCache(directory: directory)
        #expect(reopened.count == keys.count)
        #expect(reopened.totalSize == first.totalSize)
        #expect(reopened.totalSize == entryBytes(in: directory))
        for (index, key) in keys.enumerated() {
            expectSameBytes(reopened.data(for: key), cachePattern(count: 1_000 * (index + 1), seed: UInt64(index)))
        }
    }

    @Test func restartKeepsAccessOrder() async throws {
        let directory = makeDirectory()
        defer { cleanUp(directory) }
        let cache = try DataCache(directory: directory)
        for key in ["a", "b", "c"] {
            cache.store(Data(key.utf8), for: key)
            await cache.waitForPendingWrites()
            try await Task.sleep(for: .milliseconds(30))  // file times are only a few ms fine
        }
        #expect(cache.data(for: "a") != nil)  // refreshes the file's time as well
        let expected = ["a", "c", "b"].map(DataCache.fileName)
        #expect(cache.fileNamesByRecency == expected)
        let reopened = try DataCache(directory: directory)
        #expect(reopened.fileNamesByRecency == expected)
    }

    @Test func truncatedFileIsMissAndRemoved() async throws {
        let directory = makeDirectory()
        defer { cleanUp(directory) }
        let cache = try DataCache(directory: directory)
        let payload = cachePattern(count: 20_000, seed: 3)
        for cut in [1, 10_000, 19_999 + 32 + 1] {
            cache.store(payload, for: "k")
            await cache.waitForPendingWrites()
            let url = cache.fileURL(for: "k")
            let full = try Data(contentsOf: url)
            try full.prefix(full.count - cut).write(to: url)
            #expect(cache.data(for: "k") == nil)
            #expect(!FileManager.default.fileExists(atPath: url.path))
            #expect(cache.totalSize == 0)
        }
        // A file shorter than a header, and an empty one.
        for length in [0, 5] {
            cache.store(payload, for: "k")
            await cache.waitForPendingWrites()
            try Data(repeating: 0x49, count: length).write(to: cache.fileURL(for: "k"))
            #expect(cache.data(for: "k") == nil)
            #expect(!FileManager.default.fileExists(atPath: cache.fileURL(for: "k").path))
        }
    }

    @Test func bitFlippedPayloadIsMissAndRemoved() async throws {
        let directory = makeDirectory()
        defer { cleanUp(directory) }
        let cache = try DataCache(directory: directory)
        let payload = cachePattern(count: 50_000, seed: 4)
        let fileSize = DataCacheEntryFile.fileSize(keyCount: 1, payloadCount: payload.count)
        for offset in [DataCacheEntryFile.headerSize + 1, fileSize / 2, fileSize - 1] {
            cache.store(payload, for: "k")
            await cache.waitForPendingWrites()
            try flipByte(at: offset, in: cache.fileURL(for: "k"))
            #expect(cache.data(for: "k") == nil)
            #expect(!FileManager.default.fileExists(atPath: cache.fileURL(for: "k").path))
            #expect(cache.count == 0)
        }
    }

    @Test func everyHeaderByteIsChecked() async throws {
        let directory = makeDirectory()
        defer { cleanUp(directory) }
        let cache = try DataCache(directory: directory)
        let key = "https://example.com/x.png"
        let payload = cachePattern(count: 3_000, seed: 5)
        for offset in 0..<(DataCacheEntryFile.headerSize + key.utf8.count) {
            cache.store(payload, for: key)
            await cache.waitForPendingWrites()
            expectSameBytes(cache.data(for: key), payload)
            try flipByte(at: offset, in: cache.fileURL(for: key))
            #expect(cache.data(for: key) == nil, "flipped header byte \(offset) went unnoticed")
            #expect(!FileManager.default.fileExists(atPath: cache.fileURL(for: key).path))
        }
    }

    @Test func fileOfAnotherKeyIsNotServed() async throws {
        let directory = makeDirectory()
        defer { cleanUp(directory) }
        let cache = try DataCache(directory: directory)
        cache.store(Data("payload of a".utf8), for: "a")
        await cache.waitForPendingWrites()
        // Pretend "a" and "b" collide: put a's file under b's name.
        try FileManager.default.copyItem(at: cache.fileURL(for: "a"), to: cache.fileURL(for: "b"))
        let reopened = try DataCache(directory: directory)
        #expect(reopened.count == 2)
        #expect(reopened.data(for: "b") == nil)
        #expect(reopened.data(for: "a") == Data("payload of a".utf8))
    }

    @Test func sizeLimitEvictsLeastRecentlyRead() async throws {
        let directory = makeDirectory()
        defer { cleanUp(directory) }
        let payloadSize = 10_000
        let fileSize = DataCacheEntryFile.fileSize(keyCount: 1, payloadCount: payloadSize)
        let limit = fileSize * 10 + fileSize / 2
        let cache = try DataCache(directory: directory, sizeLimit: limit)
        let keys = (0..<11).map { String(UnicodeScalar(UInt8(97 + $0))) }  // a…k
        for key in keys[0..<8] { cache.store(cachePattern(count: payloadSize, seed: UInt64(key.utf8.first!)), for: key) }
        await cache.waitForPendingWrites()
        #expect(cache.data(for: "a") != nil)
        #expect(cache.data(for: "b") != nil)
        // Now c and d are the least recently used; going over the limit trims to 90%.
        for key in keys[8...] { cache.store(cachePattern(count: payloadSize, seed: UInt64(key.utf8.first!)), for: key) }
        await cache.waitForPendingWrites()
        #expect(cache.totalSize <= limit)
        #expect(cache.totalSize <= cache.trimmedSize)
        #expect(cache.totalSize == entryBytes(in: directory))
        #expect(cache.data(for: "c") == nil)
        #expect(cache.data(for: "d") == nil)
        for key in keys where key != "c" && key != "d" {
            expectSameBytes(cache.data(for: key), cachePattern(count: payloadSize, seed: UInt64(key.utf8.first!)), "\(key) was evicted")
        }
        // Many more than fit: the total never ends over the limit.
        for index in 0..<40 { cache.store(cachePattern(count: payloadSize, seed: UInt64(index)), for: "more-\(index)") }
        await cache.waitForPendingWrites()
        #expect(cache.totalSize <= limit)
        #expect(cache.totalSize == entryBytes(in: directory))
        #expect(cache.data(for: "more-39") != nil)
        // Reopening with a smaller limit trims at once.
        let smaller = try DataCache(directory: directory, sizeLimit: fileSize * 3)
        #expect(smaller.totalSize <= fileSize * 3)
        #expect(entryBytes(in: directory) == smaller.totalSize)
    }

    @Test func oversizeEntryIsNotStored() async throws {
        let directory = makeDirectory()
        defer { cleanUp(directory) }
        let cache = try DataCache(directory: directory, sizeLimit: 10_000)
        cache.store(Data(count: 100), for: "small")
        cache.store(Data(count: 100), for: "big")
        await cache.waitForPendingWrites()
        cache.store(Data(count: 10_000), for: "big")  // plus the header: over the limit
        #expect(cache.data(for: "big") == nil)  // and the older, smaller "big" is gone too
        await cache.waitForPendingWrites()
        #expect(cache.data(for: "small") != nil)
        #expect(fileNames(in: directory) == [DataCache.fileName(for: "small")])
    }

    @Test func removeAndRemoveAll() async throws {
        let directory = makeDirectory()
        defer { cleanUp(directory) }
        let cache = try DataCache(directory: directory)
        for index in 0..<5 { cache.store(cachePattern(count: 1_000, seed: UInt64(index)), for: "\(index)") }
        cache.remove(for: "0")  // possibly still pending
        #expect(cache.data(for: "0") == nil)
        await cache.waitForPendingWrites()
        #expect(cache.data(for: "0") == nil)
        cache.remove(for: "1")
        #expect(cache.data(for: "1") == nil)
        await cache.waitForPendingWrites()
        #expect(cache.count == 3)
        #expect(fileNames(in: directory).count == 3)
        cache.store(Data(count: 10), for: "pending")
        cache.removeAll()
        #expect(cache.data(for: "pending") == nil)
        #expect(cache.data(for: "2") == nil)
        #expect(cache.totalSize == 0)
        await cache.waitForPendingWrites()
        #expect(fileNames(in: directory).isEmpty)
        // Usable afterwards.
        cache.store(Data(count: 10), for: "again")
        await cache.waitForPendingWrites()
        #expect(try DataCache(directory: directory).data(for: "again") == Data(count: 10))
    }

    @Test func leftoverTemporaryFilesAreRemovedOnOpen() throws {
        let directory = makeDirectory()
        defer { cleanUp(directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(DataCache.temporaryPrefix + "leftover")
        try Data(count: 4_096).write(to: temporary)
        let unrelated = directory.appendingPathComponent("notes.txt")
        try Data("not ours".utf8).write(to: unrelated)
        let cache = try DataCache(directory: directory)
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
        #expect(FileManager.default.fileExists(atPath: unrelated.path))  // not ours: left alone
        #expect(cache.totalSize == 0)
    }

    @Test func deletedDirectoryIsMadeAgainByTheNextWrite() async throws {
        let directory = makeDirectory()
        defer { cleanUp(directory) }
        let cache = try DataCache(directory: directory)
        cache.store(Data(count: 10), for: "before")
        await cache.waitForPendingWrites()
        try FileManager.default.removeItem(at: directory)
        cache.store(Data(count: 100), for: "after")
        await cache.waitForPendingWrites()
        #expect(cache.data(for: "after") == Data(count: 100))
        #expect(cache.data(for: "before") == nil)  // its file went with the directory
        #expect(cache.totalSize == DataCacheEntryFile.fileSize(keyCount: 5, payloadCount: 100))
        #expect(FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func concurrentStoresAndReadsStayConsistent() async throws {
        let directory = makeDirectory()
        defer { cleanUp(directory) }
        let cache = try DataCache(directory: directory, sizeLimit: 400_000)
        // Each payload starts with its version; the rest derives from key and version.
        let payload = { @Sendable (key: Int, version: UInt64) -> Data in
            var data = withUnsafeBytes(of: version.littleEndian) { Data($0) }
            data.append(cachePattern(count: 1_000 + key * 300, seed: UInt64(key) << 32 | version))
            return data
        }
        let isValid = { @Sendable (key: Int, data: Data) -> Bool in
            guard data.count >= 8 else { return false }
            let version = data.prefix(8).withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
            return data == payload(key, version)
        }
        await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var generator = SplitMix(seed: 100 + UInt64(worker))
                    var invalid = 0
                    for _ in 0..<300 {
                        let key = Int(generator.next() % 64)
                        switch generator.next() % 10 {
                        case 0: cache.remove(for: "key-\(key)")
                        case 1...3: cache.store(payload(key, generator.next() % 1_000), for: "key-\(key)")
                        default:
                            if let data = cache.data(for: "key-\(key)"), !isValid(key, data) { invalid += 1 }
                        }
                    }
                    return invalid
                }
            }
            var invalid = 0
            for await count in group { invalid += count }
            #expect(invalid == 0)
        }
        await cache.waitForPendingWrites()
        #expect(cache.totalSize <= 400_000)
        #expect(cache.totalSize == entryBytes(in: directory))
        #expect(cache.count == fileNames(in: directory).count)
        for key in 0..<64 {
            if let data = cache.data(for: "key-\(key)") { #expect(isValid(key, data)) }
        }
        let reopened = try DataCache(directory: directory, sizeLimit: 400_000)
        #expect(reopened.totalSize == cache.totalSize)
    }
}
