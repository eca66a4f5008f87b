#if !canImport(CJPEG) && canImport(ImageIO)
import CoreGraphics
import Foundation
import ImageIO

/// Decodes with ImageIO, shrinking with its thumbnail decoder; the orientation ImageIO reads is
/// applied by the registry's decode, like every decoder's.
///
/// Output is `bgra8` (premultiplied) for sources with alpha and `bgrx8` otherwise, drawn straight
/// into the bitmap's storage: a `CGImage` made from it (``Bitmap/cgImage``) draws without
/// converting. With ``ColorManagement/keepSource`` (the default on Apple platforms) an RGB
/// image is drawn in its own colour space and the bitmap tagged with its profile, so a Display
/// P3 photo keeps its gamut on a P3 screen; otherwise it is drawn in sRGB. Eight bits a channel
/// hold P3 and Adobe RGB without visible banding; a wider or HDR decode would need a deeper
/// ``PixelFormat``, which ``Bitmap`` does not have.
struct ImageIODecoder: ImageDecoding {
    /// What ImageIO reads on iOS 17 and macOS 14 and later (HEIC, AVIF and JPEG XL included).
    var formats: Set<ImageFormat> { [.jpeg, .png, .gif, .webp, .heic, .avif, .jpegXL, .tiff, .bmp, .ico] }

    /// The frames of an animated GIF, APNG or WebP, as ImageIO composes them.
    func animationSource(for data: Data, limits: DecodingLimits) throws(ImageError) -> (any AnimationFrameSource)? {
        let format = FormatSniffer.format(of: data)
        guard [.gif, .png, .webp].contains(format) else { return nil }
        return try ImageIOAnimationSource.source(data, format: format, limits: limits)
    }

    /// The orientation ImageIO reads from the container (EXIF in JPEG, PNG, WebP and TIFF; the
    /// transform properties of HEIC and AVIF): the thumbnail is drawn without it.
    func orientation(in data: Data, releasingInput: ((Int) -> Void)?) -> Orientation? {
        guard let source = CGImageSourceCreateWithData(data as CFData, nil),
            let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any],
            let value = properties[kCGImagePropertyOrientation] as? Int
        else { return nil }
        return Orientation(rawValue: value)
    }

    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        let format = FormatSniffer.format(of: data)
        guard let source = CGImageSourceCreateWithData(data as CFData, nil),
            let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any],
            let width = properties[kCGImagePropertyPixelWidth] as? Int,
            let height = properties[kCGImagePropertyPixelHeight] as? Int
        else {
            throw .decodingFailed(format: format, reason: "ImageIO could not read the header")
        }
        let hasAlpha = properties[kCGImagePropertyHasAlpha] as? Bool ?? false
        return ImageHeader(
            format: format, width: width, height: height, hasAlpha: hasAlpha,
            frameCount: max(1, CGImageSourceGetCount(source)))
    }

    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        let format = context.header.format
        guard let source = CGImageSourceCreateWithData(data as CFData, nil) else {
            throw .decodingFailed(format: format, reason: "ImageIO could not open the data")
        }
        let maxSide = max(context.outputSize.width, context.outputSize.height)
        let options: [CFString: Any] = [
            kCGImageSourceCreateThumbnailFromImageAlways: true,
            kCGImageSourceThumbnailMaxPixelSize: maxSide,
            kCGImageSourceCreateThumbnailWithTransform: false,
            kCGImageSourceShouldCacheImmediately: true,
        ]
        guard let image = CGImageSourceCreateThumbnailAtIndex(source, 0, options as CFDictionary) else {
            throw .decodingFailed(format: format, reason: "ImageIO could not decode the image")
        }
        // Drawn in the image's own space when it is kept (Display P3 stays P3), else in sRGB.
        let (space, tag) = ColorSpace.drawingSpace(
            for: image.colorSpace,
            management: context.options.colorManagement ?? .platformDefault)
        // Rows 64-byte aligned, as Core Animation needs to draw the image without copying it.
        guard
            var bitmap = Bitmap.drawing(
                image, width: context.outputSize.width, height: context.outputSize.height,
                opaque: !context.header.hasAlpha, rowAlignment: 64, space: space)
        else {
            throw .decodingFailed(format: format, reason: "could not create a bitmap context")
        }
        bitmap.colorSpace = tag
        return bitmap
    }
}
#endif
