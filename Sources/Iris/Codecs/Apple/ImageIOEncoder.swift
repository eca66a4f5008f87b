#if !canImport(CJPEG) && canImport(ImageIO)
import CoreGraphics
import Foundation
import ImageIO
import UniformTypeIdentifiers

/// Encodes with ImageIO.
struct ImageIOEncoder: ImageEncoding {
    let format: ImageFormat

    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws -> Data {
        let rgba = bitmap.converted(to: .rgba8)
        let type: UTType = switch format {
        case .png: .png
        case .webp: .webP
        default: .jpeg
        }
        let output = NSMutableData()
        guard let provider = CGDataProvider(data: Data(rgba.pixels) as CFData),
              let image = CGImage(width: rgba.width, height: rgba.height, bitsPerComponent: 8, bitsPerPixel: 32,
                                  bytesPerRow: rgba.bytesPerRow, space: CGColorSpaceCreateDeviceRGB(),
                                  bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue),
                                  provider: provider, decode: nil, shouldInterpolate: false, intent: .defaultIntent),
              let destination = CGImageDestinationCreateWithData(output, type.identifier as CFString, 1, nil) else {
            throw ImageError.encodingFailed(format: format, reason: "ImageIO cannot write \(format)")
        }
        let properties: [CFString: Any] = [kCGImageDestinationLossyCompressionQuality: Double(options.quality) / 100]
        CGImageDestinationAddImage(destination, image, properties as CFDictionary)
        guard CGImageDestinationFinalize(destination) else {
            throw ImageError.encodingFailed(format: format, reason: "ImageIO could not finish the file")
        }
        return output as Data
    }
}
#endif
