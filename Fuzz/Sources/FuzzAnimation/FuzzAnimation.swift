import FuzzDriver
import Iris

/// The animation frame sources (GIF, APNG, animated WebP): decode at a small target, then
/// compose every frame and rewind. A typed error or frames of the promised size, never a crash
/// or a hang.
@_cdecl("FuzzAnimation_main")
func fuzzAnimationMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        decodeEveryFrame(fuzzData(bytes, count))
        return 0
    }
}
