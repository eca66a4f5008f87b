import Foundation
import Iris
import IrisServerCore

/// Makes a video's poster in a child process (`iris-video-poster`): FFmpeg's demuxers and
/// decoders never run in the service, so a crash on an outsider's bytes costs that one request.
/// The child gets the video on its standard input and limits of its own (address space, CPU
/// time, no core file) and answers a PNG of the poster at the decode target, which the service
/// then renders as any still.
package struct VideoPosterProcess: Sendable {
    /// The `iris-video-poster` executable.
    package var executable: URL
    /// Address space the child may take, in bytes.
    package var memoryBytes: Int
    /// CPU seconds the child may use.
    package var cpuSeconds: Int
    /// The source limits the child checks from the video's header.
    package var maxPixels: Int
    /// The most source bytes.
    package var maxBytes: Int

    /// Makes a runner.
    package init(executable: URL, memoryBytes: Int = 4 << 30, cpuSeconds: Int = 60, maxPixels: Int, maxBytes: Int) {
        self.executable = executable
        self.memoryBytes = memoryBytes
        self.cpuSeconds = cpuSeconds
        self.maxPixels = maxPixels
        self.maxBytes = maxBytes
    }

    /// `iris-video-poster` next to the running executable (the service's, or the tests').
    package static var besideThisExecutable: URL {
        let this = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        return this.deletingLastPathComponent().appendingPathComponent("iris-video-poster")
    }

    /// The poster of `video` as a PNG, decoded at `target` (`nil`: the video's size). A child
    /// that crashes or is killed is a 500 for this request only; a refusal keeps its status.
    package func poster(of video: Data, target: DecodeTarget?) async throws(ServeError) -> Data {
        var arguments = [
            "--max-pixels", String(maxPixels), "--max-bytes", String(maxBytes),
            "--memory-bytes", String(memoryBytes), "--cpu-seconds", String(cpuSeconds),
        ]
        if let target {
            arguments += ["--width", String(target.size.width), "--height", String(target.size.height)]
            if target.contentMode == .fill { arguments.append("--fill") }
        }
        let outcome: Result<(status: Int32, signalled: Bool, output: Data, error: Data), any Error>
        outcome = await Self.run(executable, arguments: arguments, input: video)
        guard case .success(let run) = outcome else {
            throw ServeError(status: 500, "the video decoder could not be started")
        }
        if run.signalled { throw ServeError(status: 500, "the video decoder crashed on this source") }
        if run.status == 0, !run.output.isEmpty { return run.output }
        // "STATUS reason" from the child; anything else is a failure of the child.
        let line = String(decoding: run.error.prefix(200), as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        if parts.count == 2, let status = Int(parts[0]), [413, 422, 504].contains(status) {
            throw ServeError(status: status, parts[1])
        }
        throw ServeError(status: 500, "the video decoder failed on this source")
    }

    /// Runs the child on a thread of its own (never a cooperative one): input in, output and
    /// error out, then its exit. Cancelling the task terminates the child.
    static func run(
        _ executable: URL, arguments: [String], input: Data
    ) async
        -> Result<(status: Int32, signalled: Bool, output: Data, error: Data), any Error>
    {
        // A child that dies before it has read its input must not take the service with it:
        // writing to its closed pipe is then an error, not SIGPIPE.
        _ = ignoreBrokenPipes
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread {
                    do {
                        try process.run()
                    } catch {
                        continuation.resume(returning: .failure(error))
                        return
                    }
                    // The child reads all of its input before it writes: write, close, then read.
                    let errors = ErrorReader(stderr.fileHandleForReading)
                    try? stdin.fileHandleForWriting.write(contentsOf: input)
                    try? stdin.fileHandleForWriting.close()
                    let output = (try? stdout.fileHandleForReading.readToEnd()) ?? Data()
                    let error = errors.wait()
                    process.waitUntilExit()
                    let signalled = process.terminationReason == .uncaughtSignal
                    continuation.resume(returning: .success((process.terminationStatus, signalled, output, error)))
                }.start()
            }
        } onCancel: {
            if process.isRunning { process.terminate() }
        }
    }
}

/// SIGPIPE ignored, once for the process.
private let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

/// Reads a pipe to its end on a thread of its own, so a child writing much to standard error
/// never blocks on a full pipe while its output is read.
private final class ErrorReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = (try? handle.readToEnd()) ?? Data()
            done.signal()
        }.start()
    }

    /// The bytes read, once the pipe has ended.
    func wait() -> Data {
        done.wait()
        return data
    }
}
