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
    /// pixels) or the profile is sRGB within a level, which leaves the pixels as they are.
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
        // Alpha (or the filler byte) is copied as it is.
        let copiesExtra = input == IRIS_LCMS_TYPE_RGBA_8 || input == IRIS_LCMS_TYPE_BGRA_8
        guard
            let transform = LCMSTransform(
                from: source, input, to: destination, output,
                extraFlags: copiesExtra ? cmsUInt32Number(cmsFLAGS_COPY_ALPHA) : 0)
        else { return nil }
        if input == output, isWithinALevelOfIdentity(transform, layout: input) { return nil }
        return transform
    }

    /// Whether `transform` moves no probe by more than one level: every grey, every value of
    /// each primary alone, and a 6×6×6 cube (grey layouts: every level). Such a profile is
    /// sRGB written down differently (colord's sRGB.icc moves some dark values by one): its
    /// pixels are left exactly as they are, like an untagged image's.
    private static func isWithinALevelOfIdentity(_ transform: LCMSTransform, layout: cmsUInt32Number) -> Bool {
        var probes: [UInt8] = []
        if layout == IRIS_LCMS_TYPE_GRAY_8 {
            probes = (0...255).map { UInt8($0) }
        } else if layout == IRIS_LCMS_TYPE_RGBA_8 || layout == IRIS_LCMS_TYPE_BGRA_8 {
            for v in 0...255 {
                let b = UInt8(v)
                probes += [b, b, b, 255, b, 0, 0, 255, 0, b, 0, 255, 0, 0, b, 255]
            }
            let steps: [UInt8] = [0, 51, 102, 153, 204, 255]
            for r in steps { for g in steps { for b in steps { probes += [r, g, b, 255] } } }
        } else {
            return false
        }
        var output = [UInt8](repeating: 0, count: probes.count)
        let pixelSize = layout == IRIS_LCMS_TYPE_GRAY_8 ? 1 : 4
        probes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                transform.convert(
                    input.baseAddress!, inputStride: probes.count, to: out.baseAddress!, outputStride: probes.count,
                    width: probes.count / pixelSize, rows: 1)
            }
        }
        return zip(probes, output).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }
}
#endif
