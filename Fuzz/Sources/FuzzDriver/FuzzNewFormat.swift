import Foundation
import Iris

/// What the AVIF, HEIF and JPEG XL targets do with one input: the header, a full-size decode
/// and a decode at a small target (where the decoders take their reduced paths: a stored HEIF
/// thumbnail, JPEG XL's DC), each within ``fuzzLimits``; an animation's frames are composed
/// by ``decodeEveryFrame(_:)``. Errors are typed and ignored.
public func fuzzNewFormat(_ data: Data) {
    let registry = ImageDecoderRegistry.standard
    guard (try? registry.header(of: data)) != nil else { return }
    _ = try? registry.decode(data, options: DecodeOptions(limits: fuzzLimits))
    decodeEveryFrame(data)
}
