import FuzzDriver
import Iris

/// Videos through FFmpeg (seeds made by scripts/make-fuzz-seeds: tiny clips made by ffmpeg:
/// H.264 and HEVC in MP4 and MOV, VP9 and AV1 in WebM, a rotated one): the header, the poster at
/// a small target, and every frame. A typed error or an image, never a crash or a hang: each
/// decode stops after two seconds inside FFmpeg, well within libFuzzer's timeout.
@_cdecl("FuzzVideo_main")
func fuzzVideoMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        let data = fuzzData(bytes, count)
        let registry = ImageDecoderRegistry.standard
        guard let header = try? registry.header(of: data), ImageFormat.videoFormats.contains(header.format) else { return 0 }
        var limits = fuzzAnimationLimits
        limits.maxDecodingTime = .seconds(2)
        limits.maxVideoSeconds = 60
        _ = try? registry.decode(data, options: DecodeOptions(target: DecodeTarget(width: 24, height: 24), limits: limits))
        if header.frameCount > 1 { decodeEveryFrame(data, limits: limits) }
        return 0
    }
}
