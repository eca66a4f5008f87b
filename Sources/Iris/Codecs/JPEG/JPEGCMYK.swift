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
            if !inverted {
                c = 255 - c
                m = 255 - m
                y = 255 - y
                k = 255 - k
            }
            // Now each is 255 − ink: channel = (1 − ink) × (1 − black).
            p[i] = PixelConversion.mulDiv255(c, k)
            p[i + 1] = PixelConversion.mulDiv255(m, k)
            p[i + 2] = PixelConversion.mulDiv255(y, k)
            p[i + 3] = 255
            i += 4
        }
    }
}
#endif
