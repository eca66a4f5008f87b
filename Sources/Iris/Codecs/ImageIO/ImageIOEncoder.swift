#if !canImport(CJPEG) && canImport(ImageIO)
import CoreGraphics
import Foundation
import ImageIO
import UniformTypeIdentifiers

/// Encodes with ImageIO: JPEG, PNG, WebP and still GIF (ImageIO reduces the colours).
struct ImageIOEncoder: ImageEncoding {
    let format: ImageFormat

    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(ImageError) -> Data {
        let type: UTType =
            switch format {
            case .png: .png
            case .webp: .webP
            case .gif: .gif
            default: .jpeg
            }
        let output = NSMutableData()
        // Every pixel format has a CGImage that reads the bitmap in place: no conversion, no copy.
        // (Core Graphics draws premultiplied colour: straight alpha is premultiplied first.)
        guard let image = bitmap.premultiplied().cgImage,
            let destination = CGImageDestinationCreateWithData(output, type.identifier as CFString, 1, nil)
        else {
            throw .encodingFailed(format: format, reason: "ImageIO cannot write \(format)")
        }
        let properties: [CFString: Any] = [kCGImageDestinationLossyCompressionQuality: Double(options.quality) / 100]
        CGImageDestinationAddImage(destination, image, properties as CFDictionary)
        guard CGImageDestinationFinalize(destination) else {
            throw .encodingFailed(format: format, reason: "ImageIO could not finish the file")
        }
        return output as Data
    }
}
#endif
