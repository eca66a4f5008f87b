#if os(Linux)
import Foundation
import Glibc

/// What the process writes to standard error while `body` runs (file descriptor 2, so C
/// libraries' `fprintf(stderr, …)` too), by pointing it at a temporary file for that time.
///
/// Other tests running at the same time may write there too: check for text only the code
/// under test would print.
enum StandardErrorCapture {
    static func capture(_ body: () throws -> Void) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("iris-stderr-\(UUID().uuidString)")
        let file = open(url.path, O_CREAT | O_TRUNC | O_RDWR, 0o600)
        guard file >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer {
            close(file)
            try? FileManager.default.removeItem(at: url)
        }
        fflush(nil)
        let saved = dup(2)
        dup2(file, 2)
        defer {
            fflush(nil)
            dup2(saved, 2)
            close(saved)
        }
        try body()
        fflush(nil)
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }
}
#endif
