import Foundation
import FuzzDriver
import Iris

/// Progressive previews: prefixes of a valid progressive JPEG (their lengths and a few flipped
/// bytes chosen by the input) decoded with partial data allowed, as the preview path does.
@_cdecl("FuzzProgressivePrefix_main")
func fuzzProgressivePrefixMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    _ = ProgressiveSource.jpeg          // made before the first input, so no input "leaks" it
    return runFuzzer(argc, argv) { bytes, count in
        guard let bytes, count >= 2 else { return 0 }
        let source = ProgressiveSource.jpeg
        var prefix = Data(source.prefix(Int(UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % source.count))
        var index = 2
        while index + 2 < count, !prefix.isEmpty {                   // (offset, value) pairs
            prefix[Int(bytes[index]) * prefix.count / 256] = bytes[index + 1]
            index += 2
        }
        let options = DecodeOptions(target: DecodeTarget(width: 64, height: 64), limits: fuzzLimits, allowsPartialData: true)
        _ = try? ImageDecoderRegistry.standard.decode(prefix, options: options)
        return 0
    }
}

/// A 320×240 progressive JPEG made by the platform's encoder.
///
/// Kept as `[UInt8]`, not `Data`: a `Data` in a global keeps its storage behind a pointer with
/// enum tag bits, which LeakSanitizer's exit check does not see as a pointer, so it reported
/// the JPEG as leaked.
enum ProgressiveSource {
    static let jpeg: [UInt8] = {
        var bitmap = Bitmap(width: 320, height: 240, format: .rgbx8)
        for y in 0..<240 {
            for x in 0..<320 { bitmap.setRGBA(RGBA(r: UInt8(x & 255), g: UInt8(y), b: UInt8((x ^ y) & 255)), x: x, y: y) }
        }
        let data = try? ImageEncoders.encoder(for: .jpeg)?.encode(bitmap, options: EncodeOptions(quality: 85, progressive: true))
        return [UInt8](data ?? Data())
    }()
}
