import Foundation
import Iris

/// What the AVIF, HEIF and JPEG XL targets do with one input in `format`: the header, a
/// full-size decode and a decode at a small target (where the decoders take their reduced
/// paths: a stored HEIF thumbnail, JPEG XL's DC), each within ``fuzzLimits``; an animated
/// AVIF's frames are composed by ``decodeEveryFrame(_:)``. Inputs a mutation turned into
/// another format are skipped (the other targets fuzz those). Errors are typed and ignored.
public func fuzzNewFormat(_ data: Data, format: ImageFormat) {
    let registry = ImageDecoderRegistry.standard
    guard let header = try? registry.header(of: data), header.format == format else { return }
    _ = try? registry.decode(data, options: DecodeOptions(limits: fuzzLimits))
    if header.frameCount > 1 {
        decodeEveryFrame(data)
    } else {
        _ = try? registry.decode(data, options: DecodeOptions(target: DecodeTarget(width: 24, height: 24), limits: fuzzLimits))
    }
}
