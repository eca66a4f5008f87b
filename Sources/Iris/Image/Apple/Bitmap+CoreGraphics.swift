#if canImport(CoreGraphics)
import CoreGraphics

extension Bitmap {
    /// A `CGImage` showing these pixels without copying them: the image's data provider keeps the
    /// bitmap's storage alive and reads it in place, so a `bgra8` or `bgrx8` bitmap (what ImageIO
    /// decodes to) draws at once, with no conversion or decompression on the first draw.
    ///
    /// The bitmap stays usable: mutating it (or any copy sharing its storage) copies the pixels
    /// first, so the image never changes. `nil` for an empty bitmap.
    ///
    /// The same pixels give the same `CGImage` (it is kept with the bitmap and its copies until
    /// one of them writes), so a view that draws them again (a SwiftUI body evaluated again,
    /// `phase.image`) hands Core Animation the image it already has.
    ///
    /// The image is in the bitmap's ``colorSpace`` (its ICC profile's, such as Display P3, or
    /// sRGB), so a colour-managed display shows the numbers as they were meant.
    public var cgImage: CGImage? {
        guard width > 0, height > 0 else { return nil }
        return renderingMemo.image(for: storage, in: colorSpace) { makeCGImage() }
    }

    private func makeCGImage() -> CGImage? {
        let bytes = retainedBytes()
        guard
            let provider = CGDataProvider(
                dataInfo: bytes.context, data: bytes.base, size: bytes.count,
                releaseData: { info, _, _ in
                    if let info { Bitmap.RetainedBytes.release(context: info) }
                }
            )
        else {
            RetainedBytes.release(context: bytes.context)
            return nil
        }
        let (layoutSpace, info) = format.coreGraphicsLayout
        // Grey stays device grey unless a grey profile says otherwise; colour takes its space.
        let space = format == .gray8 && colorSpace.iccProfile?.colorModel != .gray ? layoutSpace : colorSpace.cgColorSpace
        return CGImage(
            width: width, height: height, bitsPerComponent: 8, bitsPerPixel: format.bytesPerPixel * 8,
            bytesPerRow: bytesPerRow, space: space, bitmapInfo: info, provider: provider,
            decode: nil, shouldInterpolate: true, intent: .defaultIntent)
    }
}

extension Bitmap {
    /// `image` drawn (scaled with high-quality interpolation) into a new `width`×`height` bitmap
    /// in Core Animation's own layout: BGRA, premultiplied, 32-bit little-endian (`.bgra8`, or
    /// `.bgrx8` when `opaque`). The drawing context is always premultipliedFirst, so the fourth
    /// byte is written as alpha: for an opaque image that covers every pixel it is 255, which is
    /// what `.bgrx8` promises. The image is colour-matched into `space` (sRGB unless given;
    /// see ``ColorSpace/drawingSpace(for:management:)``), which the caller tags the bitmap with.
    /// `nil` when no context can be made.
    static func drawing(
        _ image: CGImage, width: Int, height: Int, opaque: Bool, rowAlignment: Int,
        space: CGColorSpace? = nil
    ) -> Bitmap? {
        var bitmap = Bitmap(width: width, height: height, format: opaque ? .bgrx8 : .bgra8, rowAlignment: rowAlignment)
        let stride = bitmap.bytesPerRow
        let drawn: Bool = bitmap.withUnsafeMutableBytes { raw in
            guard
                let context = CGContext(
                    data: raw.baseAddress, width: width, height: height,
                    bitsPerComponent: 8, bytesPerRow: stride,
                    space: space ?? ColorSpace.sRGB.cgColorSpace,
                    bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue
                        | CGBitmapInfo.byteOrder32Little.rawValue)
            else { return false }
            context.interpolationQuality = .high
            context.draw(image, in: CGRect(x: 0, y: 0, width: width, height: height))
            return true
        }
        return drawn ? bitmap : nil
    }
}

extension PixelFormat {
    /// The colour space and bitmap info that describe this layout to Core Graphics.
    fileprivate var coreGraphicsLayout: (CGColorSpace, CGBitmapInfo) {
        let (alpha, order): (CGImageAlphaInfo, CGBitmapInfo) =
            switch self {
            case .rgba8: (.premultipliedLast, .byteOrder32Big)
            case .rgbx8: (.noneSkipLast, .byteOrder32Big)
            case .bgra8: (.premultipliedFirst, .byteOrder32Little)
            case .bgrx8: (.noneSkipFirst, .byteOrder32Little)
            case .gray8: (.none, [])
            }
        let space = self == .gray8 ? CGColorSpaceCreateDeviceGray() : CGColorSpaceCreateDeviceRGB()
        return (space, CGBitmapInfo(rawValue: alpha.rawValue | order.rawValue))
    }
}
#endif
