#if canImport(CPNG)
import Foundation
import Testing
@testable import Iris
import IrisTestSupport

/// `iris info`, `frames` and `convert` agree on an APNG's frames: the first fcTL frame when the
/// default image is outside the animation, the count whatever the chunk order, and the default
/// image (a still) in every command when the sequence numbers are broken.
@Suite("APNG in the commands")
struct APNGCommandTests {
    /// What `iris frames` did with `file`: its exit status, its lines ("index milliseconds"),
    /// and the frames it wrote, decoded.
    static func frames(of file: URL, in directory: URL) async throws -> (status: Int32, lines: [String], frames: [Bitmap], error: String) {
        let out = directory.appendingPathComponent("frames-\(file.deletingPathExtension().lastPathComponent)")
        let run = try await CodecCommandRun.iris(["frames", "--out", out.path, file.path])
        let bitmaps = try CLITestSupport.fileNames(in: out).map { name in
            try ImageDecoderRegistry.standard.decode(contentsOf: out.appendingPathComponent(name)).bitmap
        }
        return (run.status, run.standardOutput.split(separator: "\n").map(String.init), bitmaps, run.standardError)
    }

    /// The first pixel of what `iris convert file out.png` wrote.
    static func convertedPixel(_ file: URL, in directory: URL) async throws -> RGBA? {
        let out = directory.appendingPathComponent("converted-\(file.lastPathComponent)")
        let run = try await CodecCommandRun.iris(["convert", file.path, out.path])
        #expect(run.status == 0, "convert: \(run.standardError)")
        return try? ImageDecoderRegistry.standard.decode(contentsOf: out).bitmap.rgba(x: 0, y: 0)
    }

    @Test("a hidden default image and one fcTL frame: info says 1 frame, animated, 0.25 s; frames writes it with 250 ms; convert writes it")
    func hiddenDefaultOneFrame() async throws {
        let directory = try CLITestSupport.directory("apng-hidden-one")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hidden.png")
        try APNGConformanceTests.hiddenDefault(frames: 1).write(to: file)
        let info = try await CodecCommandRun.infoJSON(file)
        #expect(info["frames"] as? Int == 1 && info["animated"] as? Bool == true)
        #expect(info["duration"] as? Double == 0.25)
        let frames = try await Self.frames(of: file, in: directory)
        #expect(frames.status == 0, "\(frames.error)")
        #expect(frames.lines == ["0 250"])
        #expect(frames.frames.count == 1 && frames.frames.first?.rgba(x: 0, y: 0) == APNGConformanceTests.green)
        #expect(try await Self.convertedPixel(file, in: directory) == APNGConformanceTests.green)
    }

    @Test("a hidden default image and two frames: info and frames count 2, the first is the first fcTL frame")
    func hiddenDefaultTwoFrames() async throws {
        let directory = try CLITestSupport.directory("apng-hidden-two")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hidden2.png")
        try APNGConformanceTests.hiddenDefault(frames: 2).write(to: file)
        #expect(try await CodecCommandRun.infoJSON(file)["frames"] as? Int == 2)
        let frames = try await Self.frames(of: file, in: directory)
        #expect(frames.lines == ["0 250", "1 300"])
        #expect(frames.frames.count == 2 && frames.frames.first?.rgba(x: 3, y: 3) == APNGConformanceTests.green)
        #expect(frames.frames.last?.rgba(x: 1, y: 2) == APNGConformanceTests.blue)
        #expect(try await Self.convertedPixel(file, in: directory) == APNGConformanceTests.green)
    }

    @Test("an fcTL before acTL: info and frames count the same three frames")
    func frameControlBeforeAnimationControl() async throws {
        let directory = try CLITestSupport.directory("apng-fctl-first")
        defer { try? FileManager.default.removeItem(at: directory) }
        let colours = [APNGConformanceTests.red, APNGConformanceTests.green, APNGConformanceTests.blue]
        let frames = colours.map { APNGTestWriter.Frame(width: 2, height: 2, pixels: APNGConformanceTests.filled($0, 4)) }
        var list = APNGChunkList(try APNGTestWriter.apng(width: 2, height: 2, frames: frames))
        let moved = list.chunks.remove(at: list.indices(of: "acTL")[0])
        list.chunks.insert(moved, at: list.indices(of: "fcTL")[0] + 1)
        let file = directory.appendingPathComponent("fctl-first.png")
        try list.data.write(to: file)
        #expect(try await CodecCommandRun.infoJSON(file)["frames"] as? Int == 3)
        let written = try await Self.frames(of: file, in: directory)
        #expect(written.status == 0 && written.frames.count == 3)
        #expect(written.frames.map { $0.rgba(x: 1, y: 1) } == colours)
    }

    @Test(
        "broken sequence numbers: every command shows the default image as a still, none fails",
        arguments: APNGConformanceTests.SequenceBreak.allCases)
    func brokenSequence(_ kind: APNGConformanceTests.SequenceBreak) async throws {
        let directory = try CLITestSupport.directory("apng-broken-\(kind.rawValue)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("broken-\(kind.rawValue).png")
        try APNGConformanceTests.broken(kind).write(to: file)
        let info = try await CodecCommandRun.infoJSON(file)
        #expect(info["frames"] as? Int == 1 && info["animated"] as? Bool == false)
        let frames = try await Self.frames(of: file, in: directory)
        #expect(frames.status == 0, "frames: \(frames.error)")
        #expect(frames.lines == ["0 0"])
        #expect(frames.frames.count == 1 && frames.frames.first?.rgba(x: 5, y: 5) == APNGConformanceTests.red)
        #expect(try await Self.convertedPixel(file, in: directory) == APNGConformanceTests.red)
    }
}
#endif
