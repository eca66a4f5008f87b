#if canImport(CJPEG) && canImport(CGIF)
import Foundation
import Testing
@testable import Iris

/// Every bad input gives the right ``ImageError``: never a crash, a hang or a wrong image.
///
/// Set `IRIS_KEEP_CORPUS=DIR` to write the corpus to `DIR` (for fuzzing or sanitizer runs of
/// other tools).
@Suite("Bad input", .serialized)
struct BadInputTests {
    static let corpus = (try? BadInputCorpus.make()) ?? []

    @Test("the corpus is made and, when asked, kept on disk")
    func corpusIsMade() throws {
        #expect(Self.corpus.count > 60)
        for input in Self.corpus { try KeptInputs.keep(input.data, as: input.name + ".bin", in: KeptInputs.corpusVariable) }
    }

    @Test("each bad input gives its error, at full size and at a thumbnail target", arguments: corpus)
    func decode(input: BadInput) {
        for target in [nil, DecodeTarget(width: 64, height: 64)] {
            let outcome = Result { () throws(ImageError) -> LoadedImage in
                try ImageDecoderRegistry.standard.decode(input.data, options: DecodeOptions(target: target))
            }
            switch (input.expected, outcome) {
            case (.error(let expected), .failure(let error)):
                #expect(error == expected, "\(input.name): \(error)")
            case (.truncated(let format), .failure(let error)):
                guard case let .truncated(actualFormat, received, expected) = error else {
                    Issue.record("\(input.name): expected truncated \(format), got \(error)")
                    continue
                }
                #expect(actualFormat == format)
                #expect(received == input.data.count)
                if let expected { #expect(expected > received) }
            case (.decodingFailed(let format), .failure(let error)):
                guard case .decodingFailed(format, let reason) = error else {
                    Issue.record("\(input.name): expected \(format) decoding to fail, got \(error)")
                    continue
                }
                #expect(!reason.isEmpty)
            case (.anyError, .failure(let error)):
                #expect(!error.description.isEmpty)
            case (.anyError, .success):
                break  // a flip in a byte the decoder ignores still decodes
            case (.decodes(let size), .success(let image)):
                if target == nil { #expect(image.bitmap.size == size, "\(input.name)") }
            case (_, .failure(let error)):
                Issue.record("\(input.name): unexpected \(error)")
            case (_, .success(let image)):
                Issue.record("\(input.name): decoded \(image.bitmap.size) but should have failed")
            }
        }
    }

    @Test("the error messages a person reads")
    func messages() {
        #expect(
            ImageError.overLimit(.pixels(width: 60_000, height: 60_000, limit: 256_000_000)).description
                == "image is 60000×60000 (3.6 GP), over the 256 MP limit")
        #expect(
            ImageError.truncated(format: .png, received: 4096, expected: 91_233).description
                == "PNG is truncated after 4,096 of 91,233 bytes")
        #expect(ImageError.unsupportedFormat(.html).description == "HTML images are not supported")
    }

    @Test("a decoded-bytes limit stops a decode before it allocates")
    func decodedBytesLimit() throws {
        let input = try #require(Self.corpus.first { $0.name == "png-1x100000" })
        let limits = DecodingLimits(maxDecodedBytes: 100_000)
        #expect(throws: ImageError.overLimit(.decodedBytes(bytes: 400_000, limit: 100_000))) {
            try ImageDecoderRegistry.standard.decode(input.data, options: DecodeOptions(limits: limits))
        }
        // Shrunk while decoding, the same image fits.
        let small = try ImageDecoderRegistry.standard.decode(
            input.data, options: DecodeOptions(target: DecodeTarget(width: 10, height: 1000), limits: limits))
        #expect(small.bitmap.size == PixelSize(width: 1, height: 1000))
    }
}
#endif
