import FuzzDriver
import Iris

/// JPEG XL through libjxl (seeds: cjxl files, lossy and lossless, with alpha): header,
/// full-size decode and a small target (the DC path). A typed error or an image, never a crash
/// or a hang.
@_cdecl("FuzzJXL_main")
func fuzzJXLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzNewFormat(fuzzData(bytes, count), format: .jpegXL)
        return 0
    }
}
