#if IRIS_TESTABLE
import Foundation
import Testing
@testable import Iris

// Large buffers are never compared with `#expect(a == b)`: on a failure Swift Testing diffs the
// two collections (quadratic), which can hold a cooperative thread for minutes. These compare
// lengths and bytes, and a failure is one line: lengths, CRC32s and the first differing offset.

/// Expects `actual` to be there and to hold the same bytes as `expected`; returns whether it does.
@discardableResult
package func expectSameBytes<Actual: Collection<UInt8>>(
    _ actual: Actual?, _ expected: some Collection<UInt8>, _ context: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    let prefix = context.isEmpty ? "" : "\(context): "
    guard let actual else {
        Issue.record(Comment(rawValue: prefix + "no bytes, expected \(expected.count)"), sourceLocation: sourceLocation)
        return false
    }
    let a = contiguous(actual), b = contiguous(expected)
    guard let offset = firstDifference(a, b) else { return true }
    Issue.record(
        Comment(
            rawValue: prefix + "bytes differ: \(a.count) bytes (CRC32 \(hex(CRC32.checksum(a)))) vs "
                + "\(b.count) expected (CRC32 \(hex(CRC32.checksum(b)))); first difference at offset \(offset)"
                + bytePair(a, b, at: offset)),
        sourceLocation: sourceLocation)
    return false
}

/// Expects two bitmaps to be equal as ``Bitmap/==`` says (size, format, each row's pixel bytes);
/// a failure names the sizes, formats or the first differing pixel and its bytes.
@discardableResult
package func expectSameBytes(
    _ actual: Bitmap?, _ expected: Bitmap, _ context: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    let prefix = context.isEmpty ? "" : "\(context): "
    guard let actual else {
        Issue.record(Comment(rawValue: prefix + "no bitmap, expected \(expected.size) \(expected.format)"), sourceLocation: sourceLocation)
        return false
    }
    if actual == expected { return true }
    guard actual.size == expected.size, actual.format == expected.format else {
        Issue.record(
            Comment(
                rawValue: prefix + "bitmaps differ: \(actual.size) \(actual.format) vs \(expected.size) "
                    + "\(expected.format) expected"), sourceLocation: sourceLocation)
        return false
    }
    let a = actual.tightPixels, b = expected.tightPixels
    let offset = firstDifference(a, b) ?? 0
    let bpp = actual.format.bytesPerPixel, rowBytes = actual.width * bpp
    let (x, y) = rowBytes == 0 ? (0, 0) : ((offset % rowBytes) / bpp, offset / rowBytes)
    Issue.record(
        Comment(
            rawValue: prefix + "bitmaps differ: \(actual.size) \(actual.format), pixel bytes CRC32 "
                + "\(hex(CRC32.checksum(a))) vs \(hex(CRC32.checksum(b))) expected; first difference at pixel "
                + "(\(x), \(y))" + bytePair(a, b, at: offset)), sourceLocation: sourceLocation)
    return false
}

private extension Bitmap {
    /// The pixel bytes row after row, without padding.
    var tightPixels: [UInt8] {
        let rowBytes = width * format.bytesPerPixel
        return withUnsafeBytes { raw in
            var out: [UInt8] = []
            out.reserveCapacity(rowBytes * height)
            for y in 0..<height { out.append(contentsOf: raw[(y * bytesPerRow)..<(y * bytesPerRow + rowBytes)]) }
            return out
        }
    }
}

private func contiguous(_ bytes: some Collection<UInt8>) -> [UInt8] {
    (bytes as? [UInt8]) ?? Array(bytes)
}

/// The first offset where the buffers differ (the shorter one's length when one is a prefix of the
/// other), or nil when they are equal.
private func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
    let common = min(a.count, b.count)
    let equalPrefix = a.withUnsafeBytes { pa in
        b.withUnsafeBytes { pb in common == 0 || memcmp(pa.baseAddress!, pb.baseAddress!, common) == 0 }
    }
    if equalPrefix { return a.count == b.count ? nil : common }
    // Narrow down in blocks with memcmp, then byte by byte: fast in a debug build too.
    var start = 0
    let block = 4096
    while start < common {
        let length = min(block, common - start)
        let same = a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in memcmp(pa.baseAddress! + start, pb.baseAddress! + start, length) == 0 }
        }
        if !same { break }
        start += length
    }
    while start < common, a[start] == b[start] { start += 1 }
    return start
}

private func bytePair(_ a: [UInt8], _ b: [UInt8], at offset: Int) -> String {
    let left = offset < a.count ? hex(a[offset]) : "end", right = offset < b.count ? hex(b[offset]) : "end"
    return " (\(left) vs \(right))"
}

private func hex(_ value: some FixedWidthInteger) -> String {
    "0x" + String(value, radix: 16, uppercase: true)
}
#endif
