#if canImport(CPNG)
import CIrisShims
import Foundation

/// Decodes PNG with libpng 1.6: every colour type and bit depth, palettes with transparency,
/// and Adam7 interlacing.
///
/// Output is ``PixelFormat/gray8`` for grey without transparency, ``PixelFormat/rgbx8`` for
/// colour (or a palette) without transparency, and premultiplied ``PixelFormat/rgba8`` for
/// anything with alpha or a tRNS chunk (grey with alpha is expanded to RGBA; straight, as
/// stored, with ``DecodeOptions/keepsStraightAlpha`` at the stored size). 16-bit samples
/// are scaled to 8 bits with rounding (`round(v × 255 / 65535)`); 1-, 2- and 4-bit grey is
/// scaled up to the full 0–255 range.
///
/// The bitmap is tagged with what the colour chunks say (``PNGColorChunks``): an `iCCP`
/// profile, else sRGB for an `sRGB` chunk, else the space of `gAMA`/`cHRM` when it is not about
/// sRGB; samples are passed through as stored (the registry converts them if asked).
///
/// Non-interlaced images are streamed: rows are read a small batch at a time and pushed into
/// the ``RowSink`` for `context.outputSize`, so the full-resolution image is never held in memory.
/// An Adam7 image is only final once all seven passes are read, so it is decoded whole into
/// one buffer first and then fed to the sink.
///
/// Inflate is most of the decode. Image data whose scanlines fit ``wholeInflateBytes`` (and
/// ``DecodingLimits/maxDecodedBytes``), in a file with at most two ``MappedFile/releaseStep``s
/// (8 MiB) from its first IDAT on, is inflated at once by libdeflate, about twice as fast as
/// zlib, and libpng reads it back from memory (``PNGReader/inflateWhole(budget:maxInput:)``);
/// other images stream through libpng's own inflate, in memory independent of their size, and
/// a mapped file keeps no more of itself resident than streaming does.
///
/// Of an APNG this decodes the first frame: the default image, or, when the default image is
/// not part of the animation, the first fcTL frame composed by ``APNGFrameReader`` (as browsers
/// show it). Its header counts the frames the animation plays (``APNGStructure``: complete
/// frames, at most acTL's count; a file with broken sequence numbers is a still) and marks a
/// one-frame APNG animated. The animation itself is composed by ``APNGFrameReader`` (through
/// ``ImageDecoderRegistry``). Data after the last image row (such as a missing IEND) is not
/// needed.
struct PNGDecoder: ImageDecoding {
    /// The default ``wholeInflateBytes``: 64 MiB, the scanlines of a 16 MP RGBA image.
    static let defaultWholeInflateBytes = 64 << 20

    /// The most bytes a PNG's inflated scanlines (with a joined copy of its compressed data when
    /// that is split over several IDAT chunks) may take to be inflated at once; above it (or
    /// above ``DecodingLimits/maxDecodedBytes``) the decoder streams. 0 always streams.
    let wholeInflateBytes: Int

    /// Makes a decoder that inflates image data of up to `wholeInflateBytes` at once.
    init(wholeInflateBytes: Int = Self.defaultWholeInflateBytes) {
        self.wholeInflateBytes = wholeInflateBytes
    }

    /// PNG only.
    var formats: Set<ImageFormat> { [.png] }

    /// The frames of an APNG, composed on demand (``APNGFrameReader``), in the colour space its
    /// chunks declare (`iCCP`, `sRGB`, `gAMA`/`cHRM`); `nil` for a still PNG.
    func animationSource(for data: Data, limits: DecodingLimits) throws(ImageError) -> (any AnimationFrameSource)? {
        guard var source = try APNGFrameReader.source(data, limits: limits) else { return nil }
        source.declaredColorSpace = try? PNGReader.withReader(data) { reader throws(ImageError) in
            _ = try reader.readInfo()
            return PNGColorChunks(try reader.color()).colorSpace(for: .rgba8)
        }
        return source
    }

    /// The orientation of the `eXIf` chunk (which may follow the image data: the walk reads to
    /// the end of the file).
    func orientation(in data: Data, releasingInput: ((Int) -> Void)?) -> Orientation? {
        PNGChunks.exifOrientation(in: data, releasingInput: releasingInput)
    }

    /// Reads the size, alpha and frame count from the chunks before the first IDAT.
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        let scan = PNGChunkScan(data)
        return try PNGReader.withReader(data) { reader throws(ImageError) in
            let info = try Self.readInfo(reader, scan: scan)
            return Self.header(info, animation: scan.animationFrames == nil ? nil : APNGStructure(data))
        }
    }

    /// Decodes at exactly `context.outputSize`, resampling through the row sink when it differs
    /// from the stored size.
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        let scan = PNGChunkScan(data)
        if scan.animationFrames != nil, let structure = APNGStructure(data), structure.isAnimated,
            !structure.defaultImageIsFirstFrame
        {
            return try Self.decodeFirstAnimationFrame(structure, data: data, context: context)
        }
        return try PNGReader.withReader(data) { reader throws(ImageError) in
            let info = try Self.readInfo(reader, scan: scan)
            let source = PixelSize(width: Int(info.width), height: Int(info.height))
            let output = context.outputSize
            try context.options.limits.check(width: source.width, height: source.height, format: .png)
            guard output.width > 0, output.height > 0 else {
                throw .decodingFailed(format: .png, reason: "the requested output size \(output) is empty")
            }
            try context.options.limits.check(decodedSize: output)

            reader.inflateWhole(
                budget: min(wholeInflateBytes, context.options.limits.maxDecodedBytes), maxInput: 2 * MappedFile.releaseStep)
            let layout = PNGOutputLayout(info)
            let (rowBytes, passes) = try reader.setOutput(layout.shimOutput)
            let expectedRowBytes = source.width * layout.format.bytesPerPixel
            guard rowBytes == expectedRowBytes else {
                throw .decodingFailed(format: .png, reason: "libpng delivers \(rowBytes)-byte rows, expected \(expectedRowBytes)")
            }
            // Straight alpha (as libpng delivers it) when asked for and nothing is resampled.
            let keepsStraight = layout.format == .rgba8 && context.options.keepsStraightAlpha && output == source
            let colorSpace = PNGColorChunks(try reader.color()).colorSpace(for: layout.format)
            let premultiplies = layout.format == .rgba8 && !keepsStraight
            var bitmap =
                passes > 1 || output == source
                ? try Self.decodeWhole(
                    reader, source: source, layout: layout, interlaced: passes > 1, premultiplies: premultiplies, context: context)
                : try Self.decodeStreaming(reader, source: source, layout: layout, premultiplies: premultiplies, context: context)
            if keepsStraight { bitmap = bitmap.markedStraight() }
            if let colorSpace { bitmap.colorSpace = colorSpace }
            return bitmap
        }
    }

    // MARK: - Decoding

    /// Rows a batch at a time into the resampling sink; only one batch of source rows is in
    /// memory.
    private static func decodeStreaming(
        _ reader: PNGReader, source: PixelSize, layout: PNGOutputLayout, premultiplies: Bool,
        context: DecodeContext
    ) throws(ImageError) -> Bitmap {
        let sink = makeRowSink(source: source, output: context.outputSize, format: layout.format, kernel: context.options.kernel)
        let rowBytes = source.width * layout.format.bytesPerPixel
        let batchRows = max(1, min(32, (256 * 1024) / max(rowBytes, 1)))
        let batch = UnsafeMutableRawBufferPointer.allocate(byteCount: rowBytes * batchRows, alignment: 16)
        defer { batch.deallocate() }
        var y = 0
        while y < source.height {
            if Task.isCancelled { throw .cancelled }
            let count = min(batchRows, source.height - y)
            try reader.readRows(into: batch, stride: rowBytes, count: count)
            context.releaseConsumedInput?(reader.consumedBytes)
            for row in 0..<count {
                let slice = UnsafeMutableRawBufferPointer(rebasing: batch[(row * rowBytes)..<((row + 1) * rowBytes)])
                if premultiplies { PixelConversion.premultiplyRGBA(slice, pixelCount: source.width) }
                sink.append(row: UnsafeRawBufferPointer(slice))
            }
            y += count
        }
        return sink.finish()
    }

    /// The whole image, read straight into the bitmap's rows (no copy): a batch of rows at a
    /// time (cancellation and the release of a mapped file's pages between batches), or all seven
    /// Adam7 passes at once (no row is final before the last pass). Then, if a smaller size is
    /// wanted (interlaced only), through the resampling sink.
    private static func decodeWhole(
        _ reader: PNGReader, source: PixelSize, layout: PNGOutputLayout, interlaced: Bool, premultiplies: Bool,
        context: DecodeContext
    ) throws(ImageError) -> Bitmap {
        var full = Bitmap(width: source.width, height: source.height, format: layout.format)
        let stride = full.bytesPerRow  // rows are packed: `stride` is a row's bytes
        let batchRows = interlaced ? source.height : max(1, (4 << 20) / max(stride, 1))
        let status: Result<Void, ImageError> = full.withUnsafeMutableBytes { buffer in
            var y = 0
            while y < source.height {
                if Task.isCancelled { return .failure(.cancelled) }
                let count = min(batchRows, source.height - y)
                let rows = UnsafeMutableRawBufferPointer(rebasing: buffer[(y * stride)..<((y + count) * stride)])
                do throws(ImageError) {
                    if interlaced {
                        try reader.readImage(into: rows, stride: stride, height: count)
                    } else {
                        try reader.readRows(into: rows, stride: stride, count: count)
                    }
                } catch {
                    return .failure(error)
                }
                context.releaseConsumedInput?(reader.consumedBytes)
                if premultiplies { PixelConversion.premultiplyRGBA(rows, pixelCount: source.width * count) }
                y += count
            }
            return .success(())
        }
        try status.get()
        if context.outputSize == source { return full }
        if Task.isCancelled { throw .cancelled }
        let sink = makeRowSink(source: source, output: context.outputSize, format: layout.format, kernel: context.options.kernel)
        full.withUnsafeBytes { buffer in
            for y in 0..<source.height {
                sink.append(row: UnsafeRawBufferPointer(rebasing: buffer[(y * stride)..<((y + 1) * stride)]))
            }
        }
        return sink.finish()
    }

    /// Frame 0 of an APNG whose default image is not part of the animation, composed and
    /// shrunk to `context.outputSize`.
    private static func decodeFirstAnimationFrame(
        _ structure: APNGStructure, data: Data, context: DecodeContext
    ) throws(ImageError) -> Bitmap {
        let output = context.outputSize
        guard output.width > 0, output.height > 0 else {
            throw .decodingFailed(format: .png, reason: "the requested output size \(output) is empty")
        }
        guard let source = try APNGFrameReader.source(structure, data: data, limits: context.options.limits) else {
            throw .decodingFailed(format: .png, reason: "the APNG has no complete frame")
        }
        return try source.makeDecoder(frameSize: output, kernel: context.options.kernel).nextFrame()
    }

    // MARK: - Header

    /// libpng's info, after rejecting a stored zero or out-of-range size as such.
    private static func readInfo(_ reader: PNGReader, scan: PNGChunkScan) throws(ImageError) -> iris_png_info {
        if let size = scan.storedSize {
            let limit = UInt32(Int32.max)
            if size.width == 0 || size.height == 0 || size.width > limit || size.height > limit {
                throw .invalidDimensions(format: .png, width: Int(size.width), height: Int(size.height))
            }
        }
        return try reader.readInfo()
    }

    /// The header libpng's `info` and, for an APNG, its `animation` describe: the frames it
    /// plays, animated even when there is one.
    private static func header(_ info: iris_png_info, animation: APNGStructure?) -> ImageHeader {
        let layout = PNGOutputLayout(info)
        var header = ImageHeader(
            format: .png, width: Int(info.width), height: Int(info.height),
            hasAlpha: layout.format == .rgba8)
        if let animation, animation.isAnimated {
            header.frameCount = animation.frames.count
            header.isAnimated = true
            // The first frame shown is then composed: RGBA, transparent where it does not draw.
            if !animation.defaultImageIsFirstFrame { header.hasAlpha = true }
        }
        return header
    }
}
#endif
