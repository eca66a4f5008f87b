import ArgumentParser
import Foundation
import Iris

/// `iris info`: format, size, orientation and frames of each file.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print format, size, orientation and frame count of images."
    )

    @Flag(name: .long, help: "Print one JSON object per file.")
    var json = false

    @Argument(help: "Image files.")
    var files: [String]

    func run() throws {
        var failed = false
        for path in files {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                let header = try ImageDecoderRegistry.standard.header(of: data)
                print(json ? jsonLine(path: path, header: header, bytes: data.count)
                           : textLine(path: path, header: header, bytes: data.count))
            } catch {
                failed = true
                Terminal.error("\(path): \(readable(error))")
            }
        }
        if failed { throw ExitCode.failure }
    }

    private func textLine(path: String, header: ImageHeader, bytes: Int) -> String {
        let shown = header.orientedSize
        var parts = ["\(path): \(header.format)", "\(shown.width)×\(shown.height)"]
        if header.orientation != .up { parts.append("orientation \(header.orientation.rawValue) (stored \(header.width)×\(header.height))") }
        if header.hasAlpha { parts.append("alpha") }
        if header.frameCount > 1 { parts.append("\(header.frameCount) frames") }
        parts.append("\(bytes) bytes")
        return parts.joined(separator: ", ")
    }

    private func jsonLine(path: String, header: ImageHeader, bytes: Int) -> String {
        let object: [String: Any] = [
            "file": path, "format": header.format.rawValue,
            "width": header.orientedSize.width, "height": header.orientedSize.height,
            "storedWidth": header.width, "storedHeight": header.height,
            "orientation": header.orientation.rawValue, "frames": header.frameCount,
            "hasAlpha": header.hasAlpha, "bytes": bytes,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A one-line description of an error for the terminal.
func readable(_ error: any Error) -> String {
    if let error = error as? ImageError { return error.description }
    if let error = error as? CocoaError, let path = error.userInfo[NSFilePathErrorKey] as? String {
        return error.code == .fileReadNoSuchFile ? "no such file: \(path)" : "cannot read \(path)"
    }
    return error.localizedDescription
}
