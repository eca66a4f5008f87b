#if canImport(CLCMS2)
import Foundation
import IrisSamples
import Testing
import Iris

/// Through ``ImagePipeline``'s public API (a `.file` and a `.data` request at a target size):
/// tagged images arrive converted to sRGB by default, matching the source's sRGB rendering
/// shrunk to the same size; a pipeline whose registry keeps the source keeps the profile
/// through its processors.
@Suite("Colour management through the pipeline")
struct ColorPipelineTests {
    @Test("File and data requests at a target size come out as the sRGB rendering", arguments: ColorReference.formats)
    func convertsAtTargetSize(format: ImageFormat) async throws {
        let source = ColorReference.photo(width: 240, height: 160)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iris-colour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration(memoryCache: nil))
        for (name, profile) in try TestProfiles.wideGamut() {
            let data = try ColorReference.encoder(format).encode(ColorReference.tagged(source, profile), options: ColorReference.options)
            let url = directory.appendingPathComponent("\(name).\(format.fileExtension ?? "img")")
            try data.write(to: url)
            let fullReference = try ColorReference.renderedToSRGB(source, from: profile)
            let requests = [
                ImageRequest(source: .file(url), targetSize: CGSize(width: 120, height: 120)),
                ImageRequest(source: .data(id: "\(name)-\(format)", load: { data }), targetSize: CGSize(width: 120, height: 120)),
            ]
            for request in requests {
                let image = try await pipeline.image(for: request)
                #expect(image.bitmap.size == PixelSize(width: 120, height: 80))
                #expect(image.bitmap.colorSpace == .sRGB)
                let expected = Resampler().resize(fullReference, to: image.bitmap.size)
                let error = ColorReference.meanError(image.bitmap, expected)
                #expect(error <= 2, "\(format) \(name): mean error \(error)")
                let unmanaged = Resampler().resize(source, to: image.bitmap.size)
                #expect(ColorReference.meanError(unmanaged, expected) >= 4, "\(format) \(name)")
            }
        }
    }

    @Test("A pipeline that keeps the source space keeps the profile through a processor")
    func keepsSourceThroughProcessors() async throws {
        let profile = try TestProfiles.displayP3()
        let data = try ColorReference.encoder(.png).encode(
            ColorReference.tagged(ColorReference.photo(), profile),
            options: ColorReference.options)
        var decoders = ImageDecoderRegistry.standard
        decoders.colorManagement = .keepSource
        let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration(memoryCache: nil, decoders: decoders))
        let image = try await pipeline.image(
            for: ImageRequest(
                source: .data(id: "p3", load: { data }),
                processors: [.resize(width: 50, height: 50)]))
        #expect(image.bitmap.size == PixelSize(width: 50, height: 33))
        #expect(image.bitmap.colorSpace == .icc(profile))
    }
}
#endif
