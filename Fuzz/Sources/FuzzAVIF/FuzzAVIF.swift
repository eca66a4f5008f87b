import FuzzDriver
import Iris

/// AVIF through libavif (seeds: avifenc files, stills, alpha, irot/imir, grids, sequences):
/// header, full-size decode, a small target, and every frame of a sequence. A typed error or
/// an image, never a crash or a hang.
@_cdecl("FuzzAVIF_main")
func fuzzAVIFMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzNewFormat(fuzzData(bytes, count), format: .avif)
        return 0
    }
}
