#if !canImport(CJPEG) && canImport(ImageIO)
import CoreGraphics
import Foundation
import ImageIO

/// The frames of an animated GIF, APNG or WebP on Apple platforms, as ImageIO composes them.
///
/// ImageIO applies each format's disposal and blending itself and gives any frame composed on
/// the full canvas, so every frame is a key frame here; each is then drawn into the frame size.
/// Delays are the unclamped ones the file states (the player applies the browsers' 10 ms rule);
/// a GIF's Netscape loop count `n` plays `n + 1` times (0: forever), as on other platforms.
struct ImageIOAnimationSource: AnimationFrameSource {
    let data: Data
    let format: ImageFormat
    let canvas: PixelSize
    let loopCount: Int
    private let durations: [Double]

    var frameCount: Int { durations.count }
    var encodedByteCount: Int { data.count }
    /// One composed canvas, made by ImageIO for the frame being drawn.
    var maximumWorkingBytes: Int { canvas.pixelCount * 4 }

    func duration(at index: Int) -> Double { durations[index] }
    func keyFrame(atOrBefore index: Int) -> Int { index }

    func makeDecoder(frameSize: PixelSize, kernel: ResamplingKernel) throws(ImageError) -> any AnimationFrameDecoder {
        try ImageIOFrameDecoder(source: self, frameSize: frameSize)
    }

    /// The animation in `data`, or `nil` when ImageIO sees one frame or none. Over `limits`
    /// (frames, canvas size) throws.
    static func source(_ data: Data, format: ImageFormat, limits: DecodingLimits) throws(ImageError) -> ImageIOAnimationSource? {
        guard let keys = Keys(format), let image = CGImageSourceCreateWithData(data as CFData, nil) else { return nil }
        let count = CGImageSourceGetCount(image)
        guard count > 1 else { return nil }
        try limits.check(frames: count)
        let container = (CGImageSourceCopyProperties(image, nil) as? [CFString: Any])?[keys.dictionary] as? [CFString: Any] ?? [:]
        let first = CGImageSourceCopyPropertiesAtIndex(image, 0, nil) as? [CFString: Any] ?? [:]
        let firstFormat = first[keys.dictionary] as? [CFString: Any] ?? [:]
        let width =
            container[keys.canvasWidth] as? Int ?? firstFormat[keys.canvasWidth] as? Int ?? first[kCGImagePropertyPixelWidth] as? Int ?? 0
        let height =
            container[keys.canvasHeight] as? Int ?? firstFormat[keys.canvasHeight] as? Int ?? first[kCGImagePropertyPixelHeight] as? Int
            ?? 0
        try limits.check(width: width, height: height, format: format)
        let durations = (0..<count).map { index -> Double in
            let properties = CGImageSourceCopyPropertiesAtIndex(image, index, nil) as? [CFString: Any]
            let frame = properties?[keys.dictionary] as? [CFString: Any] ?? [:]
            return (frame[keys.unclampedDelay] as? Double) ?? (frame[keys.delay] as? Double) ?? 0
        }
        let stated = container[keys.loopCount] as? Int ?? firstFormat[keys.loopCount] as? Int
        let loopCount: Int
        if format == .gif {
            loopCount = stated.map { $0 == 0 ? 0 : $0 + 1 } ?? 1
        } else {
            loopCount = stated ?? 0
        }
        return ImageIOAnimationSource(
            data: data, format: format, canvas: PixelSize(width: width, height: height),
            loopCount: loopCount, durations: durations)
    }

    /// The property keys of one format's ImageIO dictionary.
    private struct Keys {
        let dictionary, loopCount, delay, unclampedDelay, canvasWidth, canvasHeight: CFString

        init?(_ format: ImageFormat) {
            switch format {
            case .gif:
                (dictionary, loopCount, delay, unclampedDelay, canvasWidth, canvasHeight) = (
                    kCGImagePropertyGIFDictionary, kCGImagePropertyGIFLoopCount, kCGImagePropertyGIFDelayTime,
                    kCGImagePropertyGIFUnclampedDelayTime, kCGImagePropertyGIFCanvasPixelWidth, kCGImagePropertyGIFCanvasPixelHeight
                )
            case .png:
                (dictionary, loopCount, delay, unclampedDelay, canvasWidth, canvasHeight) = (
                    kCGImagePropertyPNGDictionary, kCGImagePropertyAPNGLoopCount, kCGImagePropertyAPNGDelayTime,
                    kCGImagePropertyAPNGUnclampedDelayTime, kCGImagePropertyAPNGCanvasPixelWidth, kCGImagePropertyAPNGCanvasPixelHeight
                )
            case .webp:
                (dictionary, loopCount, delay, unclampedDelay, canvasWidth, canvasHeight) = (
                    kCGImagePropertyWebPDictionary, kCGImagePropertyWebPLoopCount, kCGImagePropertyWebPDelayTime,
                    kCGImagePropertyWebPUnclampedDelayTime, kCGImagePropertyWebPCanvasPixelWidth, kCGImagePropertyWebPCanvasPixelHeight
                )
            default:
                return nil
            }
        }
    }
}

/// Asks ImageIO for each composed frame in turn and draws it at the frame size.
final class ImageIOFrameDecoder: AnimationFrameDecoder {
    private let source: ImageIOAnimationSource
    private let image: CGImageSource
    private let frameSize: PixelSize
    private(set) var nextIndex = 0

    init(source: ImageIOAnimationSource, frameSize: PixelSize) throws(ImageError) {
        guard let image = CGImageSourceCreateWithData(source.data as CFData, nil) else {
            throw .decodingFailed(format: source.format, reason: "ImageIO could not open the data")
        }
        self.source = source
        self.image = image
        self.frameSize = frameSize
    }

    var workingBytes: Int { 0 }

    func nextFrame() throws(ImageError) -> Bitmap {
        let index = nextIndex
        let options = [kCGImageSourceShouldCache: false] as CFDictionary
        guard let frame = CGImageSourceCreateImageAtIndex(image, index, options) else {
            throw .decodingFailed(format: source.format, reason: "ImageIO could not decode frame \(index)")
        }
        // Rows aligned as Core Animation draws them in place: drawing into them costs the same,
        // while an unaligned frame would be copied on the main thread at every commit.
        guard
            let bitmap = Bitmap.drawing(
                frame, width: frameSize.width, height: frameSize.height, opaque: false,
                rowAlignment: Bitmap.displayRowAlignment)
        else {
            throw .decodingFailed(format: source.format, reason: "could not create a bitmap context")
        }
        nextIndex += 1
        return bitmap
    }

    func rewind(toKeyFrameAtOrBefore index: Int) { nextIndex = index }
}
#endif
