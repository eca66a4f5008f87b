import Foundation
import IrisSamples
import Testing
@testable import Iris
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kill -9 test: a child process (this test binary, re-executed in "writer mode") writes
/// large entries in a loop; the parent kills it mid-write and checks what survived.
enum CrashTestHarness {
    /// Set in the child's environment to the cache directory; switches on the writer test.
    static let writerDirectoryVariable = "IRIS_CACHE_WRITER_DIR"
    /// Created by the child once its first entries are on disk.
    static let readyMarker = "writer-ready"
    static let keyCount = 12
    static let sizeLimit = 12 * 1024 * 1024

    /// The directory the child writes to, when this process is the child.
    static var writerDirectory: String? { ProcessInfo.processInfo.environment[writerDirectoryVariable] }

    /// This test binary, when it can be found and run again.
    static let testExecutable: String? = {
        var candidates: [String] = []
        #if os(Linux)
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(resolved)
        }
        #endif
        if let path = Bundle.main.executablePath { candidates.append(path) }
        if let first = CommandLine.arguments.first { candidates.append(first) }
        return candidates.first { path in
            path.hasPrefix("/") && FileManager.default.isExecutableFile(atPath: path)
                && !path.hasSuffix("/swift") && !path.contains("swift-build")
        }
    }()

    /// Arguments that run only the writer test under Swift Testing.
    static var writerArguments: [String] {
        #if os(Linux)
        ["--testing-library", "swift-testing", "--filter", "crashTestWriterChild"]
        #else
        ["--filter", "crashTestWriterChild"]
        #endif
    }

    /// The payload the child writes for `key` in `round`: the round, then bytes derived from both.
    static func payload(key: Int, round: UInt64) -> Data {
        var data = withUnsafeBytes(of: round.littleEndian) { Data($0) }
        let seed = UInt64(key) << 40 ^ round
        var generator = SplitMix(seed: seed)
        let size = 256 * 1024 + Int(generator.next() % (768 * 1024))
        data.append(cachePattern(count: size, seed: seed))
        return data
    }

    /// Whether `data` is exactly what the child meant to write for `key` in some round.
    static func isIntact(_ data: Data, key: Int) -> Bool {
        guard data.count >= 8 else { return false }
        let round = data.prefix(8).withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        return data == payload(key: key, round: round)
    }

    static func cacheKey(_ key: Int) -> String { "crash-entry-\(key)" }
}

extension DataCacheTests {
    /// Writer mode: runs only in the child process the kill -9 test starts.
    @Test(.enabled(if: CrashTestHarness.writerDirectory != nil, "runs only as the child of the kill -9 test"))
    func crashTestWriterChild() async throws {
        let directory = URL(fileURLWithPath: try #require(CrashTestHarness.writerDirectory))
        let cache = try DataCache(directory: directory, sizeLimit: CrashTestHarness.sizeLimit)
        // Writes until killed, or until the parent is gone; ten minutes at most (a hang detector).
        let parent = getppid()
        let deadline = ContinuousClock.now.advanced(by: .seconds(600))
        var round: UInt64 = 0
        var signalled = false
        while ContinuousClock.now < deadline, getppid() == parent {
            round += 1
            for key in 0..<CrashTestHarness.keyCount {
                cache.store(CrashTestHarness.payload(key: key, round: round), for: CrashTestHarness.cacheKey(key))
                if key % 3 == 2 { await cache.waitForPendingWrites() }
            }
            if !signalled {
                await cache.waitForPendingWrites()
                _ = FileManager.default.createFile(
                    atPath: directory.appendingPathComponent(CrashTestHarness.readyMarker).path,
                    contents: Data())
                signalled = true
            }
        }
    }

    @Test(
        .enabled(if: CrashTestHarness.writerDirectory == nil, "this process is the writer child"),
        .enabled(if: CrashTestHarness.testExecutable != nil, "the test binary cannot be found to re-run it as a child"),
        .timeLimit(.minutes(10)))
    func killDashNineMidWriteLeavesOnlyIntactEntries() async throws {
        let executable = try #require(CrashTestHarness.testExecutable)
        var temporaryFilesSeen = 0
        var intactEntries = 0
        for attempt in 0..<3 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iris-crash-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

            let child = Process()
            child.executableURL = URL(fileURLWithPath: executable)
            child.arguments = CrashTestHarness.writerArguments
            var environment = ProcessInfo.processInfo.environment
            environment[CrashTestHarness.writerDirectoryVariable] = directory.path
            child.environment = environment
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            try child.run()

            // Wait until it has entries on disk and is writing more (it writes until killed; the
            // test's time limit is the hang detector).
            let marker = directory.appendingPathComponent(CrashTestHarness.readyMarker).path
            while !FileManager.default.fileExists(atPath: marker), child.isRunning {
                try await Task.sleep(for: .milliseconds(10))
            }
            let ready = FileManager.default.fileExists(atPath: marker)
            try #require(ready, "the writer child never got going (exit status \(child.isRunning ? -1 : child.terminationStatus))")
            // Then kill it a little later each attempt, mid-write wherever that lands: whatever
            // the moment, every entry left must be intact.
            try await Task.sleep(for: .milliseconds(200 + 70 * attempt))
            #expect(child.isRunning, "the writer child stopped before it was killed")
            kill(child.processIdentifier, SIGKILL)
            await FailureModeChild.exited(child)
            #expect(child.terminationReason == .uncaughtSignal)

            let before = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            temporaryFilesSeen += before.filter { $0.hasPrefix(DataCache.temporaryPrefix) }.count

            let cache = try DataCache(directory: directory, sizeLimit: CrashTestHarness.sizeLimit)
            let after = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            #expect(!after.contains { $0.hasPrefix(DataCache.temporaryPrefix) }, "temporary files remain after opening")
            for key in 0..<CrashTestHarness.keyCount {
                guard let data = cache.data(for: CrashTestHarness.cacheKey(key)) else { continue }
                #expect(CrashTestHarness.isIntact(data, key: key), "entry \(key) is not what the writer wrote")
                intactEntries += 1
            }
            #expect(cache.totalSize <= CrashTestHarness.sizeLimit)
        }
        #expect(intactEntries > 0, "no entry survived, so nothing was verified")
        print("kill -9 test: \(intactEntries) intact entries verified, \(temporaryFilesSeen) torn temporary files found and removed")
    }
}
