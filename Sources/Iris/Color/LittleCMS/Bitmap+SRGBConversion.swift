#if canImport(CLCMS2)
import CLCMS2

extension Bitmap {
    /// Converts tagged pixels to sRGB in place with Little CMS and tags the bitmap
    /// ``ColorSpace/sRGB``; untagged and sRGB bitmaps are left exactly as they are.
    ///
    /// Premultiplied layouts are converted as such (Little CMS unpremultiplies, converts and
    /// premultiplies again); the alpha or filler byte is kept. A profile Little CMS cannot read,
    /// or one that does not fit the layout (an RGB profile on grey pixels), leaves the numbers
    /// as they are and the bitmap is then labelled sRGB, as a browser would show it.
    mutating func convertToSRGB() {
        guard let space = taggedColorSpace else { return }
        taggedColorSpace = .sRGB
        guard !space.isSRGB, width > 0, height > 0 else { return }
        let layout: cmsUInt32Number = switch format {
        case .rgba8: IRIS_LCMS_TYPE_RGBA_8_PREMUL
        case .rgbx8: IRIS_LCMS_TYPE_RGBA_8
        case .bgra8: IRIS_LCMS_TYPE_BGRA_8_PREMUL
        case .bgrx8: IRIS_LCMS_TYPE_BGRA_8
        case .gray8: IRIS_LCMS_TYPE_GRAY_8
        }
        guard let transform = ColorTransforms.toSRGB(from: space, input: layout, output: layout) else { return }
        let (width, height, stride) = (width, height, bytesPerRow)
        withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            // In place: every layout converts pixel by pixel into a pixel of the same size.
            transform.convert(base, inputStride: stride, to: base, outputStride: stride, width: width, rows: height)
        }
    }
}
#endif
