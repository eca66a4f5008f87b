#if canImport(CLCMS2)
import CLCMS2

/// A Little CMS transform between two pixel layouts, deleted when released.
///
/// Made with `cmsFLAGS_NOCACHE` (no one-pixel cache inside the transform), which is what makes
/// a transform safe to run from several threads at once: hence `@unchecked Sendable`, and why
/// ``ColorTransforms`` can share one per profile.
final class LCMSTransform: @unchecked Sendable {
    private let handle: cmsHTRANSFORM

    /// A relative-colorimetric transform with black point compensation (what vips and most
    /// viewers use for photos) from `source` pixels laid out as `inputFormat` to `destination`
    /// ones laid out as `outputFormat` (`IRIS_LCMS_TYPE_*`); `extraFlags` adds to the flags.
    init?(
        from source: LCMSProfile, _ inputFormat: cmsUInt32Number,
        to destination: LCMSProfile, _ outputFormat: cmsUInt32Number, extraFlags: cmsUInt32Number = 0
    ) {
        let flags = cmsUInt32Number(cmsFLAGS_NOCACHE | cmsFLAGS_BLACKPOINTCOMPENSATION) | extraFlags
        guard
            let handle = cmsCreateTransform(
                source.handle, inputFormat, destination.handle, outputFormat,
                cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), flags)
        else { return nil }
        self.handle = handle
    }

    deinit { cmsDeleteTransform(handle) }

    /// Converts `rows` rows of `width` pixels, `inputStride` and `outputStride` bytes apart.
    /// `input` and `output` may be the same memory when both layouts have the same pixel size.
    func convert(
        _ input: UnsafeRawPointer, inputStride: Int, to output: UnsafeMutableRawPointer, outputStride: Int,
        width: Int, rows: Int
    ) {
        guard width > 0, rows > 0 else { return }
        cmsDoTransformLineStride(
            handle, input, output, cmsUInt32Number(width), cmsUInt32Number(rows),
            cmsUInt32Number(inputStride), cmsUInt32Number(outputStride), 0, 0)
    }
}
#endif
