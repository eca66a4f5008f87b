import Iris

extension Bitmap {
    /// Whether every pixel is opaque and grey (red, green and blue equal): the picture loses
    /// nothing as ``PixelFormat/gray8``. Stops at the first pixel that is not.
    var isOpaqueGrey: Bool {
        if format == .gray8 { return true }
        let bytesPerPixel = format.bytesPerPixel, hasAlpha = format.hasAlpha
        guard bytesPerPixel == 4 else { return false }
        return withUnsafeBytes { raw in
            let p = raw.bindMemory(to: UInt8.self)
            for y in 0..<height {
                var i = y * bytesPerRow
                for _ in 0..<width {
                    if p[i] != p[i + 1] || p[i + 1] != p[i + 2] || (hasAlpha && p[i + 3] != 255) { return false }
                    i += 4
                }
            }
            return true
        }
    }
}
