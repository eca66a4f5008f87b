import Foundation
import Testing
import IrisTestSupport

/// Runs the `iris` executable (or another tool) and keeps what it printed on both streams (the
/// codec tests read `info --json`, the frame list of `frames`, ffprobe's JSON). The streams go to
/// files, not pipes, so the child never waits on a full pipe; the wait is on a thread of its own.
enum CodecCommandRun {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    static func iris(_ arguments: [String]) async throws -> Output {
        try await run(CLITestSupport.irisExecutable(), arguments)
    }

    /// Runs `executable arguments` to the end.
    static func run(_ executable: URL, _ arguments: [String]) async throws -> Output {
        let directory = try CLITestSupport.directory("codec-run")
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout"), errorURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), errors = try FileHandle(forWritingTo: errorURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        let status: Int32 = await withCheckedContinuation { continuation in
            Thread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }.start()
        }
        try out.close()
        try errors.close()
        return Output(
            status: status,
            standardOutput: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }

    /// The object `iris info --json` printed for one file.
    static func infoJSON(_ file: URL) async throws -> [String: Any] {
        let run = try await iris(["info", "--json", file.path])
        #expect(run.status == 0, "info: \(run.standardError)")
        let line = try #require(run.standardOutput.split(separator: "\n").first)
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}
