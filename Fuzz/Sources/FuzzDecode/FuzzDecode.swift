import FuzzDriver
import Iris

/// Full-size decode of any bytes: a typed error or an image, never a crash or a hang.
@_cdecl("FuzzDecode_main")
func fuzzDecodeMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        _ = try? ImageDecoderRegistry.standard.decode(fuzzData(bytes, count), options: DecodeOptions(limits: fuzzLimits))
        return 0
    }
}
