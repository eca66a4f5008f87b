import Foundation

extension DownsampleOnDecodeTests {
    /// Constant inputs of the formats merged later (WebP, GIF); none until their codecs land.
    static func extraConstantInputs() -> [(String, Data)] { [] }
}
