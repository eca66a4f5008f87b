#if canImport(CLCMS2)
import Foundation
import Testing
@testable import Iris

/// What the ImageIO decoder draws in on Apple platforms, decided here on Linux.
@Suite("Drawing space choice")
struct DrawingSpaceChoiceTests {
    static func source(
        _ profile: ICCProfile?, isRGB: Bool = true, supportsOutput: Bool = true, isSRGB: Bool = false
    )
        -> DrawingSpaceChoice.Source
    {
        DrawingSpaceChoice.Source(isRGB: isRGB, supportsOutput: supportsOutput, isSRGB: isSRGB, iccData: profile?.data)
    }

    @Test("Display P3 kept is drawn in P3 and tagged with its profile; asked to convert, in sRGB")
    func keptOrConverted() throws {
        let p3 = try TestProfiles.displayP3()
        #expect(DrawingSpaceChoice.profile(for: Self.source(p3), management: .keepSource) == p3)
        #expect(DrawingSpaceChoice.profile(for: Self.source(p3), management: .convertToSRGB) == nil)
    }

    @Test("grey, CMYK, non-output, sRGB, profile-less and untagged sources are drawn in sRGB")
    func sRGBOtherwise() throws {
        let p3 = try TestProfiles.displayP3()
        #expect(
            DrawingSpaceChoice.profile(
                for: Self.source(try TestProfiles.ghostscriptGray(), isRGB: false),
                management: .keepSource) == nil)
        #expect(
            DrawingSpaceChoice.profile(
                for: Self.source(try TestProfiles.ghostscriptCMYK(), isRGB: false),
                management: .keepSource) == nil)
        #expect(DrawingSpaceChoice.profile(for: Self.source(p3, supportsOutput: false), management: .keepSource) == nil)
        #expect(
            DrawingSpaceChoice.profile(
                for: Self.source(try TestProfiles.colordSRGB(), isSRGB: true),
                management: .keepSource) == nil)
        #expect(DrawingSpaceChoice.profile(for: Self.source(nil), management: .keepSource) == nil)
        #expect(DrawingSpaceChoice.profile(for: nil, management: .keepSource) == nil)
        // Bytes Core Graphics would hand over but that are not a profile: sRGB, not a crash.
        let garbage = DrawingSpaceChoice.Source(isRGB: true, supportsOutput: true, isSRGB: false, iccData: Data(repeating: 7, count: 200))
        #expect(DrawingSpaceChoice.profile(for: garbage, management: .keepSource) == nil)
    }
}
#endif
