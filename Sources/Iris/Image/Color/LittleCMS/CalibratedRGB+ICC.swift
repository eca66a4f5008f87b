#if canImport(CLCMS2)
import CLCMS2
import Foundation

extension CalibratedRGB {
    /// An ICC profile for the space the chunks describe (its primaries, a power curve of the
    /// inverse file gamma), written by Little CMS: what an encoder embeds for pixels kept in a
    /// PNG's `gAMA`/`cHRM` space, so JPEG and WebP output means the same. `nil` when Little CMS
    /// cannot build it.
    var iccProfile: ICCProfile? {
        guard let profile = LCMSProfile(calibrated: self) else { return nil }
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile.handle, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile.handle, &bytes, &size) != 0 else { return nil }
        return ICCProfile(data: Data(bytes.prefix(Int(size))))
    }
}
#endif
