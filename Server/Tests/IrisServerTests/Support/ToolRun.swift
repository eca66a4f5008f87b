import Foundation

/// Runs a Debian tool that makes a test's input (ImageMagick's `convert`, `ffmpeg`) and returns its
/// exit status, its standard error dropped. The wait is on a thread of its own, never the
/// cooperative pool's.
func runTool(_ path: String, _ arguments: [String]) async throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    try process.run()
    return await withCheckedContinuation { continuation in
        Thread {
            process.waitUntilExit()
            continuation.resume(returning: process.terminationStatus)
        }
        .start()
    }
}
