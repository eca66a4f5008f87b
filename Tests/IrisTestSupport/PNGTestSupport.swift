#if IRIS_TESTABLE && canImport(CPNG)
import Foundation
@testable import Iris
import IrisSamples

/// A PNG test input: its samples as written, and the pixels a decoder must produce for them.
package struct PNGSampleImage {
    package init(
        width: Int, height: Int, colorType: PNGColorType, bitDepth: Int, samples: [[Int]],
        palette: [PNGWriter.PaletteEntry] = [], trns: PNGTransparency? = nil
    ) {
        self.width = width
        self.height = height
        self.colorType = colorType
        self.bitDepth = bitDepth
        self.samples = samples
        self.palette = palette
        self.trns = trns
    }

    /// The eight bytes every PNG file starts with.
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    package var width: Int
    package var height: Int
    package var colorType: PNGColorType
    package var bitDepth: Int
    /// Samples per row, `width × channels` each, at the bit depth.
    package var samples: [[Int]]
    package var palette: [PNGWriter.PaletteEntry] = []
    package var trns: PNGTransparency?

    /// Random samples (palette indices within the palette), with the tRNS colour planted on
    /// every fifth pixel when `withTransparency` so the transparent value really occurs.
    package init(width: Int, height: Int, colorType: PNGColorType, bitDepth: Int, withTransparency: Bool, seed: UInt64) {
        self.width = width
        self.height = height
        self.colorType = colorType
        self.bitDepth = bitDepth
        var random = SplitMix(seed: seed)
        let maxSample = (1 << bitDepth) - 1
        if colorType == .palette {
            let count = min(1 << bitDepth, 200)
            palette = (0..<count).map { _ in (random.byte(), random.byte(), random.byte()) }
            if withTransparency {
                // Fewer alphas than entries: the rest are opaque.
                trns = .paletteAlpha((0..<max(1, count * 2 / 3)).map { _ in random.byte() })
            }
        } else if withTransparency {
            let red = random.below(maxSample + 1), green = random.below(maxSample + 1), blue = random.below(maxSample + 1)
            trns = colorType == .gray ? .gray(UInt16(red)) : .rgb(red: UInt16(red), green: UInt16(green), blue: UInt16(blue))
        }
        let channels = colorType.channels
        let paletteCount = palette.count
        let planted: [Int]? =
            switch trns {
            case .gray(let v): [Int(v)]
            case let .rgb(r, g, b): [Int(r), Int(g), Int(b)]
            default: nil
            }
        samples = (0..<height).map { y in
            var row: [Int] = []
            row.reserveCapacity(width * channels)
            for x in 0..<width {
                if let planted, (x + y * width) % 5 == 0 {
                    row.append(contentsOf: planted)
                } else if colorType == .palette {
                    row.append(random.below(paletteCount))
                } else {
                    for _ in 0..<channels { row.append(random.below(maxSample + 1)) }
                }
            }
            return row
        }
    }

    /// The packed rows PNG stores.
    package var packedRows: [[UInt8]] { samples.map { PNGSampleImage.pack($0, bitDepth: bitDepth) } }

    /// The file, written by libpng.
    package func encoded(interlaced: Bool) throws -> Data {
        try PNGWriter.write(
            width: width, height: height, colorType: colorType, bitDepth: bitDepth, rows: packedRows,
            palette: palette, trns: trns, interlaced: interlaced)
    }

    /// The format the decoder must choose.
    package var expectedFormat: PixelFormat {
        if colorType == .grayAlpha || colorType == .rgba || trns != nil { return .rgba8 }
        return colorType == .gray ? .gray8 : .rgbx8
    }

    /// The premultiplied pixel at (x, y), computed from the samples.
    package func expectedPixel(x: Int, y: Int) -> RGBA {
        let channels = colorType.channels
        let s = Array(samples[y][(x * channels)..<((x + 1) * channels)])
        let straight: RGBA
        switch colorType {
        case .gray:
            let v = Self.to8(s[0], bitDepth: bitDepth)
            let transparent = trns == .gray(UInt16(s[0]))
            straight = RGBA(r: v, g: v, b: v, a: transparent ? 0 : 255)
        case .grayAlpha:
            let v = Self.to8(s[0], bitDepth: bitDepth)
            straight = RGBA(r: v, g: v, b: v, a: Self.to8(s[1], bitDepth: bitDepth))
        case .rgb:
            let transparent = trns == .rgb(red: UInt16(s[0]), green: UInt16(s[1]), blue: UInt16(s[2]))
            straight = RGBA(
                r: Self.to8(s[0], bitDepth: bitDepth), g: Self.to8(s[1], bitDepth: bitDepth),
                b: Self.to8(s[2], bitDepth: bitDepth), a: transparent ? 0 : 255)
        case .rgba:
            straight = RGBA(
                r: Self.to8(s[0], bitDepth: bitDepth), g: Self.to8(s[1], bitDepth: bitDepth),
                b: Self.to8(s[2], bitDepth: bitDepth), a: Self.to8(s[3], bitDepth: bitDepth))
        case .palette:
            let entry = palette[s[0]]
            var alpha: UInt8 = 255
            if case .paletteAlpha(let alphas) = trns, s[0] < alphas.count { alpha = alphas[s[0]] }
            straight = RGBA(r: entry.red, g: entry.green, b: entry.blue, a: alpha)
        }
        return Self.premultiplied(straight)
    }

    /// A sample at `bitDepth` as 8 bits: low depths scaled to 0–255, 16 bits rounded.
    package static func to8(_ v: Int, bitDepth: Int) -> UInt8 {
        switch bitDepth {
        case 16: UInt8((v * 255 + 32767) / 65535)
        case 8: UInt8(v)
        default: UInt8(v * 255 / ((1 << bitDepth) - 1))
        }
    }

    /// `round(c × a / 255)` per colour channel.
    package static func premultiplied(_ p: RGBA) -> RGBA {
        let a = Int(p.a)
        func mul(_ c: UInt8) -> UInt8 { UInt8((Int(c) * a + 127) / 255) }
        return RGBA(r: mul(p.r), g: mul(p.g), b: mul(p.b), a: p.a)
    }

    /// Samples packed as PNG stores them: big-endian 16-bit, low depths from the high bit.
    package static func pack(_ samples: [Int], bitDepth: Int) -> [UInt8] {
        if bitDepth == 16 { return samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
        if bitDepth == 8 { return samples.map { UInt8($0) } }
        var out = [UInt8](repeating: 0, count: (samples.count * bitDepth + 7) / 8)
        for (i, s) in samples.enumerated() {
            let bit = i * bitDepth
            out[bit / 8] |= UInt8(s << (8 - bitDepth - bit % 8))
        }
        return out
    }
}
#endif
