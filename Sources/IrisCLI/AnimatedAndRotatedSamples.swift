import Foundation
import Iris
import IrisSamples

/// The demo samples that are more than one encoded photo: an animation with alpha, and a JPEG
/// whose EXIF orientation turns it upright.
enum AnimatedAndRotatedSamples {
    static func write(to directory: URL) async throws {
        let animated = directory.appendingPathComponent("panning-sticker.webp")
        if !FileManager.default.fileExists(atPath: animated.path) {
            try await panningAnimation().write(to: animated, options: .atomic)
            Terminal.error("wrote \(animated.path) (animated WebP with alpha, 24 frames)")
        }
        let rotated = directory.appendingPathComponent("rotated-exif6.jpg")
        if !FileManager.default.fileExists(atPath: rotated.path) {
            let photo = SampleImages.photo(width: 1600, height: 1200, seed: 8)
            let jpeg = try OutputFormat.jpeg.encode(photo, options: EncodeOptions(quality: 88))
            try withOrientation(6, jpeg).write(to: rotated, options: .atomic)
            Terminal.error("wrote \(rotated.path) (1600×1200 stored, EXIF orientation 6: shown 1200×1600)")
        }
    }

    /// A 480×300 window panning across a wider photo with transparent shapes, 24 frames of 80 ms,
    /// looping forever.
    static func panningAnimation() async throws -> Data {
        let wide = LoadedImage(
            bitmap: SampleImages.photo(width: 960, height: 300, seed: 7, format: .rgba8, alpha: true),
            format: .png, sourceSize: PixelSize(width: 960, height: 300))
        let frames = try (0..<24).map { index in
            try ImageProcessors.Crop(rect: PixelRect(x: index * 20, y: 0, width: 480, height: 300)).process(wide).bitmap
        }
        let animation = Animation(frames: frames, durations: Array(repeating: 0.08, count: frames.count))
        return try await encodeAnimation(animation, as: .webp, options: EncodeOptions(quality: 80))
    }

    /// `jpeg` with an EXIF segment (APP1) holding only `orientation`, right after SOI.
    static func withOrientation(_ orientation: UInt16, _ jpeg: Data) -> Data {
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8]  // big-endian TIFF, IFD at 8
        tiff += [0, 1]  // one entry
        tiff += [0x01, 0x12, 0, 3, 0, 0, 0, 1]  // Orientation, SHORT, count 1
        tiff += [UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0]
        tiff += [0, 0, 0, 0]  // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        var out = Data(jpeg.prefix(2))  // FF D8
        out += [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        out += jpeg.dropFirst(2)
        return out
    }
}
