#if canImport(CAVIF)
import CAVIF
import Foundation

/// The frames of an animated AVIF (an image sequence), decoded by libavif one after another.
///
/// AV1 frames are whole pictures (libavif's decoder keeps the reference frames it needs), so
/// there is no canvas to compose: each frame is converted and resampled to the frame size as
/// it comes. Durations and key frames come from the sequence's sample table.
struct AVIFAnimationSource: AnimationFrameSource {
    let data: Data
    let canvas: PixelSize
    let frameCount: Int
    /// Seconds per frame, as stored.
    let durations: [Double]
    /// For each frame, the nearest key frame at or before it.
    let keyFrames: [Int]
    /// The pixel cap libavif applies to every frame it makes (from the caller's limits).
    let maxPixels: Int

    /// libavif 0.11 does not read a repetition count: sequences loop forever, as browsers play them.
    var loopCount: Int { 0 }

    /// The source for `data` when it is an image sequence of more than one frame; `nil` for a
    /// still image. Checks the frame count and size against `limits`.
    static func source(_ data: Data, limits: DecodingLimits) throws(ImageError) -> AVIFAnimationSource? {
        let made: Result<AVIFAnimationSource?, ImageError> = data.withUnsafeBytes { bytes in
            do throws(ImageError) {
                let reader = try AVIFReader(bytes: bytes, maxPixels: limits.maxPixels)
                guard reader.frameCount > 1 else { return .success(nil) }
                try limits.check(frames: reader.frameCount)
                let canvas = reader.storedSize
                try limits.check(width: canvas.width, height: canvas.height, format: .avif)
                let durations = (0..<reader.frameCount).map { reader.duration(at: $0) }
                let keyFrames = (0..<reader.frameCount).map { min($0, reader.keyFrame(atOrBefore: $0)) }
                return .success(
                    AVIFAnimationSource(
                        data: data, canvas: canvas, frameCount: reader.frameCount,
                        durations: durations, keyFrames: keyFrames, maxPixels: limits.maxPixels))
            } catch {
                return .failure(error)
            }
        }
        return try made.get()
    }

    func duration(at index: Int) -> Double { durations.indices.contains(index) ? durations[index] : 0 }

    func keyFrame(atOrBefore index: Int) -> Int {
        keyFrames.isEmpty ? 0 : keyFrames[min(max(index, 0), keyFrames.count - 1)]
    }

    var encodedByteCount: Int { data.count }

    /// libavif's decoded planes (up to four 8-bit planes at 4:4:4) and one RGB strip.
    var maximumWorkingBytes: Int { canvas.pixelCount * 4 + canvas.width * 4 * (AVIFReader.stripRows + 2 * AVIFReader.stripMargin) }

    func makeDecoder(frameSize: PixelSize, kernel: ResamplingKernel) throws(ImageError) -> any AnimationFrameDecoder {
        try AVIFFrameDecoder(
            data: data, frameSize: frameSize, kernel: kernel, frameCount: frameCount, keyFrames: keyFrames,
            maxPixels: maxPixels)
    }
}

/// One pass through an AVIF sequence's frames: a libavif decoder over its own copy of the file.
final class AVIFFrameDecoder: AnimationFrameDecoder {
    private let bytes: UnsafeMutableRawBufferPointer
    private let reader: AVIFReader
    private let frameSize: PixelSize
    private let kernel: ResamplingKernel
    private let frameCount: Int
    private let keyFrames: [Int]
    private(set) var nextIndex = 0

    init(data: Data, frameSize: PixelSize, kernel: ResamplingKernel, frameCount: Int, keyFrames: [Int], maxPixels: Int) throws(ImageError) {
        // libavif reads from memory it does not copy, for as long as the decoder lives.
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        data.copyBytes(to: bytes)
        do {
            reader = try AVIFReader(bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<data.count]), maxPixels: maxPixels)
        } catch {
            bytes.deallocate()
            throw error
        }
        self.frameSize = frameSize
        self.kernel = kernel
        self.frameCount = frameCount
        self.keyFrames = keyFrames
    }

    deinit { bytes.deallocate() }

    /// libavif's planes for the frame size it decodes (an estimate: they live inside libavif).
    var workingBytes: Int { reader.storedSize.pixelCount * 4 }

    func nextFrame() throws(ImageError) -> Bitmap {
        let index = nextIndex
        guard index < frameCount else {
            throw .decodingFailed(format: .avif, reason: "no frame after the last (\(frameCount))")
        }
        try reader.decodeFrame(index)
        let bitmap = try reader.bitmap(output: frameSize, kernel: kernel)
        nextIndex = index + 1
        return bitmap
    }

    func rewind(toKeyFrameAtOrBefore index: Int) {
        nextIndex = keyFrames.isEmpty ? 0 : keyFrames[min(max(index, 0), keyFrames.count - 1)]
    }
}
#endif
