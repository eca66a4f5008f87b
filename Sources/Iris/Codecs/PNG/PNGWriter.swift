#if canImport(CPNG)
import CIrisShims
import Foundation

/// A tRNS chunk: alpha per palette entry, or one fully transparent grey level or colour
/// (samples at the image's bit depth).
enum PNGTransparency: Sendable, Hashable {
    case paletteAlpha([UInt8])
    case gray(UInt16)
    case rgb(red: UInt16, green: UInt16, blue: UInt16)
}

/// Writes PNGs of any colour type and bit depth from raw packed sample rows (PNG's own row
/// layout: samples big-endian, low bit depths packed from the high bit). Tests use it to make
/// inputs of every kind; ``PNGEncoder`` writes bitmaps through the same session.
enum PNGWriter {
    /// One palette entry.
    typealias PaletteEntry = (red: UInt8, green: UInt8, blue: UInt8)

    /// A PNG from `rows` (`height` of them, each at least `colorType.rowBytes(width:bitDepth:)` long).
    static func write(
        width: Int, height: Int, colorType: PNGColorType, bitDepth: Int, rows: [[UInt8]],
        palette: [PaletteEntry] = [], trns: PNGTransparency? = nil, interlaced: Bool = false,
        compressionLevel: Int = -1
    ) throws(ImageError) -> Data {
        guard rows.count == height else {
            throw .encodingFailed(format: .png, reason: "\(rows.count) rows given for a height of \(height)")
        }
        return try write(
            width: width, height: height, colorType: colorType, bitDepth: bitDepth, palette: palette,
            trns: trns, interlaced: interlaced, compressionLevel: compressionLevel
        ) { rows[$0] }
    }

    /// A PNG whose row `y` is `row(y)`; rows are asked for top to bottom, once each. A
    /// non-interlaced image is written as they come; an interlaced one is gathered first.
    static func write(
        width: Int, height: Int, colorType: PNGColorType, bitDepth: Int,
        palette: [PaletteEntry] = [], trns: PNGTransparency? = nil, interlaced: Bool = false,
        compressionLevel: Int = -1, row: (Int) -> [UInt8]
    ) throws(ImageError) -> Data {
        let session = try PNGWriteSession(
            width: width, height: height, colorType: colorType, bitDepth: bitDepth,
            palette: palette, trns: trns, interlaced: interlaced,
            compressionLevel: compressionLevel)
        let rowBytes = colorType.rowBytes(width: width, bitDepth: bitDepth)
        if interlaced {
            var pixels = [UInt8](repeating: 0, count: rowBytes * height)
            for y in 0..<height {
                let bytes = row(y)
                guard bytes.count >= rowBytes else { throw shortRow(y, bytes.count, rowBytes) }
                pixels.replaceSubrange((y * rowBytes)..<((y + 1) * rowBytes), with: bytes.prefix(rowBytes))
            }
            try withBytes(pixels) { buffer throws(ImageError) in try session.writeImage(buffer, stride: rowBytes) }
        } else {
            for y in 0..<height {
                let bytes = row(y)
                guard bytes.count >= rowBytes else { throw shortRow(y, bytes.count, rowBytes) }
                try withBytes(bytes) { buffer throws(ImageError) in try session.writeRows(buffer, stride: rowBytes, count: 1) }
            }
        }
        return try session.finish()
    }

    /// `Array.withUnsafeBytes` for a body with typed throws.
    private static func withBytes(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(ImageError) -> Void) throws(ImageError) {
        let result: Result<Void, ImageError> = bytes.withUnsafeBytes { buffer in
            do throws(ImageError) {
                try body(buffer)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    private static func shortRow(_ y: Int, _ count: Int, _ needed: Int) -> ImageError {
        .encodingFailed(format: .png, reason: "row \(y) has \(count) bytes, \(needed) needed")
    }
}
#endif
