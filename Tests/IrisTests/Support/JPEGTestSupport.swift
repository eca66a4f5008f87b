#if canImport(CJPEG)
import Foundation
@testable import Iris

/// Helpers for the JPEG codec tests: full-size decodes, pixel error, marker lookup.
enum JPEGTestSupport {
    /// Decodes `data` at its full size with `decoder`.
    static func decodeFull(_ data: Data, decoder: JPEGDecoder = JPEGDecoder()) throws -> Bitmap {
        let header = try decoder.readHeader(data)
        return try decoder.decode(data, context: DecodeContext(header: header, outputSize: header.storedSize))
    }

    /// Decodes `data` to `output` with `decoder`.
    static func decode(_ data: Data, to output: PixelSize, decoder: JPEGDecoder = JPEGDecoder()) throws -> Bitmap {
        let header = try decoder.readHeader(data)
        return try decoder.decode(data, context: DecodeContext(header: header, outputSize: output))
    }

    /// Mean and largest absolute difference over the R, G, B channels (grey is expanded).
    static func error(_ a: Bitmap, _ b: Bitmap) -> (mean: Double, max: Int) {
        precondition(a.size == b.size, "sizes differ: \(a.size) vs \(b.size)")
        var total = 0, largest = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
                for d in [abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b))] {
                    total += d
                    largest = max(largest, d)
                }
            }
        }
        return (Double(total) / Double(max(1, a.width * a.height * 3)), largest)
    }

    /// The average R, G, B of a bitmap.
    static func meanColour(_ bitmap: Bitmap) -> (Double, Double, Double) {
        var r = 0, g = 0, b = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap.rgba(x: x, y: y)
                r += Int(p.r); g += Int(p.g); b += Int(p.b)
            }
        }
        let n = Double(max(1, bitmap.width * bitmap.height))
        return (Double(r) / n, Double(g) / n, Double(b) / n)
    }

    /// Byte range of the first marker segment with code `marker` (the range starts at the
    /// 0xFF), walking the segments from SOI up to the first SOS.
    static func segment(_ marker: UInt8, in data: Data) -> Range<Int>? {
        let bytes = [UInt8](data)
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let code = bytes[offset + 1]
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if code == marker { return offset..<(offset + 2 + length) }
            if code == 0xDA { return nil }
            offset += 2 + length
        }
        return nil
    }

    /// The offset just past the first SOS segment header: where entropy-coded data starts.
    static func entropyStart(in data: Data) -> Int? {
        segment(0xDA, in: data)?.upperBound
    }

    /// What decoding `data` fully gave: a bitmap or the error.
    static func outcome(_ data: Data, decoder: JPEGDecoder = JPEGDecoder()) -> Result<Bitmap, any Error> {
        Result { try decodeFull(data, decoder: decoder) }
    }
}
#endif
