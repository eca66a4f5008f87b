import Foundation
import Iris
import IrisSamples

/// Real encoded images for tests, made by Iris's own encoders (most from the sample photo
/// generator): the one place every test target makes them.
package enum TestImages {
    /// `bitmap` as PNG.
    package static func png(_ bitmap: Bitmap) throws -> Data {
        guard let encoder = ImageEncoders.encoder(for: .png) else { throw ImageError.unsupportedFormat(.png) }
        return try encoder.encode(bitmap, options: EncodeOptions())
    }

    /// `bitmap` as baseline JPEG at `quality`.
    package static func jpeg(_ bitmap: Bitmap, quality: Int = 85) throws -> Data {
        guard let encoder = ImageEncoders.encoder(for: .jpeg) else { throw ImageError.unsupportedFormat(.jpeg) }
        return try encoder.encode(bitmap, options: EncodeOptions(quality: quality))
    }

    /// A photo-like PNG of `width` × `height`.
    package static func png(width: Int, height: Int, seed: UInt64) throws -> Data {
        try png(SampleImages.photo(width: width, height: height, seed: seed))
    }

    /// A photo-like JPEG of `width` × `height` at `quality`.
    package static func jpeg(width: Int, height: Int, seed: UInt64, quality: Int = 85) throws -> Data {
        try jpeg(SampleImages.photo(width: width, height: height, seed: seed), quality: quality)
    }
}
