import Foundation
import Testing
import Iris
import IrisTestSupport

// A complete codec plug-in, the example of the "Adding a codec" article (Iris.docc): "Grey", a format of its own
// ("IRGY", width and height as UInt16 big-endian, a frame count, then per frame a duration in
// milliseconds (UInt16) and one grey byte per pixel). Its decoder recognises the magic bytes,
// reads headers, decodes at the size asked for and brings its own animation source; its encoder
// writes single frames. Only public API is used, as a third party would.

extension ImageFormat {
    /// Grey: one byte per pixel, animated or not.
    static let grey = ImageFormat("grey", name: "Grey", fileExtension: "grey")
}

/// Reads Grey files.
struct GreyDecoder: ImageDecoding {
    var formats: Set<ImageFormat> { [.grey] }

    func format(of data: Data) -> ImageFormat? {
        data.prefix(4).elementsEqual("IRGY".utf8) ? .grey : nil
    }

    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        let file = try GreyFile(data)
        return ImageHeader(format: .grey, width: file.width, height: file.height, hasAlpha: false, frameCount: file.frames.count)
    }

    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        let file = try GreyFile(data)
        return file.bitmap(frame: 0, size: context.outputSize)
    }

    func animationSource(for data: Data, limits: DecodingLimits) throws(ImageError) -> (any AnimationFrameSource)? {
        let file = try GreyFile(data)
        return file.frames.count > 1 ? GreyAnimationSource(file: file) : nil
    }
}

/// Writes one-frame Grey files (the red channel of each pixel).
struct GreyEncoder: ImageEncoding {
    var format: ImageFormat { .grey }

    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(ImageError) -> Data {
        guard bitmap.width <= Int(UInt16.max), bitmap.height <= Int(UInt16.max) else {
            throw .encodingFailed(format: .grey, reason: "\(bitmap.width)×\(bitmap.height) is over 65535 a side")
        }
        var data = Data("IRGY".utf8)
        for value in [UInt16(bitmap.width), UInt16(bitmap.height)] { data.append(contentsOf: [UInt8(value >> 8), UInt8(value & 0xFF)]) }
        data.append(contentsOf: [1, 0, 100])  // one frame, shown 100 ms
        for y in 0..<bitmap.height { for x in 0..<bitmap.width { data.append(bitmap.rgba(x: x, y: y).r) } }
        return data
    }
}

/// A parsed Grey file.
struct GreyFile: Sendable {
    let width: Int
    let height: Int
    /// Each frame's duration in seconds and its grey bytes.
    let frames: [(duration: Double, pixels: [UInt8])]

    init(_ data: Data) throws(ImageError) {
        let bytes = [UInt8](data)
        guard bytes.count >= 9, bytes.prefix(4).elementsEqual("IRGY".utf8) else {
            throw .truncated(format: .grey, received: bytes.count, expected: nil)
        }
        width = Int(bytes[4]) << 8 | Int(bytes[5])
        height = Int(bytes[6]) << 8 | Int(bytes[7])
        guard width > 0, height > 0 else { throw .invalidDimensions(format: .grey, width: width, height: height) }
        var frames: [(Double, [UInt8])] = []
        var offset = 9
        for _ in 0..<Int(bytes[8]) {
            let end = offset + 2 + width * height
            guard end <= bytes.count else { throw .truncated(format: .grey, received: bytes.count, expected: end) }
            frames.append((Double(Int(bytes[offset]) << 8 | Int(bytes[offset + 1])) / 1000, Array(bytes[(offset + 2)..<end])))
            offset = end
        }
        self.frames = frames
    }

    /// Frame `index` as an opaque bitmap at `size`.
    func bitmap(frame index: Int, size: PixelSize) -> Bitmap {
        let rgba: [UInt8] = frames[index].pixels.flatMap { grey -> [UInt8] in [grey, grey, grey, 255] }
        let full = Bitmap(width: width, height: height, format: .rgba8, pixels: rgba)!
        return size == full.size ? full : Resampler().resize(full, to: size)
    }
}

/// The frames of an animated Grey file; every frame is a key frame (no composition).
struct GreyAnimationSource: AnimationFrameSource {
    let file: GreyFile
    var canvas: PixelSize { PixelSize(width: file.width, height: file.height) }
    var frameCount: Int { file.frames.count }
    var loopCount: Int { 0 }
    func duration(at index: Int) -> Double { file.frames[index].duration }
    func keyFrame(atOrBefore index: Int) -> Int { index }
    var encodedByteCount: Int { file.frames.count * (2 + file.width * file.height) }
    var maximumWorkingBytes: Int { 0 }
    func makeDecoder(frameSize: PixelSize, kernel: ResamplingKernel) throws(ImageError) -> any AnimationFrameDecoder {
        GreyFrameDecoder(file: file, frameSize: frameSize)
    }
}

/// Makes a Grey file's frames in order.
final class GreyFrameDecoder: AnimationFrameDecoder {
    let file: GreyFile
    let frameSize: PixelSize
    private(set) var nextIndex = 0
    var workingBytes: Int { 0 }

    init(file: GreyFile, frameSize: PixelSize) {
        self.file = file
        self.frameSize = frameSize
    }

    func nextFrame() throws(ImageError) -> Bitmap {
        defer { nextIndex = (nextIndex + 1) % file.frames.count }
        return file.bitmap(frame: nextIndex, size: frameSize)
    }

    func rewind(toKeyFrameAtOrBefore index: Int) { nextIndex = index }
}

// MARK: Tests

@Suite("Codec plug-in")
struct CodecPlugInTests {
    /// A Grey file of `frames` frames, each a horizontal ramp offset by its index × 40.
    static func greyFile(width: Int, height: Int, frames: Int) -> Data {
        var data = Data("IRGY".utf8)
        data.append(contentsOf: [UInt8(width >> 8), UInt8(width & 0xFF), UInt8(height >> 8), UInt8(height & 0xFF), UInt8(frames)])
        for frame in 0..<frames {
            data.append(contentsOf: [0, UInt8(50 * (frame + 1))])
            for _ in 0..<height { for x in 0..<width { data.append(UInt8((x * 255 / max(width - 1, 1) + frame * 40) % 256)) } }
        }
        return data
    }

    @Test("a registered decoder reads its own format; the standard decoders call it unknown")
    func registeredDecoder() throws {
        let file = Self.greyFile(width: 8, height: 4, frames: 1)
        #expect(throws: ImageError.unsupportedFormat(.unknown)) { try ImageDecoderRegistry.standard.decode(file) }
        var decoders = ImageDecoderRegistry.standard
        decoders.register(GreyDecoder())
        #expect(decoders.format(of: file) == .grey)
        #expect(try decoders.header(of: file) == ImageHeader(format: .grey, width: 8, height: 4, hasAlpha: false))
        let image = try decoders.decode(file)
        #expect(image.format == .grey && image.bitmap.size == PixelSize(width: 8, height: 4))
        #expect(image.bitmap.rgba(x: 7, y: 3) == RGBA(r: 255, g: 255, b: 255, a: 255))
        // The formats Iris knows still go to Iris's decoders.
        let png = try TestImages.png(image.bitmap)
        #expect(try decoders.header(of: png).format == .png)
        // Limits are checked from the plug-in's header before it decodes.
        let limited = DecodeOptions(limits: DecodingLimits(maxPixels: 16))
        #expect(throws: ImageError.overLimit(.pixels(width: 8, height: 4, limit: 16))) { try decoders.decode(file, options: limited) }
    }

    @Test("a plug-in decodes at the target size and brings its own animation")
    func animationAndTarget() async throws {
        var decoders = ImageDecoderRegistry.standard
        decoders.register(GreyDecoder())
        let file = Self.greyFile(width: 40, height: 20, frames: 3)
        let image = try decoders.decode(file, options: DecodeOptions(target: DecodeTarget(width: 20, height: 20)))
        #expect(image.bitmap.size == PixelSize(width: 20, height: 10))
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 3 && animation.frameSize == PixelSize(width: 20, height: 10))
        #expect(animation.duration(at: 2) == 0.15)
        let first = try await animation.frame(at: 0), third = try await animation.frame(at: 2)
        // The same ramp, offset by 2 × 40 (the halving's rounding may move it by one).
        #expect((79...81).contains(Int(third.rgba(x: 0, y: 0).r) - Int(first.rgba(x: 0, y: 0).r)))
    }

    @Test("a registered encoder writes its format, and the pipeline loads what it wrote")
    func registeredEncoderThroughThePipeline() async throws {
        var encoders = ImageEncoders.standard
        #expect(encoders.encoder(for: .grey) == nil)
        encoders.register(GreyEncoder())
        let source = try ImageDecoderRegistry.standard.decode(
            TestImages.png(
                try GreyFile(Self.greyFile(width: 16, height: 8, frames: 1)).bitmap(frame: 0, size: PixelSize(width: 16, height: 8))))
        let written = try #require(encoders.encoder(for: .grey)).encode(source.bitmap, options: EncodeOptions())

        var decoders = ImageDecoderRegistry.standard
        decoders.register(GreyDecoder())
        let pipeline = ImagePipeline(configuration: .init(decoders: decoders))
        let loaded = try await pipeline.image(for: ImageRequest(source: .data(id: "grey") { written }))
        #expect(loaded.format == .grey && loaded.bitmap.size == PixelSize(width: 16, height: 8))
        #expect(loaded.bitmap.rgba(x: 15, y: 0).r == 255 && loaded.bitmap.rgba(x: 0, y: 0).r == 0)
    }

    @Test("formats are open values: equal by identifier, named by the first one made with that identifier")
    func openFormats() {
        #expect(ImageFormat(rawValue: "heic") == .heic && ImageFormat(rawValue: "heic").description == "HEIC")
        #expect(ImageFormat(rawValue: "grey") == .grey && ImageFormat(rawValue: "grey").description == "Grey")
        #expect(ImageFormat(rawValue: "never-made").description == "never-made")
        #expect(ImageFormat.jpeg.fileExtension == "jpg" && ImageFormat.grey.fileExtension == "grey")
        #expect(Set([ImageFormat.grey, ImageFormat("grey", name: "Other name")]).count == 1)
    }
}
