#if IRIS_TESTABLE && canImport(CPNG)
import Foundation
@testable import Iris

/// Writes APNGs: each frame's pixels are compressed by libpng (through ``PNGWriter``), and its
/// IDAT data is put into the APNG chunks (acTL, fcTL, fdAT) around it.
package enum APNGTestWriter {
    /// One frame: its rectangle, straight-alpha pixels, delay and ops.
    package struct Frame {
        package init(
            x: Int = 0, y: Int = 0, width: Int, height: Int, pixels: [RGBA],
            delay: (numerator: UInt16, denominator: UInt16) = (1, 10), dispose: UInt8 = 0, blend: UInt8 = 0
        ) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.pixels = pixels
            self.delay = delay
            self.dispose = dispose
            self.blend = blend
        }

        package var x = 0, y = 0, width: Int, height: Int
        package var pixels: [RGBA]
        package var delay: (numerator: UInt16, denominator: UInt16) = (1, 10)
        /// 0 NONE, 1 BACKGROUND, 2 PREVIOUS.
        package var dispose: UInt8 = 0
        /// 0 SOURCE, 1 OVER.
        package var blend: UInt8 = 0
    }

    /// An APNG of `frames` on a `width`×`height` canvas. Frame 0 is the default image unless
    /// `defaultImage` (full canvas) is given, which is then shown by still decoders only.
    /// `declaredFrames` overrides acTL's frame count.
    package static func apng(
        width: Int, height: Int, frames: [Frame], plays: Int = 0, defaultImage: [RGBA]? = nil,
        declaredFrames: Int? = nil
    ) throws -> Data {
        var out = PNGSampleImage.signature
        out += PNGBytes.ihdr(width: UInt32(width), height: UInt32(height), bitDepth: 8, colorType: 6)
        out += PNGBytes.chunk("acTL", PNGBytes.be32(UInt32(declaredFrames ?? frames.count)) + PNGBytes.be32(UInt32(plays)))
        var sequence: UInt32 = 0
        func control(_ frame: Frame) -> [UInt8] {
            defer { sequence += 1 }
            return PNGBytes.chunk(
                "fcTL",
                PNGBytes.be32(sequence) + PNGBytes.be32(UInt32(frame.width)) + PNGBytes.be32(UInt32(frame.height))
                    + PNGBytes.be32(UInt32(frame.x)) + PNGBytes.be32(UInt32(frame.y))
                    + [
                        UInt8(frame.delay.numerator >> 8), UInt8(frame.delay.numerator & 0xFF),
                        UInt8(frame.delay.denominator >> 8), UInt8(frame.delay.denominator & 0xFF), frame.dispose, frame.blend,
                    ])
        }
        if let defaultImage {
            for body in try idat(width: width, height: height, pixels: defaultImage) { out += PNGBytes.chunk("IDAT", body) }
        }
        for (index, frame) in frames.enumerated() {
            out += control(frame)
            for body in try idat(width: frame.width, height: frame.height, pixels: frame.pixels) {
                if index == 0 && defaultImage == nil {
                    out += PNGBytes.chunk("IDAT", body)
                } else {
                    out += PNGBytes.chunk("fdAT", PNGBytes.be32(sequence) + body)
                    sequence += 1
                }
            }
        }
        out += PNGBytes.chunk("IEND", [])
        return Data(out)
    }

    /// The IDAT bodies libpng writes for straight-alpha `pixels`.
    package static func idat(width: Int, height: Int, pixels: [RGBA]) throws -> [[UInt8]] {
        let rows = (0..<height).map { y in
            (0..<width).flatMap { x -> [UInt8] in
                let p = pixels[y * width + x]
                return [p.r, p.g, p.b, p.a]
            }
        }
        let png = try PNGWriter.write(width: width, height: height, colorType: .rgba, bitDepth: 8, rows: rows)
        let bytes = [UInt8](png)
        return PNGBytes.chunks(png).filter { $0.type == "IDAT" }.map { Array(bytes[$0.dataRange]) }
    }
}
#endif
