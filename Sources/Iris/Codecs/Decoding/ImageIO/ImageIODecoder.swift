#if !canImport(CJPEG) && canImport(ImageIO)
import CoreGraphics
import Foundation
import ImageIO

/// Decodes with ImageIO, shrinking with its thumbnail decoder; orientation is left to the registry.
///
/// Output is `bgra8` (premultiplied) for sources with alpha and `bgrx8` otherwise, drawn straight
/// into the bitmap's storage: a `CGImage` made from it (``Bitmap/cgImage``) draws without
/// converting.
struct ImageIODecoder: ImageDecoding {
    var formats: Set<ImageFormat> { [.jpeg, .png, .gif, .webp] }

    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        let format = FormatSniffer.format(of: data)
        guard let source = CGImageSourceCreateWithData(data as CFData, nil),
              let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any],
              let width = properties[kCGImagePropertyPixelWidth] as? Int,
              let height = properties[kCGImagePropertyPixelHeight] as? Int else {
            throw .decodingFailed(format: format, reason: "ImageIO could not read the header")
        }
        let hasAlpha = properties[kCGImagePropertyHasAlpha] as? Bool ?? false
        return ImageHeader(format: format, width: width, height: height, hasAlpha: hasAlpha,
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
        // Rows 64-byte aligned, as Core Animation needs to draw the image without copying it.
        guard let bitmap = Bitmap.drawing(image, width: context.outputSize.width, height: context.outputSize.height,
                                          opaque: !context.header.hasAlpha, rowAlignment: 64) else {
            throw .decodingFailed(format: format, reason: "could not create a bitmap context")
        }
        return bitmap
    }
}
#endif
