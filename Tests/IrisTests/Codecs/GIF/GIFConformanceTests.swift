#if canImport(CGIF)
import CGIF
import Foundation
import Testing
@testable import Iris
import IrisTestSupport

/// GIFs the way the GIF89a specification leaves room for: frames with no colour table at all
/// (decoded as Chromium does: every index transparent, the frame kept with its delay), and an
/// LZW minimum code size giflib rejects, reported as such rather than as truncation.
@Suite("GIF conformance")
struct GIFConformanceTests {
    let registry = ImageDecoderRegistry(decoders: [GIFDecoder()])

    static let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]

    /// Three 4×4 frames with distinct patterns, shown 100, 200 and 300 ms.
    static func threeFrames() throws -> Data {
        let frames = (0..<3).map { frame in
            GIFTestWriter.Frame(width: 4, height: 4, indices: (0..<16).map { UInt8(($0 + frame * 5) % 4) }, delay: 10 * (frame + 1))
        }
        return try GIFTestWriter.gif(width: 4, height: 4, palette: palette, frames: frames, loopCount: 0)
    }

    /// `threeFrames()` without its global colour table, the first frame given a local one: the
    /// second and third frames have no colour table at all.
    static func framesWithoutTables() throws -> Data {
        var blocks = GIFBlocks(try threeFrames())
        blocks.removeGlobalTable()
        blocks.addLocalTable(toImage: 0, palette)
        #expect(blocks.globalTable == nil)
        #expect(blocks.images.map { $0.localTable != nil } == [true, false, false])
        return blocks.data
    }

    @Test("frames with no colour table are kept (count, delays) and draw nothing: the canvas shows through")
    func framesWithoutColourTable() async throws {
        let data = try Self.framesWithoutTables()
        try KeptInputs.keep(data, as: "gif-frames-without-colour-table.gif")
        let header = try registry.header(of: data)
        #expect(header.frameCount == 3)
        let image = try registry.decode(data)
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 3)
        #expect((0..<3).map { animation.duration(at: $0) } == [0.1, 0.2, 0.3])
        // Frame 0 as written: index (x + 4y) % 4 of the palette.
        for y in 0..<4 {
            for x in 0..<4 {
                let colour = Self.palette[(x + 4 * y) % 4]
                #expect(image.bitmap.rgba(x: x, y: y) == RGBA(r: colour.0, g: colour.1, b: colour.2), "(\(x), \(y))")
            }
        }
        let frames = try await AnimationReference.frames(of: animation)
        expectSameBytes(frames[1], frames[0], "frame 1")
        expectSameBytes(frames[2], frames[0], "frame 2")
    }

    @Test("a still GIF with no colour table anywhere decodes as transparent, not as an error")
    func stillWithoutColourTable() throws {
        var blocks = GIFBlocks(
            try GIFTestWriter.gif(
                width: 5, height: 3, palette: Self.palette,
                frames: [GIFTestWriter.Frame(width: 5, height: 3, indices: [UInt8](repeating: 2, count: 15))]))
        blocks.removeGlobalTable()
        let header = try registry.header(of: blocks.data)
        #expect(header.hasAlpha && header.frameCount == 1)
        let bitmap = try registry.decode(blocks.data).bitmap
        #expect(bitmap.size == PixelSize(width: 5, height: 3) && bitmap.format == .rgba8)
        #expect(bitmap.isOpaque == false && bitmap.rgba(x: 4, y: 2) == RGBA(r: 0, g: 0, b: 0, a: 0))
    }

    @Test("an LZW minimum code size giflib rejects is named, not reported as truncation", arguments: [12, 13, 255] as [UInt8])
    func rejectedCodeSize(_ size: UInt8) throws {
        var blocks = GIFBlocks(try Self.threeFrames())
        let offset = blocks.images[0].codeSize
        #expect(blocks.bytes[offset] == 2)  // what giflib wrote for four colours
        blocks.bytes[offset] = size
        try KeptInputs.keep(blocks.data, as: "gif-lzw-code-size-\(size).gif")
        for error in [
            thrownImageError { _ = try registry.header(of: blocks.data) },
            thrownImageError { _ = try registry.decode(blocks.data) },
        ] {
            guard case .decodingFailed(.gif, let reason)? = error else {
                Issue.record("expected a decoding failure, got \(String(describing: error))")
                continue
            }
            #expect(reason.contains("LZW minimum code size is \(size)"), "\(reason)")
            #expect(reason.contains("giflib error \(D_GIF_ERR_READ_FAILED)"), "\(reason)")
        }
    }
}
#endif
