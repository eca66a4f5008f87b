#if canImport(CPNG)
import CIrisShims

/// The pixel format a PNG decodes to, from its colour type and tRNS.
struct PNGOutputLayout {
    /// The bitmap format.
    var format: PixelFormat

    /// The matching request to the C shim.
    var shimOutput: IrisPNGOutput {
        switch format {
        case .gray8: IRIS_PNG_OUT_GRAY8
        case .rgbx8: IRIS_PNG_OUT_RGBX8
        case .rgba8: IRIS_PNG_OUT_RGBA8
        case .bgra8, .bgrx8: preconditionFailure("PNG layouts are RGB order: libpng writes it")
        }
    }

    init(_ info: iris_png_info) {
        let hasAlphaChannel = info.color_type & 4 != 0
        let isColour = info.color_type & 2 != 0
        if hasAlphaChannel || info.has_trns != 0 {
            format = .rgba8
        } else {
            format = isColour ? .rgbx8 : .gray8
        }
    }
}
#endif
