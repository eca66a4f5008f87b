#if canImport(CGIF)
import Foundation

/// The frames of an animated GIF for an ``Animation``: a walk over the records finds each
/// frame's placement, timing, disposal and where its records start; a frame's pixels are then
/// decoded by giflib from there, on demand.
///
/// As browsers play GIFs: the canvas starts transparent (what the first frame leaves uncovered
/// stays transparent), "restore to background" clears to transparent (the background colour is
/// ignored), "restore to previous" puts back what the frame covered, the transparent index
/// lets the canvas show through, frames reaching past the logical screen are clipped, and the
/// Netscape loop count `n` plays the animation `n + 1` times (none: once; 0: forever).
struct GIFFrameReader: AnimationFramePixelReader {
    let data: Data
    /// Input offset where each frame's records (extensions, then the image descriptor) begin.
    let recordOffsets: [Int]

    var encodedByteCount: Int { data.count }

    /// Walks `data`. Frames after the first that are cut short or broken end the animation
    /// (the complete ones play); a first frame that is throws.
    static func source(_ data: Data, limits: DecodingLimits) throws(ImageError) -> ComposedAnimationSource {
        try GIFReader.withReader(data) { reader throws(ImageError) in
            let canvas = reader.canvas
            guard canvas.width > 0, canvas.height > 0 else {
                throw .invalidDimensions(format: .gif, width: canvas.width, height: canvas.height)
            }
            var frames: [AnimationFrameInfo] = []
            var offsets: [Int] = []
            while true {
                let start = reader.offset
                let frame: GIFFrameInfo
                do throws(ImageError) {
                    guard let next = try reader.nextFrame() else { break }
                    try limits.check(width: next.width, height: next.height, format: .gif)
                    try reader.skipPixels()
                    frame = next
                } catch {
                    if frames.isEmpty { throw error }
                    if case .overLimit = error { throw error }
                    break
                }
                frames.append(
                    AnimationFrameInfo(
                        x: frame.left, y: frame.top, width: frame.width, height: frame.height,
                        duration: Double(frame.delay) / 100, disposal: disposal(frame.disposal), blend: .over,
                        isOpaque: frame.isOpaque))
                offsets.append(start)
                try limits.check(frames: frames.count)
            }
            guard !frames.isEmpty else { throw .decodingFailed(format: .gif, reason: "the file holds no image") }
            let loops = reader.loopCount.map { $0 == 0 ? 0 : $0 + 1 } ?? 1
            return ComposedAnimationSource(
                canvas: canvas, frames: frames, loopCount: loops,
                reader: GIFFrameReader(data: data, recordOffsets: offsets))
        }
    }

    private static func disposal(_ method: Int) -> AnimationDisposal {
        switch method {
        case 2: .background
        case 3: .previous
        default: .none  // 0 (unspecified), 1 (keep) and the undefined 4–7
        }
    }

    func pixels(ofFrame index: Int) throws(ImageError) -> FramePixels {
        try GIFReader.withReader(data) { reader throws(ImageError) in
            reader.seek(to: recordOffsets[index])
            guard let frame = try reader.nextFrame() else {
                throw .truncated(format: .gif, received: data.count, expected: nil)
            }
            let width = frame.width
            var pixels = FramePixels(
                width: width, height: frame.height,
                bytes: [UInt8](repeating: 0, count: width * frame.height * 4))
            var indices = [UInt8](repeating: 0, count: width)
            let rows = GIFFrameReader.storedRowOrder(height: frame.height, interlaced: frame.interlaced)
            for y in rows {
                try indices.withUnsafeMutableBufferPointer { buffer throws(ImageError) in try reader.readLine(into: buffer) }
                frame.palette.withUnsafeBytes { palette in
                    let colours = palette.bindMemory(to: UInt32.self)
                    pixels.bytes.withUnsafeMutableBytes { bytes in
                        let row = bytes.bindMemory(to: UInt32.self)
                        for x in 0..<width { row[y * width + x] = colours[Int(indices[x])] }
                    }
                }
            }
            return pixels
        }
    }

    /// The rows of a frame in the order they are stored: top to bottom, or GIF's four
    /// interlace passes (every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd
    /// from 1).
    static func storedRowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { Array(stride(from: $0.0, to: height, by: $0.1)) }
    }
}
#endif
