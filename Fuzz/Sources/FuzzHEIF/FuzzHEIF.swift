import FuzzDriver
import Iris

/// HEIF/HEIC through libheif (seeds: heif-enc files, with alpha, thumbnails, odd sizes):
/// header, full-size decode and a small target. A typed error or an image, never a crash or a
/// hang.
@_cdecl("FuzzHEIF_main")
func fuzzHEIFMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzNewFormat(fuzzData(bytes, count), format: .heic)
        return 0
    }
}
