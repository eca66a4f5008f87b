/// What happens to a frame's area once the frame has been shown, before the next is drawn.
enum AnimationDisposal: Sendable, Hashable {
    /// Left as it is (GIF 0 and 1, APNG NONE, WebP "do not dispose").
    case none
    /// Cleared to transparent black (GIF 2, APNG BACKGROUND, WebP "dispose to background"; the
    /// background colours in the files are ignored, as browsers do).
    case background
    /// Put back as it was before the frame was drawn (GIF 3, APNG PREVIOUS).
    case previous
}

/// How a frame's pixels meet the canvas under them.
enum AnimationBlend: Sendable, Hashable {
    /// The frame's pixels, alpha included, replace the canvas's (APNG SOURCE, WebP no-blend).
    case source
    /// The frame is composited over the canvas (APNG OVER, WebP blend, GIF transparency).
    case over
}

/// One frame of an animation as its file describes it, before its pixels are decoded.
struct AnimationFrameInfo: Sendable, Hashable {
    /// Where the frame sits on the canvas; it may reach past the canvas (it is clipped).
    var x: Int, y: Int, width: Int, height: Int
    /// Seconds it is shown, as stored.
    var duration: Double
    var disposal: AnimationDisposal
    var blend: AnimationBlend
    /// Whether every pixel of the frame is known opaque without decoding it (no alpha channel,
    /// no transparent index), so that blending over replaces.
    var isOpaque: Bool

    /// Whether the frame covers every pixel of a `canvas`-sized canvas.
    func covers(_ canvas: PixelSize) -> Bool {
        x <= 0 && y <= 0 && x + width >= canvas.width && y + height >= canvas.height
    }

    /// The key frames of `frames` on `canvas`: those whose composition does not depend on the
    /// frames before them, because the canvas is blank before they are drawn (frame 0, or after
    /// a frame that covered the canvas and cleared it) or because they replace every pixel
    /// (and are not put back afterwards, which would need the canvas from before them).
    static func keyFrames(of frames: [AnimationFrameInfo], canvas: PixelSize) -> [Int] {
        var keys: [Int] = []
        var blankBefore = true
        for (index, frame) in frames.enumerated() {
            let replaces = frame.covers(canvas) && (frame.blend == .source || frame.isOpaque) && frame.disposal != .previous
            if blankBefore || replaces { keys.append(index) }
            switch frame.disposal {
            case .background: blankBefore = blankBefore || frame.covers(canvas)  // its area cleared
            case .previous: break  // the canvas goes back to what it was before the frame
            case .none: blankBefore = false
            }
        }
        return keys
    }
}
