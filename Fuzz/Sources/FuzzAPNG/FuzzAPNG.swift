import Foundation
import FuzzDriver
import Iris

/// The APNG demuxer (acTL, fcTL, fdAT, sequence numbers, frame rectangles) and the frame
/// streams it hands to libpng: every input is a PNG signature followed by the fuzzer's bytes,
/// so no execution is spent on other formats. Then every frame is composed, as
/// `FuzzAnimation` does.
@_cdecl("FuzzAPNG_main")
func fuzzAPNGMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        if let bytes, count > 0 { data.append(bytes, count: count) }
        decodeEveryFrame(data)
        return 0
    }
}
