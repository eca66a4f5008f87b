/// A frame's own pixels (its rectangle, not the canvas): premultiplied RGBA, rows packed.
struct FramePixels {
    var width: Int
    var height: Int
    var bytes: [UInt8]
}
