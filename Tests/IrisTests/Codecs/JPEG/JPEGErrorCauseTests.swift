#if canImport(CJPEG)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// Damaged JPEG scan data is reported with what libjpeg said and where, not as an image that
/// merely ends early: a marker breaking into the scan, garbage in it, and a scan that stops
/// (an EOI where data was due) are told apart.
@Suite("JPEG error causes")
struct JPEGErrorCauseTests {
    let registry = ImageDecoderRegistry(decoders: [JPEGDecoder()])

    /// A 320×240 photo-like JPEG by libjpeg (through Iris's encoder), and where its scan data
    /// starts and ends (before EOI).
    static func photo() throws -> (bytes: [UInt8], scan: Range<Int>) {
        let data = try JPEGEncoder().encode(SampleImages.photo(width: 320, height: 240, seed: 6), options: EncodeOptions(quality: 90))
        let bytes = [UInt8](data)
        let sos = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let start = sos + 2 + (Int(bytes[sos + 2]) << 8 | Int(bytes[sos + 3]))
        #expect(bytes.suffix(2) == [0xFF, 0xD9])
        return (bytes, start..<(bytes.count - 2))
    }

    /// The reason of the decoding failure `data` causes; records an issue for anything else.
    func failure(_ data: [UInt8]) -> String? {
        let error = thrownImageError { _ = try registry.decode(Data(data)) }
        guard case .decodingFailed(.jpeg, let reason)? = error else {
            Issue.record("expected a JPEG decoding failure, got \(String(describing: error))")
            return nil
        }
        return reason
    }

    @Test("a marker breaking into the scan data: corrupt, the marker and libjpeg's words")
    func markerInScan() throws {
        var (bytes, scan) = try Self.photo()
        let at = scan.lowerBound + scan.count / 3
        bytes.replaceSubrange(at..<(at + 2), with: [0xFF, 0xD3])  // RST3 in a file without restarts
        try KeptInputs.keep(Data(bytes), as: "jpeg-marker-in-scan.jpg")
        let reason = try #require(failure(bytes))
        #expect(reason.contains("the scan data is corrupt: marker 0xD3 interrupts it"), "\(reason)")
        #expect(reason.contains("libjpeg: \"Corrupt JPEG data"), "\(reason)")
        #expect(!reason.contains("header"), "\(reason)")
    }

    @Test("garbage over part of the scan: a decoding failure in libjpeg's words, never truncation")
    func garbageInScan() throws {
        var (bytes, scan) = try Self.photo()
        let at = scan.lowerBound + scan.count / 3
        bytes.replaceSubrange(at..<(at + 600), with: [UInt8](repeating: 0, count: 600))
        try KeptInputs.keep(Data(bytes), as: "jpeg-zeros-in-scan.jpg")
        let reason = try #require(failure(bytes))
        #expect(reason.contains("libjpeg: \"Corrupt JPEG data"), "\(reason)")
        #expect(reason.contains("corrupt"), "\(reason)")
    }

    @Test("a scan that stops (EOI where data was due): where it ran out, and that it may be corrupt or the header too large")
    func scanStops() throws {
        let (bytes, scan) = try Self.photo()
        let cut = Array(bytes[..<(scan.lowerBound + scan.count / 2)]) + [0xFF, 0xD9]
        let reason = try #require(failure(cut))
        #expect(reason.contains("the scan data runs out at row "), "\(reason)")
        #expect(reason.contains(" of 240"), "\(reason)")
        #expect(reason.contains("libjpeg: \"Corrupt JPEG data: premature end of data segment\""), "\(reason)")
    }
}
#endif
