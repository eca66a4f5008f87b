import Foundation

// PLACEHOLDER (skeleton): the EXIF work replaces this file whole, keeping the API.

/// Reads the EXIF orientation tag with a small bounds-checked parser.
public enum EXIFReader {
    /// The orientation stored in `data` (JPEG APP1, PNG eXIf, WebP EXIF), or `nil`.
    public static func orientation(in data: Data, format: ImageFormat) -> Orientation? { nil }
}
