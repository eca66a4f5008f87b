#if canImport(CJPEG)
import CIrisShims
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
                r += Int(p.r)
                g += Int(p.g)
                b += Int(p.b)
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

/// JPEGs only the tests write: four-colour (CMYK, YCCK) and with a scan per band per bit.
extension JPEGEncoder {
    /// Writes a four-colour JPEG from an RGB(X/A) bitmap (alpha dropped), for tests and tools:
    /// CMYK with full black generation, or YCCK (`ycck`, which always carries the Adobe marker).
    /// With `adobeMarker` the samples are stored inverted, as Photoshop does; without it (CMYK
    /// only) they are stored as plain ink amounts.
    static func encodeFourColour(
        _ bitmap: Bitmap, quality: Int, ycck: Bool, adobeMarker: Bool = true,
        progressive: Bool = false
    ) throws -> Data {
        guard bitmap.format != .gray8 else {
            throw ImageError.encodingFailed(format: .jpeg, reason: "CMYK needs a colour bitmap")
        }
        let bitmap = bitmap.inRGBOrder
        let inverted = adobeMarker || ycck
        var settings = settings(for: bitmap.size, quality: quality, progressive: progressive)
        settings.input_color_space = IRIS_JPEG_CS_CMYK
        settings.jpeg_color_space = ycck ? IRIS_JPEG_CS_YCCK : IRIS_JPEG_CS_CMYK
        settings.adobe_marker = inverted ? 1 : 0
        let compressor = try JPEGCompressor(options: settings)
        let stride = bitmap.width * 4
        var row = [UInt8](repeating: 0, count: stride)
        for y in 0..<bitmap.height {
            try bitmap.withUnsafeBytes { bytes in
                let source = UnsafeRawBufferPointer(rebasing: bytes[(y * bitmap.bytesPerRow)..<(y * bitmap.bytesPerRow + stride)])
                try row.withUnsafeMutableBytes { cmyk in
                    rgbToCMYK(from: source, to: cmyk, pixelCount: bitmap.width, inverted: inverted)
                    try compressor.write(rows: UnsafeRawBufferPointer(cmyk), stride: stride, count: 1)
                }
            }
        }
        return try compressor.finish()
    }

    /// Writes a valid colour JPEG with one scan per coefficient band per bit (about 1,900 scans),
    /// to test the decoder's scan limit.
    static func encodeExhaustivelyProgressive(_ bitmap: Bitmap, quality: Int) throws -> Data {
        var settings = settings(for: bitmap.size, quality: quality, progressive: false)
        settings.scans = IRIS_JPEG_SCANS_EXHAUSTIVE
        settings.input_color_space = IRIS_JPEG_CS_RGBX
        settings.jpeg_color_space = IRIS_JPEG_CS_YCBCR
        let compressor = try JPEGCompressor(options: settings)
        try bitmap.converted(to: .rgbx8).withUnsafeBytes { bytes in
            try compressor.write(rows: bytes, stride: bitmap.width * 4, count: bitmap.height)
        }
        return try compressor.finish()
    }

    /// Writes CMYK for RGB(X/A) pixels (alpha ignored) with full black generation
    /// (K = 1 − max(R, G, B)), inverted as Photoshop stores it when `inverted`.
    /// Exactly undone by ``cmykToRGBX(_:pixelCount:inverted:)`` up to rounding.
    static func rgbToCMYK(from source: UnsafeRawBufferPointer, to row: UnsafeMutableRawBufferPointer, pixelCount: Int, inverted: Bool) {
        let s = source.bindMemory(to: UInt8.self)
        let p = row.bindMemory(to: UInt8.self)
        var i = 0
        for _ in 0..<pixelCount {
            let r = UInt32(s[i]), g = UInt32(s[i + 1]), b = UInt32(s[i + 2])
            let white = max(r, g, b)  // 255 − K
            // 255 − C = 255 × R / (255 − K), and likewise for M and Y.
            func keep(_ v: UInt32) -> UInt32 { white == 0 ? 0 : min(255, (v * 255 + white / 2) / white) }
            var values = (keep(r), keep(g), keep(b), white)
            if !inverted { values = (255 - values.0, 255 - values.1, 255 - values.2, 255 - values.3) }
            p[i] = UInt8(values.0)
            p[i + 1] = UInt8(values.1)
            p[i + 2] = UInt8(values.2)
            p[i + 3] = UInt8(values.3)
            i += 4
        }
    }
}
#endif
