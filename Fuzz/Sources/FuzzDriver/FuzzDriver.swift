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
