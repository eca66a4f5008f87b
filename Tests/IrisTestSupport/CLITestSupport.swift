#if IRIS_TESTABLE
import Foundation
@testable import Iris
import IrisSamples
import Testing

/// Helpers of the `iris` command-line tests: a scratch directory, real encoded inputs and the
/// `iris` executable run as a child process.
package enum CLITestSupport {
    /// A fresh, existing directory under the temporary directory.
    package static func directory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("iris-cli-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes a photo-like `width`×`height` image encoded as `format` (by the library's own
    /// encoders) to `url`.
    package static func writePhoto(_ url: URL, width: Int, height: Int, format: ImageFormat = .jpeg, seed: UInt64 = 1) throws {
        let bitmap = SampleImages.photo(width: width, height: height, seed: seed)
        let encoder = try #require(ImageEncoders.encoder(for: format))
        try encoder.encode(bitmap, options: EncodeOptions(quality: 85)).write(to: url)
    }

    /// The size of the image in the file at `url`, decoded in full.
    package static func decodedSize(_ url: URL) throws -> PixelSize {
        try ImageDecoderRegistry.standard.decode(contentsOf: url).bitmap.size
    }

    /// Names of the files in `directory`, sorted (none when it is missing).
    package static func fileNames(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// The `iris` executable (the IrisCLI target) SwiftPM built beside this test bundle.
    package static func irisExecutable() throws -> URL {
        var directory = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        for _ in 0..<5 {
            directory = directory.deletingLastPathComponent()
            let candidate = directory.appendingPathComponent("IrisCLI")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        throw CLITestError("no IrisCLI executable next to \(Bundle.main.executableURL?.path ?? "the test bundle")")
    }

    /// What a finished `iris` child process left: its exit status, standard error and output.
    package struct Run {
        package var status: Int32
        package var standardError: String
        package var standardOutput = ""
    }

    /// Runs `iris arguments` to the end. When `interruptAfter` is given, sends the child SIGINT
    /// as soon as its standard error contains that text (never on a timer).
    package static func runIris(_ arguments: [String], interruptAfter marker: String? = nil) async throws -> Run {
        let process = Process()
        process.executableURL = try irisExecutable()
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        // Standard output goes to a file (read once the child has exited): two pipes read by one
        // thread could fill and stall the child.
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("iris-stdout-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        process.standardOutput = output
        try process.run()
        try? output.close()
        // Blocking reads on a thread of their own: not the cooperative pool, and not Dispatch's
        // global queues, whose workers the pool shares on Linux.
        return await withCheckedContinuation { continuation in
            Thread {
                let handle = errors.fileHandleForReading
                var text = ""
                var interrupted = marker == nil
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    text += String(decoding: chunk, as: UTF8.self)
                    if !interrupted, let marker, text.contains(marker) {
                        interrupted = true
                        kill(process.processIdentifier, SIGINT)
                    }
                }
                process.waitUntilExit()
                let printed = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
                try? FileManager.default.removeItem(at: outputFile)
                continuation.resume(returning: Run(status: process.terminationStatus, standardError: text, standardOutput: printed))
            }.start()
        }
    }
}

/// A failed precondition of a CLI test, with its reason.
package struct CLITestError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
#endif
