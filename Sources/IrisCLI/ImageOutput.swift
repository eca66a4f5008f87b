import ArgumentParser
import Foundation
import Iris

/// How the CLI writes a decoded image: animations kept when asked (as animated GIF for GIF
/// output, else animated WebP), alpha kept by PNG and WebP (and GIF, as transparent or not),
/// and composited over a background colour for JPEG.
struct ImageOutput: Sendable {
    /// The format for still images.
    var format: OutputFormat
    var options: EncodeOptions
    /// Write animated inputs as animations: in ``format`` when it writes them (WebP, GIF), else
    /// as animated WebP.
    var keepsAnimation: Bool
    /// What transparent pixels become in a JPEG.
    var background: RGBA

    /// The encoded file and its extension.
    func encode(_ image: LoadedImage) async throws -> (data: Data, fileExtension: String) {
        if keepsAnimation, let animation = image.animation, animation.frameCount > 1 {
            let animated: OutputFormat = format.writesAnimations ? format : .webp
            return (try await encodeAnimation(animation, as: animated, options: options), animated.fileExtension)
        }
        let bitmap = format == .jpeg ? image.bitmap.flattened(over: background) : image.bitmap
        return (try format.encode(bitmap, options: options), format.fileExtension)
    }
}

/// `animation` as an animation in `format` (WebP or GIF), with the platform's encoder.
func encodeAnimation(_ animation: Animation, as format: OutputFormat, options: EncodeOptions) async throws -> Data {
    guard let encoder = ImageEncoders.animationEncoder(for: format.imageFormat) else {
        throw ImageError.unsupportedFormat(format.imageFormat)
    }
    return try await encoder.encode(animation, options: options)
}

/// A colour given as `RRGGBB` (hex).
struct HexColour: ExpressibleByArgument, Sendable {
    var rgba: RGBA

    init?(argument: String) {
        let hex = argument.hasPrefix("#") ? String(argument.dropFirst()) : argument
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
        rgba = RGBA(r: UInt8(value >> 16 & 0xFF), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF))
    }

    init(_ rgba: RGBA) { self.rgba = rgba }

    var defaultValueDescription: String { String(format: "%02x%02x%02x", rgba.r, rgba.g, rgba.b) }
}
