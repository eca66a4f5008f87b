import Foundation
import Iris

/// Images made by Iris's own encoders, with known content.
enum TestImages {
    /// An opaque bitmap whose pixel at (x, y) is `color(x, y)`.
    static func bitmap(width: Int, height: Int, alpha: Bool = false, _ color: (Int, Int) -> RGBA) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height, format: alpha ? .rgba8 : .rgbx8)
        for y in 0..<height {
            for x in 0..<width {
                var value = color(x, y)
                if alpha {
                    // Premultiplied storage.
                    let a = UInt32(value.a)
                    value = RGBA(
                        r: UInt8(UInt32(value.r) * a / 255), g: UInt8(UInt32(value.g) * a / 255),
                        b: UInt8(UInt32(value.b) * a / 255), a: value.a)
                }
                bitmap.setRGBA(value, x: x, y: y)
            }
        }
        return bitmap
    }

    static func encode(_ bitmap: Bitmap, as format: ImageFormat, quality: Int = 92) throws -> Data {
        try ImageEncoders.encoder(for: format)!.encode(bitmap, options: EncodeOptions(quality: quality))
    }

    /// 400×300: the top half red, the bottom half blue (gravity north/south show which half).
    static func halves() throws -> Data {
        try encode(
            bitmap(width: 400, height: 300) { _, y in y < 150 ? RGBA(r: 220, g: 20, b: 20) : RGBA(r: 20, g: 20, b: 220) },
            as: .png)
    }

    /// 600×300 flat grey, with a saturated, detailed 100×100 subject centred at (480, 150).
    static func offCentreSubject() throws -> Data {
        try encode(
            bitmap(width: 600, height: 300) { x, y in
                if abs(x - 480) < 50 && abs(y - 150) < 50 {
                    return (x / 8 + y / 8) % 2 == 0 ? RGBA(r: 250, g: 200, b: 0) : RGBA(r: 0, g: 60, b: 250)
                }
                return RGBA(r: 128, g: 128, b: 128)
            }, as: .png)
    }

    /// A photo-like 640×480 JPEG (gradients).
    static func photo() throws -> Data {
        try encode(
            bitmap(width: 640, height: 480) { x, y in RGBA(r: UInt8(x * 255 / 639), g: UInt8(y * 255 / 479), b: 90) },
            as: .jpeg)
    }

    /// 200×100 PNG, transparent on the left half, opaque green on the right.
    static func transparentLeft() throws -> Data {
        try encode(
            bitmap(width: 200, height: 100, alpha: true) { x, _ in
                x < 100 ? RGBA(r: 0, g: 0, b: 0, a: 0) : RGBA(r: 0, g: 200, b: 0, a: 255)
            }, as: .png)
    }

    /// An animated WebP of `frames` 64×64 frames of different colours.
    static func animatedWebP(frames: Int = 4) async throws -> Data {
        let bitmaps = (0..<frames).map { index -> Bitmap in
            let red = UInt8((index * 60) % 256)
            let colour = RGBA(r: red, g: 100, b: 255 - red)
            return bitmap(width: 64, height: 64) { _, _ in colour }
        }
        let animation = Animation(frames: bitmaps, durations: Array(repeating: 0.1, count: frames), loopCount: 0)
        return try await ImageEncoders.animationEncoder(for: .webp)!.encode(animation, options: EncodeOptions(quality: 90))
    }

    /// A PNG header (signature and IHDR, correct CRCs) that claims `width`×`height`, an empty IDAT and IEND.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        var ihdr: [UInt8] = Array("IHDR".utf8)
        for value in [width, height] {
            ihdr += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        ihdr += [8, 6, 0, 0, 0]
        let crc = crc32(ihdr)
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + ihdr
        bytes += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        let idat = crc32(Array("IDAT".utf8))
        bytes +=
            [0, 0, 0, 0] + Array("IDAT".utf8) + [UInt8(idat >> 24), UInt8(idat >> 16 & 0xFF), UInt8(idat >> 8 & 0xFF), UInt8(idat & 0xFF)]
        bytes += [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        return Data(bytes)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The decoded result, for checking sizes and pixels.
    static func decode(_ data: Data) throws -> LoadedImage { try ImageDecoderRegistry.standard.decode(data) }
}
