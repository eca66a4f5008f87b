#if canImport(CGIF)
import Foundation
import IrisSamples
import Testing
@testable import Iris

@Suite("GIF codec")
struct GIFCodecTests {
    let decoder = GIFDecoder()

    /// Black, white, red, green, blue, and grey levels to 256 entries.
    static let palette: [(UInt8, UInt8, UInt8)] =
        [(0, 0, 0), (255, 255, 255), (255, 0, 0), (0, 255, 0), (0, 0, 255)]
        + (5..<256).map { (UInt8($0), UInt8($0), UInt8($0)) }

    /// Deterministic indices for a `width`×`height` frame.
    static func indices(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix(seed: seed)
        return (0..<(width * height)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    static func colour(_ index: UInt8) -> RGBA {
        let c = palette[Int(index)]
        return RGBA(r: c.0, g: c.1, b: c.2)
    }

    private func decode(_ data: Data, to output: PixelSize? = nil) throws -> Bitmap {
        let header = try decoder.readHeader(data)
        return try decoder.decode(data, context: DecodeContext(header: header, outputSize: output ?? header.storedSize))
    }

    @Test("an interlaced frame claiming 20000×20000 on a 16×16 screen is over the limit, not a 400 MB allocation")
    func interlacedFrameBomb() throws {
        let frame = GIFTestWriter.Frame(width: 4, height: 4, indices: [UInt8](repeating: 1, count: 16), interlaced: true)
        var data = try GIFTestWriter.gif(width: 16, height: 16, palette: [(0, 0, 0), (255, 0, 0)], frames: [frame])
        // The image descriptor follows the 6-byte header, the 7-byte screen descriptor and the
        // 2-colour palette: 0x2C, left, top, width, height (little-endian), flags.
        let descriptor = 6 + 7 + 2 * 3
        #expect(data[descriptor] == 0x2C)
        for (offset, value) in [(5, UInt16(20000)), (7, UInt16(20000))] {
            data[descriptor + offset] = UInt8(value & 0xFF)
            data[descriptor + offset + 1] = UInt8(value >> 8)
        }
        #expect(throws: ImageError.overLimit(.pixels(width: 20000, height: 20000, limit: DecodingLimits.default.maxPixels))) {
            try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(target: DecodeTarget(width: 8, height: 8)))
        }
    }

    @Test("an opaque frame decodes to exactly its palette colours, interlaced or not", arguments: [false, true])
    func opaque(interlaced: Bool) throws {
        let (width, height) = (37, 29)
        let indices = Self.indices(width: width, height: height, seed: 1)
        let data = try GIFTestWriter.gif(
            width: width, height: height, palette: Self.palette,
            frames: [.init(width: width, height: height, indices: indices, interlaced: interlaced)])
        let header = try decoder.readHeader(data)
        #expect(header == ImageHeader(format: .gif, width: width, height: height, hasAlpha: false, frameCount: 1))
        let bitmap = try decode(data)
        #expect(bitmap.format == .rgbx8)
        var wrong = 0
        for y in 0..<height { for x in 0..<width where bitmap.rgba(x: x, y: y) != Self.colour(indices[y * width + x]) { wrong += 1 } }
        #expect(wrong == 0)
    }

    @Test("the transparent index becomes transparent black and the output rgba8")
    func transparency() throws {
        let (width, height) = (16, 9)
        var indices = Self.indices(width: width, height: height, seed: 2)
        for i in stride(from: 0, to: indices.count, by: 3) { indices[i] = 7 }
        let data = try GIFTestWriter.gif(
            width: width, height: height, palette: Self.palette,
            frames: [.init(width: width, height: height, indices: indices, transparentIndex: 7)])
        #expect(try decoder.readHeader(data).hasAlpha)
        let bitmap = try decode(data)
        #expect(bitmap.format == .rgba8)
        for y in 0..<height {
            for x in 0..<width {
                let index = indices[y * width + x]
                #expect(bitmap.rgba(x: x, y: y) == (index == 7 ? RGBA(r: 0, g: 0, b: 0, a: 0) : Self.colour(index)))
            }
        }
    }

    @Test("a frame smaller than the screen sits at its offset; the rest is transparent")
    func offsetFrame() throws {
        let indices = [UInt8](repeating: 2, count: 4 * 3)  // red
        let data = try GIFTestWriter.gif(
            width: 10, height: 8, palette: Self.palette,
            frames: [.init(left: 5, top: 4, width: 4, height: 3, indices: indices)])
        let bitmap = try decode(data)
        #expect(bitmap.size == PixelSize(width: 10, height: 8))
        #expect(bitmap.format == .rgba8)
        for y in 0..<8 {
            for x in 0..<10 {
                let inside = (5..<9).contains(x) && (4..<7).contains(y)
                #expect(bitmap.rgba(x: x, y: y) == (inside ? RGBA(r: 255, g: 0, b: 0) : RGBA(r: 0, g: 0, b: 0, a: 0)))
            }
        }
    }

    @Test("several frames are counted and the first is decoded")
    func frames() throws {
        let frames = (0..<4).map { GIFTestWriter.Frame(width: 12, height: 12, indices: [UInt8](repeating: UInt8(1 + $0), count: 144)) }
        let data = try GIFTestWriter.gif(width: 12, height: 12, palette: Self.palette, frames: frames)
        #expect(try decoder.readHeader(data).frameCount == 4)
        let bitmap = try decode(data)
        #expect(bitmap.rgba(x: 6, y: 6) == RGBA(r: 255, g: 255, b: 255))
    }

    @Test("decoding to a smaller size streams through the resampler")
    func downscaled() throws {
        let indices = [UInt8](repeating: 3, count: 301 * 203)  // green
        let data = try GIFTestWriter.gif(
            width: 301, height: 203, palette: Self.palette,
            frames: [.init(width: 301, height: 203, indices: indices, interlaced: true)])
        let small = try decode(data, to: PixelSize(width: 30, height: 20))
        #expect(small.size == PixelSize(width: 30, height: 20))
        for y in 0..<20 { for x in 0..<30 { #expect(small.rgba(x: x, y: y) == RGBA(r: 0, g: 255, b: 0)) } }
    }

    @Test("truncated pixel data is reported as truncated")
    func truncated() throws {
        let indices = Self.indices(width: 64, height: 64, seed: 3)
        let data = try GIFTestWriter.gif(
            width: 64, height: 64, palette: Self.palette,
            frames: [.init(width: 64, height: 64, indices: indices)])
        for cut in [13, 900, data.count / 2, data.count - 3] {
            let prefix = data.prefix(cut)
            #expect(throws: ImageError.truncated(format: .gif, received: cut, expected: nil), "cut at \(cut)") {
                try decode(prefix)
            }
        }
    }

    @Test("a zero-size screen is an impossible size; garbage after the magic is an ImageError")
    func badHeaders() throws {
        let data = try GIFTestWriter.gif(
            width: 4, height: 4, palette: Self.palette,
            frames: [.init(width: 4, height: 4, indices: [UInt8](repeating: 1, count: 16))])
        var zero = data
        zero[6] = 0
        zero[7] = 0  // logical screen width
        #expect(throws: ImageError.invalidDimensions(format: .gif, width: 0, height: 4)) { try decoder.readHeader(zero) }
        var random = SplitMix(seed: 5)
        for _ in 0..<200 {
            var bad = data
            for _ in 0..<3 {
                let index = 6 + Int(random.next() % UInt64(data.count - 6))
                bad[index] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            do { _ = try decode(bad) } catch { #expect(error is ImageError) }
        }
    }
}
#endif
