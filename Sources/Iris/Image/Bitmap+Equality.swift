import Foundation

extension Bitmap: Hashable {
    /// Whether the bitmaps have the same size, format, alpha representation and pixel bytes.
    /// Row padding and `bytesPerRow` do not count: only the `width × bytesPerPixel` bytes of
    /// each row do.
    public static func == (lhs: Bitmap, rhs: Bitmap) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height, lhs.format == rhs.format else { return false }
        guard !lhs.format.hasAlpha || lhs.isPremultiplied == rhs.isPremultiplied else { return false }
        if lhs.storage === rhs.storage && lhs.bytesPerRow == rhs.bytesPerRow { return true }
        let rowBytes = lhs.width * lhs.format.bytesPerPixel
        return lhs.withUnsafeBytes { a in
            rhs.withUnsafeBytes { b in
                if lhs.bytesPerRow == rowBytes && rhs.bytesPerRow == rowBytes {
                    let count = rowBytes * lhs.height
                    return count == 0 || memcmp(a.baseAddress!, b.baseAddress!, count) == 0
                }
                for y in 0..<lhs.height
                where memcmp(
                    a.baseAddress! + y * lhs.bytesPerRow,
                    b.baseAddress! + y * rhs.bytesPerRow, rowBytes) != 0
                {
                    return false
                }
                return true
            }
        }
    }

    /// Hashes size, format and the pixel bytes of each row (not the padding).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(format)
        let rowBytes = width * format.bytesPerPixel
        withUnsafeBytes { raw in
            for y in 0..<height {
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[(y * bytesPerRow)..<(y * bytesPerRow + rowBytes)]))
            }
        }
    }
}
