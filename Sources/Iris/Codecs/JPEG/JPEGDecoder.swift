#if canImport(CJPEG)
import CIrisShims
import Foundation

/// Decodes JPEG with libjpeg-turbo: baseline and progressive; grey, YCbCr/RGB, CMYK and YCCK.
///
/// Decodes at the target size: libjpeg-turbo's DCT scaling (k/8) makes the smallest
/// intermediate that still covers `context.outputSize`, and its rows stream in batches into the
/// resampler, so the full-resolution image is never held. Uses the accurate integer IDCT
/// (`JDCT_ISLOW`) and fancy (smooth) chroma upsampling: libjpeg's quality defaults.
///
/// At 1/8 a block becomes one pixel from its DC coefficient alone, so a progressive file's AC
/// scans of those components (most of the file) are left unread and libjpeg keeps only their
/// DC coefficients: a 12 MP 4:4:4 thumbnail holds about 1 MB of coefficients instead of 73 MB,
/// with the same pixels (CIrisShims/jpeg_dc_only.h).
///
/// Data that ends early throws ``ImageError/truncated(format:received:expected:)``; data
/// libjpeg rejects throws ``ImageError/decodingFailed(format:reason:)`` with libjpeg's message.
/// A progressive file with more than ``defaultMaxScans`` scans is rejected (each scan walks
/// the whole image, so endless scans are a decompression bomb), and libjpeg's working memory is
/// capped by `context.options.limits.maxPixels`.
///
/// An embedded ICC profile (APP2 `ICC_PROFILE` segments, read by libjpeg-turbo) tags RGB and
/// grey output when its model fits; CMYK and YCCK with a CMYK profile are converted through it
/// to sRGB (Little CMS, row by row at the DCT-scaled size), without one the naive way.
struct JPEGDecoder: ImageDecoding {
    /// The most scans a progressive JPEG may have (real files have about 10).
    static let defaultMaxScans = 1_000

    /// Rows read from libjpeg per call.
    static let rowBatch = 16

    /// The most scans this decoder accepts.
    let maxScans: Int

    /// Whether a decode at 1/8 leaves out the scans it does not need (always, but in tests that
    /// compare it with reading every scan).
    let readsNeededScansOnly: Bool

    /// Makes a decoder.
    init() { self.init(maxScans: Self.defaultMaxScans) }

    /// Makes a decoder with another scan limit, or one that reads every scan (tests).
    init(maxScans: Int, readsNeededScansOnly: Bool = true) {
        self.maxScans = maxScans
        self.readsNeededScansOnly = readsNeededScansOnly
    }

    var formats: Set<ImageFormat> { [.jpeg] }

    /// The orientation of the EXIF APP1 segment.
    func orientation(in data: Data, releasingInput: ((Int) -> Void)?) -> Orientation? {
        EXIFReader.orientation(inJPEG: data)
    }

    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        let header = try Self.withDecompressor(data, maxScans: maxScans, maxMemory: 0) { decompressor throws(ImageError) in
            try decompressor.readHeader()
        }
        return ImageHeader(format: .jpeg, width: header.size.width, height: header.size.height, hasAlpha: false)
    }

    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        let output = context.outputSize
        guard output.width > 0, output.height > 0 else {
            throw .invalidDimensions(format: .jpeg, width: output.width, height: output.height)
        }
        let limits = context.options.limits
        return try Self.withDecompressor(data, maxScans: maxScans, maxMemory: Self.workingMemory(for: limits)) {
            decompressor throws(ImageError) in
            let header = try decompressor.readHeader()
            try limits.check(width: header.size.width, height: header.size.height, format: .jpeg)
            let layout = try Layout(header)
            let profile = try decompressor.iccProfile()
            let cmykProfile = Self.cmykProfileConverter(profile, inverted: layout.cmykInverted)
            let scale = Self.dctScale(source: header.size, output: output)
            decompressor.readNeededScansOnly(readsNeededScansOnly)
            let (scaled, bytesPerPixel) = try decompressor.start(scale: scale, colorSpace: layout.libjpegOutput)
            guard bytesPerPixel == layout.pixelFormat.bytesPerPixel else {
                throw .decodingFailed(format: .jpeg, reason: "libjpeg gave \(bytesPerPixel) bytes a pixel")
            }
            let sink = makeRowSink(source: scaled, output: output, format: layout.pixelFormat, kernel: context.options.kernel)
            let stride = scaled.width * bytesPerPixel
            let batch = UnsafeMutableRawBufferPointer.allocate(byteCount: stride * Self.rowBatch, alignment: 16)
            defer { batch.deallocate() }
            batch.initializeMemory(as: UInt8.self, repeating: 0)
            let convertedRow = UnsafeMutableRawBufferPointer.allocate(byteCount: cmykProfile == nil ? 0 : stride, alignment: 16)
            defer { convertedRow.deallocate() }
            var rowsDone = 0
            while rowsDone < scaled.height {
                let count = try decompressor.readRows(
                    into: batch, stride: stride, maxRows: Self.rowBatch,
                    acceptsTruncation: context.options.allowsPartialData)
                guard count > 0 else {
                    throw .decodingFailed(format: .jpeg, reason: "libjpeg stopped at row \(rowsDone)")
                }
                for index in 0..<count {
                    let row = UnsafeMutableRawBufferPointer(rebasing: batch[(index * stride)..<((index + 1) * stride)])
                    if let cmykProfile {
                        cmykProfile.convert(UnsafeRawBufferPointer(row), into: convertedRow, pixelCount: scaled.width)
                        sink.append(row: UnsafeRawBufferPointer(convertedRow))
                        continue
                    }
                    if let inverted = layout.cmykInverted {
                        JPEGCMYK.cmykToRGBX(row, pixelCount: scaled.width, inverted: inverted)
                    }
                    sink.append(row: UnsafeRawBufferPointer(row))
                }
                rowsDone += count
            }
            var bitmap = sink.finish()
            // CMYK came out as sRGB (through its profile or the naive way); RGB and grey keep
            // the profile that matches them.
            if let profile, layout.cmykInverted == nil,
                profile.colorModel == (layout.pixelFormat == .gray8 ? .gray : .rgb)
            {
                bitmap.colorSpace = .icc(profile)
            }
            return bitmap
        }
    }

    /// Little CMS's conversion of CMYK samples through the file's CMYK profile, where Little CMS
    /// can be imported; `nil` for other files, which use ``JPEGCMYK``.
    private static func cmykProfileConverter(_ profile: ICCProfile?, inverted: Bool?) -> CMYKProfileConverter? {
        #if canImport(CLCMS2)
        guard let profile, let inverted else { return nil }
        return CMYKProfileConverter(profile: profile, inverted: inverted)
        #else
        return nil
        #endif
    }

    /// Runs `body` with a decompressor over `data`, which stays alive for the call.
    private static func withDecompressor<R>(
        _ data: Data, maxScans: Int, maxMemory: Int,
        _ body: (JPEGDecompressor) throws(ImageError) -> R
    ) throws(ImageError) -> R {
        let result: Result<R, ImageError> = data.withUnsafeBytes { bytes in
            do throws(ImageError) {
                return .success(try body(JPEGDecompressor(bytes: bytes, maxScans: maxScans, maxMemory: maxMemory)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The DCT scale numerator k (the image is decoded at k/8, k in 1...8): the smallest k
    /// whose scaled size (libjpeg rounds up) still covers `output` in both dimensions, so the
    /// resampler only ever shrinks, from less than twice the target whenever k ≥ 2.
    ///
    /// When larger k give the same scaled size (small images, where libjpeg's rounding up
    /// hides the reduction), the largest of them is used: same pixels to resample, but they
    /// cover the source exactly rather than overhanging it by a fraction of a pixel. So an
    /// image decoded at its own size always uses k = 8.
    static func dctScale(source: PixelSize, output: PixelSize) -> Int {
        var k = 1
        while k < 8 {
            let scaled = scaledSize(source, scale: k)
            if scaled.width >= output.width && scaled.height >= output.height { break }
            k += 1
        }
        while k < 8 && scaledSize(source, scale: k + 1) == scaledSize(source, scale: k) { k += 1 }
        return k
    }

    /// `source` scaled by `scale`/8 as libjpeg-turbo computes it (rounded up).
    static func scaledSize(_ source: PixelSize, scale: Int) -> PixelSize {
        PixelSize(width: (source.width * scale + 7) / 8, height: (source.height * scale + 7) / 8)
    }

    /// libjpeg's working-memory cap: a progressive image keeps 2 bytes per coefficient for up
    /// to 4 components, so 8 bytes per allowed pixel plus slack; enough for anything the pixel
    /// limit lets through.
    static func workingMemory(for limits: DecodingLimits) -> Int {
        let (bytes, overflow) = limits.maxPixels.multipliedReportingOverflow(by: 8)
        return overflow ? 0 : bytes.addingReportingOverflow(64 << 20).partialValue
    }

    /// How the file's colour space is read out.
    private struct Layout {
        var libjpegOutput: Int32
        var pixelFormat: PixelFormat
        /// Non-nil for CMYK/YCCK: whether the samples are stored inverted.
        var cmykInverted: Bool?

        init(_ header: JPEGDecompressor.Header) throws(ImageError) {
            switch header.colorSpace {
            case IRIS_JPEG_CS_GRAY:
                self.init(libjpegOutput: IRIS_JPEG_CS_GRAY, pixelFormat: .gray8, cmykInverted: nil)
            case IRIS_JPEG_CS_RGB, IRIS_JPEG_CS_YCBCR:
                self.init(libjpegOutput: IRIS_JPEG_CS_RGBX, pixelFormat: .rgbx8, cmykInverted: nil)
            case IRIS_JPEG_CS_CMYK, IRIS_JPEG_CS_YCCK:
                // libjpeg turns YCCK back into the CMYK that was encoded; the Adobe marker (which
                // YCCK always has) says the Photoshop convention holds: samples are inverted.
                self.init(libjpegOutput: IRIS_JPEG_CS_CMYK, pixelFormat: .rgbx8, cmykInverted: header.sawAdobeMarker)
            default:
                throw .decodingFailed(format: .jpeg, reason: "unsupported colour space with \(header.components) components")
            }
        }

        init(libjpegOutput: Int32, pixelFormat: PixelFormat, cmykInverted: Bool?) {
            self.libjpegOutput = libjpegOutput
            self.pixelFormat = pixelFormat
            self.cmykInverted = cmykInverted
        }
    }
}
#endif
