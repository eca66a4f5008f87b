import FuzzDriver
import Iris

/// Header reading, EXIF/TIFF orientation included, and format sniffing.
@_cdecl("FuzzHeader_main")
func fuzzHeaderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        let data = fuzzData(bytes, count)
        _ = ImageFormat(sniffing: data)
        if let header = try? ImageDecoderRegistry.standard.header(of: data) {
            precondition(header.width > 0 && header.height > 0, "a header with no area: \(header)")
            _ = header.orientedSize
        }
        return 0
    }
}
