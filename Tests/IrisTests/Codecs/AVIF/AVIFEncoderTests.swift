#if os(Linux)
import Foundation
import Testing
@testable import Iris

/// Iris's AVIF encoder (libavif), checked by avifdec: lossless keeps every opaque level exactly;
/// lossy at quality 90 stays close; alpha survives; Iris reads back what avifdec reads.
@Suite("AVIF encoding (libavif)")
struct AVIFEncoderTests {
    @Test(
        "avifdec decodes what Iris encodes", .enabled(if: CodecTools.available("avifdec"), CodecTools.missing("avifdec")),
        arguments: [(false, true), (false, false), (true, true), (true, false)])
    func roundTrip(alpha: Bool, lossless: Bool) async throws {
        let directory = try CodecTools.directory("avif-encode")
        let picture = CodecTools.picture(width: 67, height: 45, alpha: alpha)
        let encoder = try #require(ImageEncoders.encoder(for: .avif))
        let avif = directory.appendingPathComponent("iris.avif"), reference = directory.appendingPathComponent("avifdec.png")
        try encoder.encode(picture, options: EncodeOptions(quality: 90, lossless: lossless)).write(to: avif)
        try await CodecTools.run("avifdec", [avif.path, reference.path])

        let theirs = try CodecTools.decode(reference).bitmap
        #expect(theirs.size == picture.size && theirs.format.hasAlpha == alpha)
        let worst = CodecTools.maxDifference(theirs, picture)
        if lossless && !alpha {
            #expect(worst.difference == 0, "lossless differs by \(worst.difference)")
        } else if lossless {
            // Straight alpha in the file: un-premultiplying and premultiplying again rounds.
            #expect(worst.difference <= 2, "lossless with alpha differs by \(worst.difference)")
        } else {
            #expect(CodecTools.meanDifference(theirs, picture) <= 3, "quality 90 differs too much on average")
        }
        // Iris's decoder agrees with avifdec on the same file.
        try CodecTools.expectMatches(avif, reference, tolerance: 2)
    }
}
#endif
