#if canImport(CLCMS2)
import CLCMS2

/// The transforms to sRGB that decodes use, made once per source space and pixel layout and
/// shared (Little CMS takes about a millisecond to build one; converting a thumbnail takes
/// less). At most ``capacity`` are kept; when full, the cache starts over.
enum ColorTransforms {
    /// The most transforms kept.
    static let capacity = 32

    private struct Key: Hashable {
        var space: ColorSpace
        var input: cmsUInt32Number
        var output: cmsUInt32Number
    }

    private static let cache = LockedState<[Key: LCMSTransform?]>([:])

    /// The transform from `space` pixels laid out as `input` to sRGB pixels laid out as
    /// `output` (a grey profile goes to grey with sRGB's tone curve); `nil` when Little CMS
    /// cannot read the profile or it does not fit the layouts (an RGB profile for grey
    /// pixels), which leaves the pixels as they are.
    static func toSRGB(from space: ColorSpace, input: cmsUInt32Number, output: cmsUInt32Number) -> LCMSTransform? {
        let key = Key(space: space, input: input, output: output)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let transform = make(from: space, input: input, output: output)
        cache.withLock { cache in
            if cache.count >= capacity { cache.removeAll() }
            cache[key] = .some(transform)
        }
        return transform
    }

    private static func make(from space: ColorSpace, input: cmsUInt32Number, output: cmsUInt32Number) -> LCMSTransform? {
        let source: LCMSProfile?
        switch space {
        case .sRGB: return nil
        case .icc(let profile): source = LCMSProfile(icc: profile)
        case .calibrated(let calibration): source = LCMSProfile(calibrated: calibration)
        }
        guard let source else { return nil }
        let grey = source.colorSpaceSignature == cmsSigGrayData
        guard let destination = grey ? LCMSProfile.sRGBGray() : LCMSProfile.sRGB() else { return nil }
        // Alpha (or the filler byte) is copied as it is; premultiplied layouts are
        // unpremultiplied and premultiplied again by Little CMS itself.
        let copiesExtra = input != IRIS_LCMS_TYPE_CMYK_8 && input != IRIS_LCMS_TYPE_CMYK_8_REV && input != IRIS_LCMS_TYPE_GRAY_8
        return LCMSTransform(from: source, input, to: destination, output,
                             extraFlags: copiesExtra ? cmsUInt32Number(cmsFLAGS_COPY_ALPHA) : 0)
    }
}
#endif
