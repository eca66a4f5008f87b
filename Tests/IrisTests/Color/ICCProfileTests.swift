#if canImport(CLCMS2)
import CLCMS2
import Foundation
import Testing
@testable import Iris

/// ``ICCProfile`` reads what Little CMS reads from the same bytes, and refuses what is not a profile.
@Suite("ICC profiles: header and description")
struct ICCProfileTests {
    @Test("Model, class, version and description agree with Little CMS's reading")
    func agreesWithLittleCMS() throws {
        let profiles =
            try TestProfiles.wideGamut() + [
                ("sRGB", try TestProfiles.colordSRGB()),
                ("CMYK", try TestProfiles.ghostscriptCMYK()),
            ]
        for (label, profile) in profiles {
            let handle = try #require(profile.data.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
            defer { cmsCloseProfile(handle) }
            var text = [CChar](repeating: 0, count: 256)
            let length = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &text, cmsUInt32Number(text.count))
            #expect(length > 1, "\(label): Little CMS finds no description")
            let lcmsName = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            #expect(profile.name == lcmsName.trimmingCharacters(in: .whitespaces), "\(label)")
            let space = cmsGetColorSpace(handle)
            let model: ICCProfile.ColorModel =
                space == cmsSigRgbData
                ? .rgb
                : space == cmsSigCmykData
                    ? .cmyk
                    : space == cmsSigGrayData ? .gray : .other("?")
            #expect(profile.colorModel == model, "\(label)")
            #expect(Double(profile.version.major) == (cmsGetProfileVersion(handle)).rounded(.down), "\(label)")
            #expect(profile.profileClass == (label == "CMYK" ? "prtr" : "mntr"), "\(label)")
        }
    }

    @Test("The identity is the MD5 profile ID when set, else a hash of the bytes; it tells profiles apart")
    func identity() throws {
        let p3 = try TestProfiles.displayP3(), adobe = try TestProfiles.adobeRGB()
        #expect(p3.identity != adobe.identity)
        #expect(p3 != adobe)
        #expect(try TestProfiles.displayP3().identity == p3.identity)
        let id = [UInt8](p3.data)[84..<100]
        #expect(p3.identity.hasPrefix(id.contains { $0 != 0 } ? "md5:" : "fnv1a64:"))
    }

    @Test("Bytes that are not a profile are refused")
    func refusesNonProfiles() throws {
        let good = [UInt8](try TestProfiles.adobeRGB().data)
        #expect(ICCProfile(data: Data()) == nil)
        #expect(ICCProfile(data: Data(good.prefix(100))) == nil)  // shorter than the header
        var noSignature = good
        noSignature[36] = UInt8(ascii: "x")
        #expect(ICCProfile(data: Data(noSignature)) == nil)
        #expect(ICCProfile(data: Data(good.dropLast(1))) == nil)  // states more than there is
        var lyingTags = good
        lyingTags[128] = 0x7F  // tag count far beyond the data
        #expect(ICCProfile(data: Data(lyingTags))?.name == nil)
    }
}
#endif
