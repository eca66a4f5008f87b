import Dispatch
import Foundation
import Iris

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// Runs libFuzzer with the process's arguments, calling `callback` with each input.
///
/// SwiftPM links an executable target's entry point as `<Target>_main`; each fuzz target defines
/// that symbol and calls this, so libFuzzer's own options (`-max_total_time`, corpus folders,
/// files to replay) work as usual.
public func runFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                      _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, callback)
}

/// Limits that keep a fuzzed decode within libFuzzer's memory budget: 16 MP, 64 MiB of output,
/// 256 frames. Over them is a typed error like any other.
public let fuzzLimits = DecodingLimits(maxPixels: 16_000_000, maxFrames: 256, maxDecodedBytes: 64 << 20)

/// The input as `Data` (copied: the decoders may keep it).
public func fuzzData(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
    guard let bytes, count > 0 else { return Data() }
    return Data(bytes: bytes, count: count)
}

import Foundation

/// Limits for targets that compose every frame of an animation: small canvases and few frames,
/// so one input stays well inside libFuzzer's per-input timeout.
public let fuzzAnimationLimits = DecodingLimits(maxPixels: 1_000_000, maxFrames: 64, maxDecodedBytes: 16 << 20)

/// Decodes `data` at a small target and, when it is an animation, composes every frame in
/// order and then frame 0 again (a rewind to a key frame). Errors are typed and ignored.
public func decodeEveryFrame(_ data: Data, limits: DecodingLimits = fuzzAnimationLimits) {
    let options = DecodeOptions(target: DecodeTarget(width: 24, height: 24), limits: limits)
    guard let image = try? ImageDecoderRegistry.standard.decode(data, options: options),
          let animation = image.animation else { return }
    precondition(animation.frameSize == image.bitmap.size, "frame size \(animation.frameSize) is not frame 0's \(image.bitmap.size)")
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        for index in 0..<animation.frameCount {
            guard let frame = try? await animation.frame(at: index) else { continue }
            precondition(frame.size == animation.frameSize, "frame \(index) is \(frame.size), not \(animation.frameSize)")
        }
        if animation.frameCount > 1 { _ = try? await animation.frame(at: 0) }
        done.signal()
    }
    done.wait()
}
