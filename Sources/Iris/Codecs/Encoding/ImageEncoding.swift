import Foundation

/// An encoder for one format; get the platform's from ``ImageEncoders/standard``
/// (`ImageEncoders.encoder(for:)`).
public protocol ImageEncoding: Sendable {
    /// The format written.
    var format: ImageFormat { get }

    /// Encodes `bitmap` (premultiplied colour is unpremultiplied as the format needs).
    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(ImageError) -> Data
}
