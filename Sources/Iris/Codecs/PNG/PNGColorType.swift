#if canImport(CPNG)
/// A PNG colour type, with its value in IHDR.
enum PNGColorType: Int32, Sendable, CaseIterable {
    case gray = 0
    case rgb = 2
    case palette = 3
    case grayAlpha = 4
    case rgba = 6

    /// Samples per pixel as stored.
    var channels: Int {
        switch self {
        case .gray, .palette: 1
        case .grayAlpha: 2
        case .rgb: 3
        case .rgba: 4
        }
    }

    /// The bit depths the PNG specification allows for this colour type.
    var legalBitDepths: [Int] {
        switch self {
        case .gray: [1, 2, 4, 8, 16]
        case .palette: [1, 2, 4, 8]
        case .rgb, .grayAlpha, .rgba: [8, 16]
        }
    }

    /// Bytes of one packed row of `width` pixels at `bitDepth`.
    func rowBytes(width: Int, bitDepth: Int) -> Int {
        (width * channels * bitDepth + 7) / 8
    }
}
#endif
