import Foundation

/// What a BMP's file and info headers say, read before gdk-pixbuf allocates anything: the size
/// the registry's limits judge, and whether the pixels the header promises are all there
/// (gdk-pixbuf decodes a cut file without complaint, leaving the missing rows black).
struct BMPHeader {
    /// The size the info header declares (a negative height, top-down rows, made positive).
    let size: PixelSize
    /// Bits per pixel.
    let bitCount: Int
    /// The bytes an uncompressed file needs (pixel data offset + rows), `nil` when compressed.
    let expectedBytes: Int?

    /// Parses the headers at the start of `data`.
    init(_ data: Data) throws(ImageError) {
        let parsed: Result<BMPHeader, ImageError> = data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try BMPHeader(ByteReader(bytes, bigEndian: false)) }
        }
        self = try parsed.get()
    }

    private init(_ reader: ByteReader) throws(ImageError) {
        guard reader.matches(Array("BM".utf8), at: 0), let pixelOffset = reader.u32(at: 10),
            let infoSize = reader.u32(at: 14)
        else {
            throw .truncated(format: .bmp, received: reader.bytes.count, expected: 26)
        }
        let width: Int, height: Int, bitCount: Int, compression: UInt32
        if infoSize == 12 {
            // BITMAPCOREHEADER (OS/2 1.x): 16-bit sizes, never compressed.
            guard let w = reader.u16(at: 18), let h = reader.u16(at: 20), let bits = reader.u16(at: 24) else {
                throw .truncated(format: .bmp, received: reader.bytes.count, expected: 26)
            }
            (width, height, bitCount, compression) = (Int(w), Int(h), Int(bits), 0)
        } else if infoSize >= 16 {
            // BITMAPINFOHEADER and its successors (V4, V5) and OS/2 2.x: signed 32-bit sizes.
            guard let w = reader.u32(at: 18), let h = reader.u32(at: 22), let bits = reader.u16(at: 28) else {
                throw .truncated(format: .bmp, received: reader.bytes.count, expected: 30)
            }
            width = Int(Int32(bitPattern: w))
            let signedHeight = Int(Int32(bitPattern: h))
            height = signedHeight == Int(Int32.min) ? 0 : abs(signedHeight)
            bitCount = Int(bits)
            compression = infoSize >= 20 ? reader.u32(at: 30) ?? 0 : 0
        } else {
            throw .decodingFailed(format: .bmp, reason: "the info header is \(infoSize) bytes, not a size BMP defines")
        }
        guard width > 0, height > 0 else { throw .invalidDimensions(format: .bmp, width: width, height: height) }
        guard [1, 2, 4, 8, 16, 24, 32].contains(bitCount) else {
            throw .decodingFailed(format: .bmp, reason: "\(bitCount) bits per pixel is not a depth BMP defines")
        }
        size = PixelSize(width: width, height: height)
        self.bitCount = bitCount
        // BI_RGB, BI_BITFIELDS, BI_ALPHABITFIELDS: rows of whole 32-bit words, height of them.
        if [0, 3, 6].contains(compression) {
            let rowBytes = (width * bitCount + 31) / 32 * 4
            let (pixelBytes, overflow) = rowBytes.multipliedReportingOverflow(by: height)
            expectedBytes = overflow ? .max : Int(pixelOffset) + pixelBytes
        } else {
            expectedBytes = nil
        }
    }

    /// Throws ``ImageError/truncated(format:received:expected:)`` when `count` bytes cannot
    /// hold the rows the header declares.
    func checkComplete(_ count: Int) throws(ImageError) {
        if let expectedBytes, count < expectedBytes {
            throw .truncated(format: .bmp, received: count, expected: expectedBytes)
        }
    }
}
