/// The full-size canvas an animation's frames are composed on: premultiplied RGBA, starting
/// transparent.
///
/// ``draw(_:pixels:)`` first applies the disposal of the frame drawn before (clear its area,
/// or put back what was under it), then puts the new frame on, clipped to the canvas, with
/// its blend operation.
final class AnimationCanvas {
    let size: PixelSize
    private var pixels: [UInt8]
    /// The last frame's area on the canvas, what to do with it, and (for `.previous`) the
    /// canvas pixels it covered before it was drawn.
    private var pending: (area: Area, disposal: AnimationDisposal, saved: [UInt8])?

    /// A clipped rectangle on the canvas and the offset of its top-left within the frame.
    private struct Area {
        var x: Int, y: Int, width: Int, height: Int
        var frameX: Int, frameY: Int
    }

    init(size: PixelSize) {
        self.size = size
        pixels = [UInt8](repeating: 0, count: size.pixelCount * 4)
    }

    /// Bytes held.
    var workingBytes: Int { pixels.count + (pending?.saved.count ?? 0) }

    /// Back to transparent, nothing pending.
    func reset() {
        pixels.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
        pending = nil
    }

    /// Disposes of the previous frame, then draws `frame` from `pixels` (its own rectangle,
    /// premultiplied RGBA).
    func draw(_ frame: AnimationFrameInfo, pixels framePixels: FramePixels) {
        disposePending()
        let left = max(0, frame.x), top = max(0, frame.y)
        let right = min(size.width, frame.x + framePixels.width), bottom = min(size.height, frame.y + framePixels.height)
        // A frame wholly off the canvas covers nothing: an empty area at the origin, so that no
        // row or column of it is ever addressed.
        let area =
            right > left && bottom > top
            ? Area(x: left, y: top, width: right - left, height: bottom - top, frameX: left - frame.x, frameY: top - frame.y)
            : Area(x: 0, y: 0, width: 0, height: 0, frameX: 0, frameY: 0)
        let saved = frame.disposal == .previous ? copy(area) : []
        pending = (area, frame.disposal, saved)
        guard area.width > 0, area.height > 0 else { return }
        let canvasStride = size.width * 4, frameStride = framePixels.width * 4
        let blend = frame.blend
        framePixels.bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { canvas in
                for row in 0..<area.height {
                    var s = (area.frameY + row) * frameStride + area.frameX * 4
                    var d = (area.y + row) * canvasStride + area.x * 4
                    if blend == .source {
                        for i in 0..<(area.width * 4) { canvas[d + i] = source[s + i] }
                        continue
                    }
                    for _ in 0..<area.width {
                        let alpha = UInt32(source[s + 3])
                        if alpha == 255 {
                            canvas[d] = source[s]
                            canvas[d + 1] = source[s + 1]
                            canvas[d + 2] = source[s + 2]
                            canvas[d + 3] = 255
                        } else if alpha != 0 {
                            // Premultiplied "over": result = source + canvas × (1 − source alpha).
                            let keep = 255 - alpha
                            for c in 0..<4 {
                                let under = Self.scale(UInt32(canvas[d + c]), by: keep)
                                canvas[d + c] = UInt8(min(255, UInt32(source[s + c]) + under))
                            }
                        }
                        s += 4
                        d += 4
                    }
                }
            }
        }
    }

    /// Sends the canvas, top to bottom, into `sink`.
    func render(into sink: any RowSink) {
        let stride = size.width * 4
        pixels.withUnsafeBytes { bytes in
            for y in 0..<size.height {
                sink.append(row: UnsafeRawBufferPointer(rebasing: bytes[(y * stride)..<((y + 1) * stride)]))
            }
        }
    }

    /// `round(value × factor / 255)`.
    @inline(__always)
    private static func scale(_ value: UInt32, by factor: UInt32) -> UInt32 {
        let t = value * factor + 128
        return (t + (t >> 8)) >> 8
    }

    private func disposePending() {
        guard let (area, disposal, saved) = pending else { return }
        pending = nil
        guard area.width > 0, area.height > 0 else { return }
        let canvasStride = size.width * 4, rowBytes = area.width * 4
        pixels.withUnsafeMutableBufferPointer { canvas in
            for row in 0..<area.height {
                let d = (area.y + row) * canvasStride + area.x * 4
                switch disposal {
                case .none:
                    return
                case .background:
                    for i in 0..<rowBytes { canvas[d + i] = 0 }
                case .previous:
                    for i in 0..<rowBytes { canvas[d + i] = saved[row * rowBytes + i] }
                }
            }
        }
    }

    private func copy(_ area: Area) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(area.width * area.height * 4)
        let stride = size.width * 4
        for row in 0..<area.height {
            let start = (area.y + row) * stride + area.x * 4
            out.append(contentsOf: pixels[start..<(start + area.width * 4)])
        }
        return out
    }
}
