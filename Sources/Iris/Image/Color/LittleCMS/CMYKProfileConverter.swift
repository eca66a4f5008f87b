#if canImport(CLCMS2)
import CLCMS2

/// Turns rows of CMYK samples into sRGB RGBX through the file's own CMYK profile: how a CMYK
/// JPEG that carries one is decoded (without a profile, ``JPEGCMYK`` does the naive sum).
struct CMYKProfileConverter {
    private let transform: LCMSTransform

    /// The converter for `profile`, with samples stored as `inverted` (255 − ink, Photoshop's
    /// convention, which the Adobe marker announces); `nil` when the profile is not a CMYK one
    /// Little CMS can read.
    init?(profile: ICCProfile, inverted: Bool) {
        guard profile.colorModel == .cmyk,
            let transform = ColorTransforms.toSRGB(
                from: .icc(profile),
                input: inverted ? IRIS_LCMS_TYPE_CMYK_8_REV : IRIS_LCMS_TYPE_CMYK_8,
                output: IRIS_LCMS_TYPE_RGBA_8)
        else { return nil }
        self.transform = transform
    }

    /// Converts `pixelCount` CMYK pixels of `cmyk` into `rgbx` (4 bytes a pixel each; the
    /// filler byte of `rgbx` is set to 255).
    func convert(_ cmyk: UnsafeRawBufferPointer, into rgbx: UnsafeMutableRawBufferPointer, pixelCount: Int) {
        guard pixelCount > 0, let input = cmyk.baseAddress, let output = rgbx.baseAddress else { return }
        // The transform writes colour only: the fourth byte of each output pixel is set here.
        let bytes = rgbx.bindMemory(to: UInt8.self)
        var index = 3
        for _ in 0..<pixelCount {
            bytes[index] = 255
            index += 4
        }
        transform.convert(
            input, inputStride: pixelCount * 4, to: output, outputStride: pixelCount * 4,
            width: pixelCount, rows: 1)
    }
}
#endif
