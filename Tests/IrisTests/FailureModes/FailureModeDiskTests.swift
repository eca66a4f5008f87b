import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IrisSamples
import Testing
@testable import Iris
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IrisTestSupport

/// How a disk-full test makes writes fail for want of space, and lets them succeed again.
protocol FullDisk {
    /// How the failure is produced, for the record.
    var method: String { get }
    /// A directory on the disk that fills up.
    var root: URL { get }
    /// From now on, a file of more than about `headroom` bytes cannot be written.
    func fill(leaving headroom: Int) throws
    /// Space again.
    func free() throws
}

#if os(Linux)
/// A tmpfs filled with a filler file up to its last `headroom` bytes: writes fail with ENOSPC.
struct TmpfsFullDisk: FullDisk {
    let mount: TmpfsMount
    var method: String { "a 256 KiB tmpfs (mount -t tmpfs) filled by a filler file, writes failing with ENOSPC" }
    var root: URL { mount.directory }
    private var filler: URL { root.appendingPathComponent("filler") }

    func fill(leaving headroom: Int) throws {
        let size = mount.freeBytes - headroom
        try #require(size > 0, "the tmpfs has only \(mount.freeBytes) bytes free")
        try Data(count: size).write(to: filler)
        #expect(abs(mount.freeBytes - headroom) <= 8192, "free after filling: \(mount.freeBytes)")
    }

    func free() throws {
        if FileManager.default.fileExists(atPath: filler.path) { try FileManager.default.removeItem(at: filler) }
    }
}
#endif

/// A file-size limit (`RLIMIT_FSIZE`, with `SIGXFSZ` ignored): a write past it fails with EFBIG.
/// Process-wide, so it runs only in a child process where nothing else writes.
struct FileSizeLimitDisk: FullDisk {
    let root: URL
    var method: String { "RLIMIT_FSIZE in a child process (SIGXFSZ ignored), writes failing with EFBIG" }

    func fill(leaving headroom: Int) throws {
        #expect(FailureModeChild.isChild, "RLIMIT_FSIZE would limit every test in this process")
        signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit()
        try #require(getrlimit(Self.resource, &limit) == 0)
        limit.rlim_cur = rlim_t(headroom)
        try #require(setrlimit(Self.resource, &limit) == 0, "setrlimit: \(String(cString: strerror(errno)))")
    }

    func free() throws {
        var limit = rlimit()
        try #require(getrlimit(Self.resource, &limit) == 0)
        limit.rlim_cur = limit.rlim_max
        try #require(setrlimit(Self.resource, &limit) == 0, "setrlimit: \(String(cString: strerror(errno)))")
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
    #else
    private static let resource = RLIMIT_FSIZE
    #endif
}

/// The disk-full scenario, whichever way the disk fills: a write that does not fit fails cleanly
/// (never a torn entry, the accounting unchanged), the pipeline keeps returning images from the
/// network and memory, and once there is space again the cache works as before.
func diskFullScenario(_ disk: some FullDisk) async throws {
    let directory = disk.root.appendingPathComponent("cache")
    let cache = try DataCache(directory: directory, sizeLimit: 8 << 20)
    let small = try TestImages.jpeg(width: 64, height: 48, seed: 3)
    let big = try TestImages.png(width: 240, height: 160, seed: 4)
    let headroom = 24 * 1024
    try #require(DataCacheEntryFile.fileSize(keyCount: 16, payloadCount: small.count) < headroom / 2)
    try #require(big.count > 2 * headroom, "the big image is only \(big.count) bytes")
    func accountingMatchesDisk(_ line: Int = #line) {
        #expect(cache.totalSize == failureModeEntryBytes(in: directory), "accounting (line \(line))")
        #expect(failureModeTemporaryFiles(in: directory).isEmpty, "temporary files left (line \(line))")
    }

    cache.store(small, for: "small")
    await cache.waitForPendingWrites()
    expectSameBytes(cache.data(for: "small"), small)

    try disk.fill(leaving: headroom)
    var isFull = true
    defer { if isFull { try? disk.free() } }

    // A write that does not fit: while it runs, reads see the pending bytes or a miss; after,
    // a miss, no file, and the accounting unchanged.
    cache.store(big, for: "big")
    let written = LockedState(false)
    let waiter = Task {
        await cache.waitForPendingWrites()
        written.withLock { $0 = true }
    }
    let torn = failureModeTornReads(of: "big", in: cache, expected: big) { written.withLock { $0 } }
    await waiter.value
    #expect(torn.isEmpty, "torn reads of sizes \(torn)")
    // Before any read could tidy up: no file, nothing counted.
    #expect(!FileManager.default.fileExists(atPath: cache.fileURL(for: "big").path))
    #expect(cache.count == 1)
    #expect(cache.totalSize == DataCacheEntryFile.fileSize(keyCount: 5, payloadCount: small.count))
    accountingMatchesDisk()
    #expect(cache.data(for: "big") == nil)
    expectSameBytes(cache.data(for: "small"), small)  // what was there is still served

    // An update that does not fit drops the older entry: never a torn one, nor a stale one.
    cache.store(big, for: "small")
    await cache.waitForPendingWrites()
    #expect(cache.count == 0)
    accountingMatchesDisk()
    #expect(cache.data(for: "small") == nil)

    // Opened again (as after a restart): nothing torn, nothing left over.
    let reopened = try DataCache(directory: directory, sizeLimit: 8 << 20)
    #expect(reopened.data(for: "big") == nil)
    #expect(reopened.data(for: "small") == nil)
    #expect(reopened.totalSize == 0)

    try await withTestServer { server in
        server.serve("/big.png", data: big, contentType: "image/png")
        let memory = MemoryCache()
        let pipeline = ImagePipeline(
            configuration: .init(
                dataLoader: URLSessionDataLoader(timeout: httpHangTimeout), dataCache: cache,
                memoryCache: memory))
        let request = ImageRequest(url: server.url("/big.png"))
        let key = pipeline.dataKey(for: request)

        // The pipeline keeps returning images: from the network (the disk write fails)...
        let first = try await pipeline.image(for: request)
        #expect(first.bitmap.size == PixelSize(width: 240, height: 160))
        await cache.waitForPendingWrites()
        #expect(cache.data(for: key) == nil)
        // ...then from memory...
        _ = try await pipeline.image(for: request)
        #expect(server.requestCount("/big.png") == 1)
        // ...and from the network again once memory lets it go: no disk entry to serve.
        memory.removeAll()
        let third = try await pipeline.image(for: request)
        #expect(third.bitmap.size == first.bitmap.size)
        #expect(server.requestCount("/big.png") == 2)
        await cache.waitForPendingWrites()
        #expect(cache.data(for: key) == nil)
        accountingMatchesDisk()

        // Space again: the cache works as before.
        try disk.free()
        isFull = false
        memory.removeAll()
        _ = try await pipeline.image(for: request)
        #expect(server.requestCount("/big.png") == 3)
        await cache.waitForPendingWrites()
        expectSameBytes(cache.data(for: key), big)
        memory.removeAll()
        _ = try await pipeline.image(for: request)  // from the disk cache
        #expect(server.requestCount("/big.png") == 3)
        cache.store(big, for: "big")
        await cache.waitForPendingWrites()
        expectSameBytes(cache.data(for: "big"), big)
        #expect(cache.count == 2)
        accountingMatchesDisk()
        #expect(await pipelineEventually { pipeline.inFlightCount == 0 }, "left in flight: \(pipeline.inFlight)")
    }
    print("\(FailureModeChild.doneMarker) disk full")
}

/// How a read-only test makes the cache directory unwritable and writable again.
protocol ReadOnlyDirectory {
    var method: String { get }
    /// The cache directory's parent.
    var root: URL { get }
    func makeReadOnly() throws
    func makeWritable() throws
}

#if os(Linux)
/// The tmpfs the cache lives on, remounted read-only (root ignores permission bits, not this).
struct TmpfsReadOnly: ReadOnlyDirectory {
    let mount: TmpfsMount
    var method: String { "a tmpfs remounted read-only (mount -o remount,ro), writes failing with EROFS" }
    var root: URL { mount.directory }
    func makeReadOnly() throws { try mount.remount(readOnly: true) }
    func makeWritable() throws { try mount.remount(readOnly: false) }
}
#endif

/// `chmod 0555` on the cache directory: works for a process that is not root.
struct PermissionsReadOnly: ReadOnlyDirectory {
    let root: URL
    var method: String { "chmod 0555 on the cache directory as uid \(getuid()), writes failing with EACCES" }
    private var directory: URL { root.appendingPathComponent("cache") }
    func makeReadOnly() throws {
        try #require(getuid() != 0, "root ignores permission bits")
        try #require(chmod(directory.path, 0o555) == 0)
    }
    func makeWritable() throws { try #require(chmod(directory.path, 0o755) == 0) }
}

/// The read-only scenario: writes fail cleanly, what is cached is still served, the pipeline
/// keeps working, and once writable again the cache stores as before.
func readOnlyScenario(_ readOnly: some ReadOnlyDirectory) async throws {
    let directory = readOnly.root.appendingPathComponent("cache")
    let cache = try DataCache(directory: directory, sizeLimit: 8 << 20)
    let a = try TestImages.jpeg(width: 80, height: 60, seed: 21)
    let b = try TestImages.png(width: 48, height: 32, seed: 22)
    try await withTestServer { server in
        server.serve("/a.jpg", data: a, contentType: "image/jpeg")
        server.serve("/b.png", data: b, contentType: "image/png")
        let memory = MemoryCache()
        let pipeline = ImagePipeline(
            configuration: .init(
                dataLoader: URLSessionDataLoader(timeout: httpHangTimeout), dataCache: cache,
                memoryCache: memory))
        let requestA = ImageRequest(url: server.url("/a.jpg"))
        let requestB = ImageRequest(url: server.url("/b.png"))
        let keyA = pipeline.dataKey(for: requestA), keyB = pipeline.dataKey(for: requestB)
        _ = try await pipeline.image(for: requestA)
        await cache.waitForPendingWrites()
        expectSameBytes(cache.data(for: keyA), a)
        let sizeBefore = cache.totalSize

        try readOnly.makeReadOnly()
        var isReadOnly = true
        defer { if isReadOnly { try? readOnly.makeWritable() } }

        // Writes fail cleanly: nothing stored, nothing left over, the accounting unchanged.
        cache.store(b, for: "direct")
        await cache.waitForPendingWrites()
        #expect(cache.data(for: "direct") == nil)
        #expect(failureModeTemporaryFiles(in: directory).isEmpty)
        #expect(cache.totalSize == sizeBefore)
        #expect(cache.totalSize == failureModeEntryBytes(in: directory))

        // The pipeline keeps working: a new image from the network (not stored)...
        let imageB = try await pipeline.image(for: requestB)
        #expect(imageB.bitmap.size == PixelSize(width: 48, height: 32))
        await cache.waitForPendingWrites()
        #expect(cache.data(for: keyB) == nil)
        // ...and what the disk holds is still served from it.
        memory.removeAll()
        let imageA = try await pipeline.image(for: requestA)
        #expect(imageA.bitmap.size == PixelSize(width: 80, height: 60))
        #expect(server.requestCount("/a.jpg") == 1)

        // An update that cannot be written: the old entry cannot be deleted either, so it stays,
        // intact and counted; never new torn bytes.
        cache.store(b, for: keyA)
        await cache.waitForPendingWrites()
        #expect(cache.totalSize == failureModeEntryBytes(in: directory))
        expectSameBytes(cache.data(for: keyA), a)

        // Writable again: the cache stores as before.
        try readOnly.makeWritable()
        isReadOnly = false
        cache.store(b, for: "direct")
        memory.removeAll()
        _ = try await pipeline.image(for: requestB)
        #expect(server.requestCount("/b.png") == 2)
        await cache.waitForPendingWrites()
        expectSameBytes(cache.data(for: "direct"), b)
        expectSameBytes(cache.data(for: keyB), b)
        #expect(failureModeTemporaryFiles(in: directory).isEmpty)
        #expect(cache.totalSize == failureModeEntryBytes(in: directory))
        let reopened = try DataCache(directory: directory, sizeLimit: 8 << 20)
        #expect(reopened.totalSize == cache.totalSize)
        expectSameBytes(reopened.data(for: keyA), a)
        #expect(await pipelineEventually { pipeline.inFlightCount == 0 }, "left in flight: \(pipeline.inFlight)")
    }
    print("\(FailureModeChild.doneMarker) read-only")
}

@Suite("Failure modes: the disk")
struct FailureModeDiskTests {
    @Test(
        "disk full while the disk cache writes: no torn entry, accounting kept, pipeline serves, recovers",
        .enabled(if: !FailureModeChild.isChild, "this process is a failure-mode child"), .timeLimit(.minutes(10)))
    func diskFullWhileWriting() async throws {
        #if os(Linux)
        let refusal = try await onTmpfs(sizeKiB: 256) { mount in
            let disk = TmpfsFullDisk(mount: mount)
            print("disk full: produced with \(disk.method)")
            try await diskFullScenario(disk)
        }
        guard let refusal else { return }
        #else
        let refusal = "not Linux"
        #endif
        print("disk full: no tmpfs (\(refusal)); produced with \(FileSizeLimitDisk(root: URL(fileURLWithPath: "/")).method)")
        let run = try await FailureModeChild.run(mode: "disk-full-rlimit", testName: "diskFullChildUnderFileSizeLimit")
        FailureModeChild.expectPassed(run, "disk full (RLIMIT_FSIZE)")
    }

    /// The disk-full scenario under a file-size limit: runs only as the child of the test above.
    @Test(.enabled(if: FailureModeChild.mode == "disk-full-rlimit", "runs only as a failure-mode child"))
    func diskFullChildUnderFileSizeLimit() async throws {
        let root = failureModeDirectory("disk-full")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try await diskFullScenario(FileSizeLimitDisk(root: root))
    }

    @Test(
        "the cache directory made read-only while the app runs: writes fail cleanly, reads and the pipeline go on",
        .enabled(if: !FailureModeChild.isChild, "this process is a failure-mode child"), .timeLimit(.minutes(10)))
    func cacheDirectoryMadeReadOnly() async throws {
        if getuid() != 0 {
            let root = failureModeDirectory("read-only")
            defer {
                chmod(root.appendingPathComponent("cache").path, 0o755)
                try? FileManager.default.removeItem(at: root)
            }
            let readOnly = PermissionsReadOnly(root: root)
            print("read-only: produced with \(readOnly.method)")
            try await readOnlyScenario(readOnly)
            return
        }
        #if os(Linux)
        let refusal = try await onTmpfs(sizeKiB: 1024) { mount in
            let readOnly = TmpfsReadOnly(mount: mount)
            print("read-only: produced with \(readOnly.method)")
            try await readOnlyScenario(readOnly)
        }
        guard let refusal else { return }
        #else
        let refusal = "not Linux"
        #endif
        // Root without a tmpfs: a child drops to nobody, for whom chmod 0555 holds.
        print("read-only: root and no tmpfs (\(refusal)); produced with chmod 0555 in a child process running as nobody")
        let run = try await FailureModeChild.run(mode: "read-only-nobody", testName: "readOnlyChildAsNobody")
        FailureModeChild.expectPassed(run, "read-only (chmod, as nobody)")
    }

    /// The read-only scenario as nobody: runs only as the child of the test above.
    @Test(.enabled(if: FailureModeChild.mode == "read-only-nobody", "runs only as a failure-mode child"))
    func readOnlyChildAsNobody() async throws {
        if getuid() == 0 {
            try #require(setgid(65534) == 0 && setuid(65534) == 0, "cannot drop to nobody: \(String(cString: strerror(errno)))")
        }
        let root = URL(fileURLWithPath: "/tmp").appendingPathComponent("iris-read-only-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer {
            chmod(root.appendingPathComponent("cache").path, 0o755)
            try? FileManager.default.removeItem(at: root)
        }
        try await readOnlyScenario(PermissionsReadOnly(root: root))
    }

    @Test(
        "the cache directory deleted while the app runs: misses, then the next write makes it again",
        .enabled(if: !FailureModeChild.isChild, "this process is a failure-mode child"), .timeLimit(.minutes(10)))
    func cacheDirectoryDeleted() async throws {
        let root = failureModeDirectory("deleted")
        let directory = root.appendingPathComponent("cache")
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = try DataCache(directory: directory, sizeLimit: 8 << 20)
        let a = try TestImages.jpeg(width: 80, height: 60, seed: 31)
        let b = try TestImages.png(width: 48, height: 32, seed: 32)
        let c = try TestImages.jpeg(width: 40, height: 30, seed: 33)
        try await withTestServer { server in
            server.serve("/a.jpg", data: a, contentType: "image/jpeg")
            server.serve("/b.png", data: b, contentType: "image/png")
            server.serve("/c.jpg", data: c, contentType: "image/jpeg")
            let memory = MemoryCache()
            let pipeline = ImagePipeline(
                configuration: .init(
                    dataLoader: URLSessionDataLoader(timeout: httpHangTimeout), dataCache: cache,
                    memoryCache: memory))
            let requestA = ImageRequest(url: server.url("/a.jpg")), requestB = ImageRequest(url: server.url("/b.png"))
            let keyA = pipeline.dataKey(for: requestA), keyB = pipeline.dataKey(for: requestB)
            _ = try await pipeline.image(for: requestA)
            _ = try await pipeline.image(for: requestB)
            await cache.waitForPendingWrites()
            #expect(cache.count == 2)

            try FileManager.default.removeItem(at: directory)
            // Reads are misses (no crash); the pipeline goes back to the network.
            #expect(cache.data(for: keyA) == nil)
            memory.removeAll()
            let imageA = try await pipeline.image(for: requestA)
            #expect(imageA.bitmap.size == PixelSize(width: 80, height: 60))
            #expect(server.requestCount("/a.jpg") == 2)
            // Its write made the directory again; what went with the old one is forgotten.
            await cache.waitForPendingWrites()
            #expect(FileManager.default.fileExists(atPath: directory.path))
            expectSameBytes(cache.data(for: keyA), a)
            #expect(cache.count == 1)
            #expect(cache.totalSize == failureModeEntryBytes(in: directory))
            #expect(cache.data(for: keyB) == nil)
            _ = try await pipeline.image(for: ImageRequest(url: server.url("/b.png"), cachePolicy: .reloadIgnoringCache))
            await cache.waitForPendingWrites()
            expectSameBytes(cache.data(for: keyB), b)

            // Deleted while writes are under way: every read is a miss or the whole entry.
            let payloads = (0..<40).map { cachePattern(count: 2048 + 97 * $0, seed: UInt64($0)) }
            for (index, payload) in payloads.enumerated() {
                cache.store(payload, for: "burst-\(index)")
                if index == 20 { try? FileManager.default.removeItem(at: directory) }
            }
            await cache.waitForPendingWrites()
            for (index, payload) in payloads.enumerated() {
                let read = cache.data(for: "burst-\(index)")
                #expect(read == nil || read == payload, "burst-\(index): \(read?.count ?? -1) bytes")
            }
            #expect(payloads.indices.contains { cache.data(for: "burst-\($0)") != nil }, "nothing was written after the deletion")
            // Files deleted behind the cache's back are forgotten when read (or when a write finds
            // the directory gone); once every key has been read, the accounting matches the disk.
            for key in [keyA, keyB] {
                let read = cache.data(for: key)
                #expect(read == nil || read == (key == keyA ? a : b))
            }
            #expect(cache.totalSize == failureModeEntryBytes(in: directory))
            #expect(failureModeTemporaryFiles(in: directory).isEmpty)

            // A file where the directory was: it cannot be made again, writes fail cleanly.
            try FileManager.default.removeItem(at: directory)
            #expect(FileManager.default.createFile(atPath: directory.path, contents: Data("not a directory".utf8)))
            cache.store(c, for: "blocked")
            await cache.waitForPendingWrites()
            #expect(cache.data(for: "blocked") == nil)
            let requestC = ImageRequest(url: server.url("/c.jpg"))
            let imageC = try await pipeline.image(for: requestC)
            #expect(imageC.bitmap.size == PixelSize(width: 40, height: 30))
            await cache.waitForPendingWrites()
            #expect(cache.data(for: pipeline.dataKey(for: requestC)) == nil)
            #expect(cache.data(for: keyA) == nil)
            #expect(await pipelineEventually { pipeline.inFlightCount == 0 }, "left in flight: \(pipeline.inFlight)")
        }
    }
}
