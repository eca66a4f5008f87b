#if canImport(CLCMS2)
import Foundation
import IrisSamples
import Testing
@testable import Iris

/// Grey profiles, orientation and the label itself: what a tagged bitmap keeps.
@Suite("Colour space tags: grey, orientation")
struct ColorSpaceTagTests {
    @Test("A grey image with a grey profile stays grey and matches its sRGB rendering", arguments: [ImageFormat.jpeg, .png])
    func greyProfile(format: ImageFormat) throws {
        let profile = try TestProfiles.ghostscriptGray()
        #expect(profile.colorModel == .gray)
        let grey = SampleImages.horizontalGradient(width: 256, height: 4, format: .gray8)
        let data = try ColorReference.encoder(format).encode(ColorReference.tagged(grey, profile), options: ColorReference.options)
        let stored = try ColorReference.decode(data, .keepSource)
        #expect(stored.format == .gray8 && stored.colorSpace == .icc(profile))
        let shown = try ColorReference.decode(data, .convertToSRGB)
        #expect(shown.format == .gray8 && shown.colorSpace == .sRGB)
        let levels = (0..<stored.width).map { stored.rgba(x: $0, y: 1).g }
        let expected = try ColorReference.renderedGray(levels, profile: profile)
        var worst = 0, moved = 0
        for x in 0..<shown.width {
            let value = Int(shown.rgba(x: x, y: 1).g)
            worst = max(worst, abs(value - Int(expected[x])))
            if value != Int(levels[x]) { moved += 1 }
        }
        #expect(worst <= 1, "\(format): worst difference \(worst)")
        #expect(moved > 0, "\(format): the grey profile changed nothing, so the test shows nothing")
    }

    @Test("EXIF orientation keeps the tag of a kept source")
    func orientationKeepsTag() throws {
        let profile = try TestProfiles.displayP3()
        let plain = try ColorReference.encoder(.jpeg).encode(
            ColorReference.tagged(ColorReference.photo(width: 60, height: 40), profile),
            options: ColorReference.options)
        let data = EXIFBuilder.jpeg(plain, insertingEXIF: EXIFBuilder.tiff(orientation: 6))
        let image = try ImageDecoderRegistry.standard.decode(data, options: DecodeOptions(colorManagement: .keepSource))
        #expect(image.bitmap.size == PixelSize(width: 40, height: 60))
        #expect(image.bitmap.colorSpace == .icc(profile))
    }

    @Test("Relabelling copies: a copy's label changes, the original's does not; layout changes keep it")
    func labels() throws {
        let profile = try TestProfiles.adobeRGB()
        let original = ColorReference.photo(width: 8, height: 8)
        let tagged = ColorReference.tagged(original, profile)
        #expect(original.colorSpace == .sRGB)
        #expect(tagged.colorSpace == .icc(profile))
        #expect(tagged.converted(to: .bgra8).colorSpace == .icc(profile))
        #expect(tagged.converted(to: .gray8).colorSpace == .sRGB)  // an RGB profile says nothing of grey
        #expect(tagged.oriented(.right).colorSpace == .icc(profile))
        #expect(tagged.embeddableICCProfile == profile)
        #expect(tagged.converted(to: .gray8).embeddableICCProfile == nil)
    }
}
#endif
