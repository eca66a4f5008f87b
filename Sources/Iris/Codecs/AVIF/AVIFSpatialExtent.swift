import Foundation

/// Finds the size an AVIF file claims in its first `ispe` (image spatial extents) property,
/// with a bounded walk of the bytes: for a claim libavif refuses before Iris sees it (over
/// 16384×16384 pixels), so that the answer is Iris's own `overLimit` with the claimed size.
enum AVIFSpatialExtent {
    /// The width and height of the first well-formed `ispe` box, if any. Looks only at `data`'s
    /// first `searchLimit` bytes (the `meta` box comes first in every AVIF libavif writes).
    static func claimedSize(in data: Data, searchLimit: Int = 64 * 1024) -> PixelSize? {
        data.withUnsafeBytes { raw -> PixelSize? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = min(bytes.count, searchLimit)
            func u32(_ at: Int) -> Int {
                Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            }
            // size(4) "ispe"(4) version+flags(4) width(4) height(4): 20 bytes.
            var at = 4
            while at + 16 <= end {
                if bytes[at] == 0x69, bytes[at + 1] == 0x73, bytes[at + 2] == 0x70, bytes[at + 3] == 0x65,
                    u32(at - 4) == 20
                {
                    return PixelSize(width: u32(at + 8), height: u32(at + 12))
                }
                at += 1
            }
            return nil
        }
    }
}
