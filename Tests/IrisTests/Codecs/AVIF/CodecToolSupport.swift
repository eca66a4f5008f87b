#if os(Linux)
import Foundation
import Testing
@testable import Iris
import IrisTestSupport

/// The Debian command-line encoders and decoders the AVIF, HEIF and JPEG XL tests compare Iris
/// with (`scripts/install-deps` installs them: libavif-bin, libheif-examples, libjxl-tools),
/// and the pictures the tests feed them.
enum CodecTools {
    /// The path of `tool` on `PATH` (or in /usr/bin), if installed.
    static func path(_ tool: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"]
        return directories.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether every one of `tools` is installed. A test that needs a missing one is skipped
    /// with a reason naming it (see ``missing(_:)``).
    static func available(_ tools: String...) -> Bool { tools.allSatisfy { path($0) != nil } }

    /// The skip reason: loud, naming the tools and how to get them.
    static func missing(_ tools: String...) -> Comment {
        Comment(
            rawValue:
                "SKIPPED: \(tools.joined(separator: ", ")) not installed; run scripts/install-deps (libavif-bin, libheif-examples, libjxl-tools)"
        )
    }

    /// Runs `tool arguments` to the end on a thread of its own (never a cooperative one);
    /// throws with its standard error when it fails.
    static func run(_ tool: String, _ arguments: [String]) async throws {
        _ = try await output(tool, arguments)
    }

    /// Runs `tool arguments` like ``run(_:_:)`` and returns what it printed.
    static func output(_ tool: String, _ arguments: [String]) async throws -> String {
        let executable = URL(fileURLWithPath: try #require(path(tool), "\(tool) is not installed"))
        let run = try await CodecCommandRun.run(executable, arguments)
        guard run.status == 0 else {
            throw CodecToolError("\(tool) \(arguments.joined(separator: " ")) failed (\(run.status)): \(run.standardError)")
        }
        return run.standardOutput
    }

    /// A fresh scratch directory.
    static func directory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("iris-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A `width`×`height` test picture: smooth gradients (what lossy codecs keep well) and a
    /// different dominant colour in each quadrant (red top left, green top right, blue bottom
    /// left, white bottom right), so that a turn or a mirror shows. With `alpha`, opacity falls
    /// from 255 at the left edge to 0 at the right (soft and fully transparent pixels).
    static func picture(width: Int, height: Int, alpha: Bool) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height, format: alpha ? .rgba8 : .rgbx8)
        for y in 0..<height {
            for x in 0..<width {
                let fx = x * 255 / max(width - 1, 1), fy = y * 255 / max(height - 1, 1)
                let left = x < width / 2, top = y < height / 2
                var c: (Int, Int, Int)
                switch (left, top) {
                case (true, true): c = (230, fx / 4, fy / 4)
                case (false, true): c = (fy / 4, 220, fx / 4)
                case (true, false): c = (fx / 4, fy / 4, 230)
                case (false, false): c = (235, 235, 235 - fy / 8)
                }
                let a = alpha ? 255 - fx : 255
                func pre(_ v: Int) -> UInt8 { UInt8((v * a + 127) / 255) }
                bitmap.setRGBA(RGBA(r: pre(c.0), g: pre(c.1), b: pre(c.2), a: UInt8(a)), x: x, y: y)
            }
        }
        return bitmap
    }

    /// Writes `bitmap` as a PNG with Iris's own PNG encoder.
    static func writePNG(_ bitmap: Bitmap, to url: URL) throws {
        try TestImages.png(bitmap).write(to: url)
    }

    /// The file at `url` decoded by Iris (the registry: sniffing, limits, target, orientation).
    static func decode(_ url: URL, options: DecodeOptions = DecodeOptions()) throws -> LoadedImage {
        try ImageDecoderRegistry.standard.decode(Data(contentsOf: url), options: options)
    }

    /// The largest difference of any channel of any pixel (premultiplied RGBA), with where.
    static func maxDifference(_ a: Bitmap, _ b: Bitmap) -> (difference: Int, x: Int, y: Int) {
        var worst = (difference: 0, x: 0, y: 0)
        for y in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) {
                let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
                let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
                if d > worst.difference { worst = (d, x, y) }
            }
        }
        return worst
    }

    /// The mean absolute difference over every channel of every pixel (premultiplied RGBA).
    static func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        var total = 0
        for y in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) {
                let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
                total += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b)) + abs(Int(p.a) - Int(q.a))
            }
        }
        return Double(total) / Double(max(1, min(a.width, b.width) * min(a.height, b.height) * 4))
    }

    /// Expects Iris's decode of `encoded` and Iris's decode of the reference decoder's PNG
    /// `reference` to be the same picture within `tolerance` levels per channel.
    static func expectMatches(
        _ encoded: URL, _ reference: URL, tolerance: Int, options: DecodeOptions = DecodeOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let mine = try decode(encoded, options: options).bitmap
        let theirs = try decode(reference, options: options).bitmap
        #expect(mine.size == theirs.size, "\(encoded.lastPathComponent): \(mine.size) vs \(theirs.size)", sourceLocation: sourceLocation)
        let worst = maxDifference(mine, theirs)
        #expect(
            worst.difference <= tolerance,
            "\(encoded.lastPathComponent): differs by \(worst.difference) at (\(worst.x), \(worst.y))", sourceLocation: sourceLocation)
    }

    /// The dominant channel of the pixel near each corner (inset by an eighth), clockwise from
    /// the top left: "r", "g", "b" or "w" (white).
    static func corners(_ bitmap: Bitmap) -> [String] {
        let ix = bitmap.width / 8, iy = bitmap.height / 8
        let points = [(ix, iy), (bitmap.width - 1 - ix, iy), (bitmap.width - 1 - ix, bitmap.height - 1 - iy), (ix, bitmap.height - 1 - iy)]
        return points.map { point in
            let p = bitmap.rgba(x: point.0, y: point.1)
            if p.r > 150, p.g > 150, p.b > 150 { return "w" }
            if p.r >= p.g, p.r >= p.b { return "r" }
            return p.g >= p.b ? "g" : "b"
        }
    }
}

/// A failed tool run, with its output.
struct CodecToolError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
#endif
