import Foundation

/// An encoder for one format; get the platform's from ``ImageEncoders/standard``
/// (`ImageEncoders.encoder(for:)`).
public protocol ImageEncoding: Sendable {
    /// The format written.
    var format: ImageFormat { get }

    /// Encodes `bitmap` (premultiplied colour is unpremultiplied as the format needs).
    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(ImageError) -> Data
}

extension PixelSize {
    /// Throws unless an image of this size can be written as `format`: not empty, and at most
    /// `maxDimension` pixels a side (the format's or its library's limit).
    func checkEncodable(as format: ImageFormat, maxDimension: Int) throws(ImageError) {
        guard width > 0, height > 0 else {
            throw .encodingFailed(format: format, reason: "the image is empty (\(self))")
        }
        guard width <= maxDimension, height <= maxDimension else {
            throw .encodingFailed(format: format, reason: "\(self) is over \(format)'s limit of \(maxDimension) pixels a side")
        }
    }
}
