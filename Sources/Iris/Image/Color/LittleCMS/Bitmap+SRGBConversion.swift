#if canImport(CLCMS2)
import CLCMS2

extension Bitmap {
    /// Converts tagged pixels to sRGB in place with Little CMS and tags the bitmap
    /// ``ColorSpace/sRGB``; untagged and sRGB bitmaps are left exactly as they are, and so are
    /// bitmaps whose profile is sRGB within a level (see ``ColorTransforms``).
    ///
    /// Premultiplied rows are unpremultiplied, converted and premultiplied again (Little CMS
    /// 2.14's own premultiplied 8-bit layouts give wrong colours: measured, (100, 50, 20, 128)
    /// in Adobe RGB came out as (127, 128, 128)); the alpha or filler byte is kept. A profile
    /// Little CMS cannot read, or one that does not fit the layout (an RGB profile on grey
    /// pixels), leaves the numbers as they are, labelled sRGB, as a browser would show them.
    mutating func convertToSRGB() {
        guard let space = taggedColorSpace else { return }
        taggedColorSpace = .sRGB
        guard !space.isSRGB, width > 0, height > 0 else { return }
        let layout: cmsUInt32Number =
            switch format {
            case .rgba8, .rgbx8: IRIS_LCMS_TYPE_RGBA_8
            case .bgra8, .bgrx8: IRIS_LCMS_TYPE_BGRA_8
            case .gray8: IRIS_LCMS_TYPE_GRAY_8
            }
        guard let transform = ColorTransforms.toSRGB(from: space, input: layout, output: layout) else { return }
        let (width, height, stride, premultiplied) = (width, height, bytesPerRow, format.hasAlpha && isPremultiplied)
        withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            guard premultiplied else {
                // In place: every layout converts pixel by pixel into a pixel of the same size.
                transform.convert(base, inputStride: stride, to: base, outputStride: stride, width: width, rows: height)
                return
            }
            for y in 0..<height {
                let row = UnsafeMutableRawBufferPointer(start: base + y * stride, count: width * 4)
                PixelConversion.unpremultiplyRGBA(row, pixelCount: width)
                transform.convert(
                    row.baseAddress!, inputStride: width * 4, to: row.baseAddress!, outputStride: width * 4,
                    width: width, rows: 1)
                PixelConversion.premultiplyRGBA(row, pixelCount: width)
            }
        }
    }
}
#endif
