import FuzzDriver
import Iris

/// Decode at a small target, fit or fill by the first byte: the downsampling paths (JPEG DCT
/// scaling, streamed rows into the resampler, libwebp scaling, orientation).
///
/// Sources up to 0.5 MP: every row of a source goes through the resampler, whose inner loops
/// the coverage instrumentation slows tenfold, so 16 MP claims made this target crawl (about
/// 400 inputs a second). FuzzDecode takes sources up to 16 MP.
let targetLimits = DecodingLimits(maxPixels: 500_000, maxFrames: 256, maxDecodedBytes: 64 << 20)

@_cdecl("FuzzDecodeAtTarget_main")
func fuzzDecodeAtTargetMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        guard let bytes, count > 1 else { return 0 }
        let mode: ContentMode = bytes[0] & 1 == 0 ? .fit : .fill
        let side = 8 + Int(bytes[0] >> 1)
        let options = DecodeOptions(target: DecodeTarget(width: side, height: side * 3 / 4 + 1, contentMode: mode),
                                    limits: targetLimits)
        _ = try? ImageDecoderRegistry.standard.decode(fuzzData(bytes + 1, count - 1), options: options)
        return 0
    }
}
