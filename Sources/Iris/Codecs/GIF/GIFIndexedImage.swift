#if canImport(CGIF)
import CGIF
import Foundation

/// One bitmap reduced to a GIF frame's palette indices: what ``GIFWriter`` writes.
///
/// A pixel whose alpha is below half (under 128) takes the transparent entry, palette index 0;
/// every other pixel is drawn opaque in its straight (unpremultiplied) colour, from index 1 on
/// (from 0 when nothing is transparent and no transparent entry is asked for). When the opaque
/// pixels have few enough distinct colours to fit (256, or 255 beside the transparent entry)
/// the palette is exactly those colours, so an image of 255 colours or fewer (a still GIF
/// written again, say) keeps every pixel. Otherwise giflib's median cut (`GifQuantizeBuffer`)
/// chooses the colours from the opaque pixels alone; it works on colours cut to 5 bits a
/// channel and gives each of its boxes the lower corner of that cut, so its colours are moved
/// up by half a step (4) to the middle. There is no dithering.
struct GIFIndexedImage {
    /// Width and height.
    let size: PixelSize
    /// One palette index per pixel, row after row, no padding.
    private(set) var indices: [UInt8]
    /// The palette, padded with black to a power of two (2 to 256) as GIF stores it.
    let palette: [GifColorType]
    /// The palette entry transparent pixels take (0), when a pixel is transparent or the entry
    /// was reserved.
    let transparentIndex: Int?
    /// Whether the palette is exactly the image's colours (no colour was changed).
    let isExact: Bool

    /// The indexed form of `bitmap`, any pixel format, premultiplied or straight. With
    /// `reservingTransparency` the palette has its transparent entry even when no pixel is
    /// transparent (an animation's frames: see ``AnimatedGIFEncoder``).
    init(_ bitmap: Bitmap, reservingTransparency: Bool = false) throws(ImageError) {
        try bitmap.size.checkEncodable(as: .gif, maxDimension: GIFWriter.maxDimension)
        let (count, overflow) = bitmap.width.multipliedReportingOverflow(by: bitmap.height)
        guard !overflow, count <= Int(Int32.max) else {
            throw .encodingFailed(format: .gif, reason: "\(bitmap.size) has too many pixels for giflib")
        }
        size = bitmap.size
        let straight = Self.straightRGBA(bitmap)
        var indices = [UInt8](repeating: 0, count: count)
        let reduced = straight.withUnsafeBytes { raw in
            Self.reduce(
                raw.bindMemory(to: UInt8.self), width: bitmap.width, height: bitmap.height,
                stride: straight.bytesPerRow, reservingTransparency: reservingTransparency, into: &indices)
        }
        guard let reduced else {
            throw .encodingFailed(format: .gif, reason: "giflib could not reduce the \(bitmap.size) image to 256 colours")
        }
        self.indices = indices
        var colours = reduced.colours
        if reduced.hasTransparency { colours.insert(GifColorType(Red: 0, Green: 0, Blue: 0), at: 0) }
        var padded = 2
        while padded < colours.count { padded *= 2 }
        colours += [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: padded - colours.count)
        palette = colours
        transparentIndex = reduced.hasTransparency ? 0 : nil
        isExact = reduced.isExact
    }

    /// Calls `body` with each row's indices, top to bottom (giflib takes them mutable).
    mutating func withRows(_ body: (UnsafeMutablePointer<UInt8>, Int) throws(ImageError) -> Void) throws(ImageError) {
        let (width, height) = (size.width, size.height)
        let result: Result<Void, ImageError> = indices.withUnsafeMutableBufferPointer { buffer in
            do throws(ImageError) {
                for y in 0..<height { try body(buffer.baseAddress! + y * width, width) }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    // MARK: - Pixels

    /// `bitmap` as straight RGBA in red-first order (opaque formats get alpha 255).
    private static func straightRGBA(_ bitmap: Bitmap) -> Bitmap {
        guard bitmap.format.hasAlpha else { return bitmap.converted(to: .rgba8) }
        var straight = bitmap.inRGBOrder
        guard straight.isPremultiplied else { return straight }
        let (stride, width, height) = (straight.bytesPerRow, straight.width, straight.height)
        straight.withUnsafeMutableBytes { bytes in
            for y in 0..<height {
                PixelConversion.unpremultiplyRGBA(
                    UnsafeMutableRawBufferPointer(rebasing: bytes[(y * stride)..<(y * stride + width * 4)]),
                    pixelCount: width)
            }
        }
        return straight
    }

    /// The opaque pixels' colours, whether entry 0 is the transparent one before them, and
    /// whether the colours are exact.
    private struct Reduction {
        var colours: [GifColorType]
        var hasTransparency: Bool
        var isExact: Bool
    }

    /// Alpha below half is transparent.
    private static let opaqueAlpha: UInt8 = 128

    /// Fills `indices` from straight RGBA rows: transparent pixels 0 when there are any, and the
    /// opaque pixels' colours after it; `nil` when giflib fails.
    private static func reduce(
        _ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, stride: Int,
        reservingTransparency: Bool, into indices: inout [UInt8]
    ) -> Reduction? {
        var transparentCount = 0
        for y in 0..<height {
            var offset = y * stride + 3
            for _ in 0..<width {
                if pixels[offset] < opaqueAlpha { transparentCount += 1 }
                offset += 4
            }
        }
        let hasTransparency = transparentCount > 0 || reservingTransparency
        let first = hasTransparency ? 1 : 0
        if let colours = exactPalette(pixels, width: width, height: height, stride: stride, first: first, into: &indices) {
            return Reduction(colours: colours, hasTransparency: hasTransparency, isExact: true)
        }
        guard
            let colours = quantized(
                pixels, width: width, height: height, stride: stride,
                opaqueCount: width * height - transparentCount, first: first, into: &indices)
        else {
            return nil
        }
        return Reduction(colours: colours, hasTransparency: hasTransparency, isExact: false)
    }

    /// The distinct colours of the opaque pixels in order of appearance, indexed from `first`,
    /// when they fit the palette (`256 - first` of them); transparent pixels get index 0.
    private static func exactPalette(
        _ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, stride: Int, first: Int,
        into indices: inout [UInt8]
    ) -> [GifColorType]? {
        var lookup: [UInt32: UInt8] = [:]
        var colours: [GifColorType] = []
        var last: (key: UInt32, index: UInt8)?
        var at = 0
        for y in 0..<height {
            var offset = y * stride
            for _ in 0..<width {
                defer {
                    offset += 4
                    at += 1
                }
                guard pixels[offset + 3] >= opaqueAlpha else {
                    indices[at] = 0
                    continue
                }
                let key = UInt32(pixels[offset]) << 16 | UInt32(pixels[offset + 1]) << 8 | UInt32(pixels[offset + 2])
                if let last, last.key == key {
                    indices[at] = last.index
                    continue
                }
                let index: UInt8
                if let known = lookup[key] {
                    index = known
                } else {
                    guard first + colours.count < 256 else { return nil }
                    index = UInt8(first + colours.count)
                    lookup[key] = index
                    colours.append(GifColorType(Red: pixels[offset], Green: pixels[offset + 1], Blue: pixels[offset + 2]))
                }
                indices[at] = index
                last = (key, index)
            }
        }
        return colours
    }

    /// giflib's median cut of the opaque pixels to at most `256 - first` colours, indexed from
    /// `first`; transparent pixels get index 0. `nil` when giflib fails.
    private static func quantized(
        _ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, stride: Int, opaqueCount: Int,
        first: Int, into indices: inout [UInt8]
    ) -> [GifColorType]? {
        // The exact palette returns for up to 255 colours, so there are opaque pixels here
        // (giflib reads past its table when given none).
        guard opaqueCount > 0 else { return nil }
        var red = [UInt8](repeating: 0, count: opaqueCount)
        var green = [UInt8](repeating: 0, count: opaqueCount)
        var blue = [UInt8](repeating: 0, count: opaqueCount)
        var at = 0
        for y in 0..<height {
            var offset = y * stride
            for _ in 0..<width {
                if pixels[offset + 3] >= opaqueAlpha {
                    red[at] = pixels[offset]
                    green[at] = pixels[offset + 1]
                    blue[at] = pixels[offset + 2]
                    at += 1
                }
                offset += 4
            }
        }
        var opaqueIndices = [UInt8](repeating: 0, count: opaqueCount)
        var map = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: 256)
        let limit = Int32(256 - first)
        var colourCount = limit
        let status = giflibQuantizer.withLock { _ in
            GifQuantizeBuffer(UInt32(opaqueCount), 1, &colourCount, &red, &green, &blue, &opaqueIndices, &map)
        }
        guard status == GIF_OK, colourCount > 0, colourCount <= limit else { return nil }
        let colours = map.prefix(Int(colourCount)).map { colour in
            GifColorType(Red: centred(colour.Red), Green: centred(colour.Green), Blue: centred(colour.Blue))
        }
        let shift = UInt8(first)
        at = 0
        var position = 0
        for y in 0..<height {
            var offset = y * stride + 3
            for _ in 0..<width {
                if pixels[offset] >= opaqueAlpha {
                    indices[position] = opaqueIndices[at] &+ shift
                    at += 1
                } else {
                    indices[position] = 0
                }
                offset += 4
                position += 1
            }
        }
        return colours
    }

    /// A giflib palette channel (a 5-bit box's lower corner, times 8) moved to the box's middle.
    private static func centred(_ channel: UInt8) -> UInt8 { UInt8(min(255, Int(channel) + 4)) }
}

/// giflib's median cut sorts on an axis it keeps in a process-wide static (quantize.c's
/// `SortRGBAxis`): two cuts at once (two GIFs encoded in parallel, by the image service or a
/// batch) would sort by each other's axis and choose poor palettes. One at a time.
private let giflibQuantizer = LockedState(())
#endif
