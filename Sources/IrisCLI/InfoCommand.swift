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
                let video = try VideoInfo.of(data)
                let timing = header.isAnimated && video == nil ? try AnimationTiming(of: data) : nil as AnimationTiming?
                print(
                    json
                        ? jsonLine(path: path, header: header, timing: timing, video: video, bytes: data.count)
                        : textLine(path: path, header: header, timing: timing, video: video, bytes: data.count))
            } catch {
                failed = true
                Terminal.error("\(path): \(readable(error))")
            }
        }
        if failed { throw ExitCode.failure }
    }

    private func textLine(path: String, header: ImageHeader, timing: AnimationTiming?, video: VideoInfo?, bytes: Int) -> String {
        let shown = header.orientedSize
        var parts = ["\(path): \(header.format)", "\(shown.width)×\(shown.height)"]
        if header.orientation != .up {
            parts.append("orientation \(header.orientation.rawValue) (stored \(header.width)×\(header.height))")
        }
        if header.hasAlpha { parts.append("alpha") }
        if header.isAnimated { parts.append(header.frameCount == 1 ? "1 frame" : "\(header.frameCount) frames") }
        if let timing {
            parts.append(timing.loopCount == 0 ? "loops forever" : "plays \(timing.loopCount)×")
            parts.append(String(format: "%.2f s per loop", timing.totalDuration))
        }
        if let video {
            parts.insert(video.codecName, at: 1)
            if video.orientation != .up {
                let turn =
                    [Orientation.right: "90° clockwise", .down: "180°", .left: "90° anticlockwise"][video.orientation]
                    ?? "\(video.orientation)"
                parts.append("shown turned \(turn) (stored \(video.storedSize.width)×\(video.storedSize.height))")
            }
            if let duration = video.duration { parts.append(String(format: "%.2f s", duration)) }
            if let rate = video.frameRate { parts.append(String(format: "%.3g fps", rate)) }
        }
        parts.append("\(bytes) bytes")
        return parts.joined(separator: ", ")
    }

    private func jsonLine(path: String, header: ImageHeader, timing: AnimationTiming?, video: VideoInfo?, bytes: Int) -> String {
        var object: [String: Any] = [
            "file": path, "format": header.format.rawValue,
            "width": header.orientedSize.width, "height": header.orientedSize.height,
            "storedWidth": header.width, "storedHeight": header.height,
            "orientation": header.orientation.rawValue, "frames": header.frameCount, "animated": header.isAnimated,
            "hasAlpha": header.hasAlpha, "bytes": bytes,
        ]
        if let timing {
            object["loopCount"] = timing.loopCount
            object["duration"] = timing.totalDuration
        }
        if let video {
            object["codec"] = video.codecName
            object["storedWidth"] = video.storedSize.width
            object["storedHeight"] = video.storedSize.height
            object["videoOrientation"] = video.orientation.rawValue
            if let duration = video.duration { object["duration"] = duration }
            if let rate = video.frameRate { object["frameRate"] = rate }
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Loop count and the time one loop plays (delays of 10 ms or less count as 100 ms, as browsers
/// play them), read from the animation without decoding its frames beyond the first.
struct AnimationTiming {
    var loopCount: Int
    var totalDuration: Double

    /// `nil` when the decoder gives no animation for the data.
    init?(of data: Data) throws {
        let image = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(target: DecodeTarget(width: 16, height: 16)))
        guard let animation = image.animation else { return nil }
        loopCount = animation.loopCount
        totalDuration = (0..<animation.frameCount).reduce(0) { $0 + animation.displayDuration(at: $1) }
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
