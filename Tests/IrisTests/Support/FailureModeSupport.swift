import Foundation
import Testing
@testable import Iris
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Helpers for the failure-mode tests: a tiny tmpfs (a disk that really fills up, a filesystem
// that really turns read-only), a child-process harness for the unprivileged fallbacks, and
// checks of a disk cache's files against its own accounting.

/// A fresh directory under the temporary directory.
func failureModeDirectory(_ label: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("iris-\(label)-\(UUID().uuidString)")
}

/// Names of the files in `directory` (none when it is missing).
func failureModeFileNames(in directory: URL) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
}

/// Sum of the sizes of the entry files in `directory`: what a ``DataCache``'s `totalSize` must match.
func failureModeEntryBytes(in directory: URL) -> Int {
    failureModeFileNames(in: directory).filter(DataCache.isEntryName).reduce(0) { total, name in
        let size = (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size]) as? NSNumber
        return total + (size?.intValue ?? 0)
    }
}

/// Temporary files (torn or abandoned writes) in `directory`.
func failureModeTemporaryFiles(in directory: URL) -> [String] {
    failureModeFileNames(in: directory).filter { $0.hasPrefix(DataCache.temporaryPrefix) }
}

/// Reads `key` from `cache` over and over while `done()` does not hold (at most `limit` reads)
/// and returns the sizes of the reads that were neither a miss nor exactly `expected`: a read
/// must never see a torn entry, whatever the write is doing. Reads nothing once `done()` holds,
/// so the caller can look at what the write left before a read tidies up.
func failureModeTornReads(
    of key: String, in cache: DataCache, expected: Data, limit: Int = 2000,
    until done: () -> Bool
) -> [Int] {
    var torn: [Int] = []
    var reads = 0
    while reads < limit, !done() {
        if let data = cache.data(for: key), data != expected { torn.append(data.count) }
        reads += 1
    }
    return torn
}

#if os(Linux)
/// A tmpfs of a few hundred KiB mounted on a fresh directory: a disk that really fills up and a
/// filesystem that can really be remounted read-only. Needs CAP_SYS_ADMIN (root here);
/// ``mount(sizeKiB:)`` says why not otherwise. ``unmount()`` detaches it and removes the
/// directory.
final class TmpfsMount: Sendable {
    let directory: URL

    private init(directory: URL) { self.directory = directory }

    /// Mounts a tmpfs of `sizeKiB` KiB, or says why it cannot (e.g. "Operation not permitted").
    static func mount(sizeKiB: Int) -> Result<TmpfsMount, MountRefused> {
        let directory = failureModeDirectory("tmpfs")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            return .failure(MountRefused(reason: "cannot make the mount point: \(error)"))
        }
        guard Glibc.mount("tmpfs", directory.path, "tmpfs", 0, "size=\(sizeKiB)k,mode=0777") == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: directory)
            return .failure(MountRefused(reason: "mount -t tmpfs: \(reason)"))
        }
        return .success(TmpfsMount(directory: directory))
    }

    /// Why a tmpfs could not be mounted.
    struct MountRefused: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// Bytes still free for an unprivileged writer.
    var freeBytes: Int {
        var info = statvfs()
        guard statvfs(directory.path, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    /// `mount -o remount,ro` (or back to read-write). Throws with the reason when refused.
    func remount(readOnly: Bool) throws {
        let flags = UInt(MS_REMOUNT) | (readOnly ? UInt(MS_RDONLY) : 0)
        guard Glibc.mount("tmpfs", directory.path, "tmpfs", flags, nil) == 0 else {
            throw MountRefused(reason: "mount -o remount,\(readOnly ? "ro" : "rw"): \(String(cString: strerror(errno)))")
        }
    }

    /// Detaches the filesystem and removes the mount point.
    func unmount() {
        _ = umount2(directory.path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` on a fresh tmpfs of `sizeKiB` (unmounted after) and returns `nil`; returns why
/// not, without running it, when this machine cannot mount one (or the fallback was asked for,
/// ``FailureModeChild/forcesFallback``): the caller then produces the failure another way.
func onTmpfs(sizeKiB: Int, _ body: (TmpfsMount) async throws -> Void) async throws -> String? {
    if FailureModeChild.forcesFallback { return "the fallback was asked for (\(FailureModeChild.forceFallbackVariable))" }
    switch TmpfsMount.mount(sizeKiB: sizeKiB) {
    case .success(let mount):
        defer { mount.unmount() }
        try await body(mount)
        return nil
    case .failure(let error):
        return error.reason
    }
}
#endif

/// Runs one failure-mode scenario in a child process (this test binary, re-executed with only a
/// given test enabled) when this process cannot set up the failure itself: a file-size limit
/// that would hit every test running in parallel here, or dropping root so that permissions
/// apply. The child's test reports through its exit status and prints a marker when done.
enum FailureModeChild {
    /// Set in the child's environment to the scenario it runs.
    static let modeVariable = "IRIS_FAILURE_MODE_CHILD"
    /// Set (to anything) to take the unprivileged fallbacks even where tmpfs can be mounted:
    /// how those paths are tested on a machine that runs as root.
    static let forceFallbackVariable = "IRIS_FAILURE_MODE_FALLBACK"
    /// Printed by a child whose scenario ran to its end.
    static let doneMarker = "IRIS-FAILURE-MODE-CHILD-DONE"

    /// The scenario this process runs as a child, if it is one.
    static var mode: String? { ProcessInfo.processInfo.environment[modeVariable] }
    static var isChild: Bool { mode != nil }
    static var forcesFallback: Bool { ProcessInfo.processInfo.environment[forceFallbackVariable] != nil }

    /// Runs the test named `testName` in a child with `mode` set; returns its exit status and
    /// output. The test binary is found as the kill -9 test finds it.
    static func run(mode: String, testName: String, timeout: Duration = .seconds(600)) async throws -> (status: Int32, output: String) {
        let executable = try #require(CrashTestHarness.testExecutable, "the test binary cannot be found to run it as a child")
        let log = failureModeDirectory("child-log").path + ".txt"
        defer { unlink(log) }
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? output.close() }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        #if os(Linux)
        child.arguments = ["--testing-library", "swift-testing", "--filter", testName]
        #else
        child.arguments = ["--filter", testName]
        #endif
        var environment = ProcessInfo.processInfo.environment
        environment[modeVariable] = mode
        child.environment = environment
        child.standardOutput = output
        child.standardError = output
        try child.run()
        // The timeout is only a hang detector.
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while child.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        if child.isRunning {
            kill(child.processIdentifier, SIGKILL)
            await exited(child)
        }
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return (child.terminationReason == .exit ? child.terminationStatus : -1, text)
    }

    /// Suspends (never blocks a thread, as `waitUntilExit()` would) until `child` has exited.
    static func exited(_ child: Process) async {
        while child.isRunning { try? await Task.sleep(for: .milliseconds(5)) }
    }

    /// Checks a child's run: it exited with 0 and its scenario got to the end.
    static func expectPassed(
        _ run: (status: Int32, output: String), _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let failures = run.output.split(separator: "\n").filter { $0.contains("✘") || $0.contains("error") }.prefix(20)
        #expect(
            run.status == 0, "\(what) child failed (status \(run.status)):\n\(failures.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
        #expect(
            run.output.contains(doneMarker), "\(what) child did not finish its scenario:\n\(run.output.suffix(2000))",
            sourceLocation: sourceLocation)
    }
}
