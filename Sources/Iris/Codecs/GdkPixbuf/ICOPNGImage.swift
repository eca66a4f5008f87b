#if canImport(CGdkPixbuf)
import Foundation

/// An icon's PNG-compressed image (Vista and later icons: their 256-pixel image is a whole PNG
/// stream), which gdk-pixbuf's ICO loader does not read: read by the PNG decoder.
enum ICOPNGImage {
    /// The PNG stream of `entry`, out of the icon file `data` (the directory checked it is inside).
    static func stream(of entry: ICODirectory.Entry, in data: Data) -> Data {
        Data(data[(data.startIndex + entry.bytes.lowerBound)..<(data.startIndex + entry.bytes.upperBound)])
    }

    /// The PNG stream's header; its size is the image's (the icon's directory says 0 for 256).
    static func header(of png: Data) throws(ImageError) -> ImageHeader {
        do throws(ImageError) {
            return try PNGDecoder().readHeader(png)
        } catch {
            throw inIcon(error)
        }
    }

    /// Decodes the PNG stream at exactly `context.outputSize`, its limits checked first.
    static func decode(_ png: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        do throws(ImageError) {
            let header = try PNGDecoder().readHeader(png)
            try context.options.limits.check(width: header.width, height: header.height, format: .ico)
            var pngContext = context
            pngContext.header = header
            return try PNGDecoder().decode(png, context: pngContext)
        } catch {
            throw inIcon(error)
        }
    }

    /// A PNG decoder's `error` said of the icon that holds the PNG stream.
    private static func inIcon(_ error: ImageError) -> ImageError {
        switch error {
        case .truncated(.png, let received, let expected): .truncated(format: .ico, received: received, expected: expected)
        case .decodingFailed(.png, let reason): .decodingFailed(format: .ico, reason: "its PNG image: \(reason)")
        case .invalidDimensions(.png, let width, let height): .invalidDimensions(format: .ico, width: width, height: height)
        default: error
        }
    }
}
#endif
