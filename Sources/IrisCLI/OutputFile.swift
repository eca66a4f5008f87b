import Foundation

/// Writes an output file so that it is either whole or absent under its name.
enum OutputFile {
    /// Writes `data` to a hidden temporary file next to `url` and renames it to `url` once
    /// complete (replacing a file already there). A write that fails, or a process stopped
    /// during it, never leaves a partial file under `url`'s name.
    static func write(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(
                    .fileWriteUnknown,
                    userInfo: [
                        NSFilePathErrorKey: url.path,
                        NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO),
                    ])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
