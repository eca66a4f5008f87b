import Foundation

/// Writing to standard error and knowing whether it is a terminal.
enum Terminal {
    /// Writes one line to standard error.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Whether standard error is an interactive terminal (progress bars only there).
    static var isInteractive: Bool { isatty(STDERR_FILENO) != 0 }

    /// Redraws a progress bar in place on standard error.
    static func progressBar(done: Int, total: Int, failed: Int, width: Int = 30) {
        let fraction = total == 0 ? 1 : Double(done) / Double(total)
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let failures = failed > 0 ? "  \(failed) failed" : ""
        FileHandle.standardError.write(Data("\r\(bar) \(done)/\(total)\(failures)".utf8))
    }

    /// Ends a progress bar's line.
    static func endProgressBar() {
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
