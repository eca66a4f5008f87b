#if canImport(CJPEG)
/// CMYK ↔ RGB for JPEG, the naive way print-free decoders do it (no ICC profile).
///
/// Photoshop, and most files with an Adobe APP14 marker, store CMYK *inverted* (255 = no ink);
/// libjpeg hands the samples over as stored, so the decoder must know which convention holds.
enum JPEGCMYK {
    /// Turns CMYK pixels into RGBX in place (both are 4 bytes a pixel).
    /// `inverted`: the samples are stored as 255 − ink (Adobe marker present).
    static func cmykToRGBX(_ row: UnsafeMutableRawBufferPointer, pixelCount: Int, inverted: Bool) {
        let p = row.bindMemory(to: UInt8.self)
        var i = 0
        for _ in 0..<pixelCount {
            var c = UInt32(p[i]), m = UInt32(p[i + 1]), y = UInt32(p[i + 2]), k = UInt32(p[i + 3])
            if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
            // Now each is 255 − ink: channel = (1 − ink) × (1 − black).
            p[i] = PixelConversion.mulDiv255(c, k)
            p[i + 1] = PixelConversion.mulDiv255(m, k)
            p[i + 2] = PixelConversion.mulDiv255(y, k)
            p[i + 3] = 255
            i += 4
        }
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
            let white = max(r, g, b) // 255 − K
            // 255 − C = 255 × R / (255 − K), and likewise for M and Y.
            func keep(_ v: UInt32) -> UInt32 { white == 0 ? 0 : min(255, (v * 255 + white / 2) / white) }
            var values = (keep(r), keep(g), keep(b), white)
            if !inverted { values = (255 - values.0, 255 - values.1, 255 - values.2, 255 - values.3) }
            p[i] = UInt8(values.0); p[i + 1] = UInt8(values.1); p[i + 2] = UInt8(values.2); p[i + 3] = UInt8(values.3)
            i += 4
        }
    }
}
#endif
