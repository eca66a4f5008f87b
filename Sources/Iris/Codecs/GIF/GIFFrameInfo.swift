#if canImport(CGIF)
/// One image of a GIF as its descriptor and the extension before it describe it.
struct GIFFrameInfo {
    /// Where the frame sits on the canvas (not yet clipped to it).
    var left: Int, top: Int, width: Int, height: Int
    /// Rows stored in Adam-style four-pass order.
    var interlaced: Bool
    /// The palette as premultiplied RGBA, 256 entries; the transparent index is (0, 0, 0, 0).
    var palette: [UInt8]
    /// Palette index shown as transparent, from the Graphic Control Extension.
    var transparentIndex: Int?
    /// Whether the frame has a colour table (its own or the global one); without one every
    /// index is transparent.
    var hasColourTable = true
    /// Delay before the next frame, in hundredths of a second (Graphic Control Extension).
    var delay: Int = 0
    /// Disposal method: 0 unspecified, 1 keep, 2 restore to background, 3 restore to previous.
    var disposal: Int = 0

    /// Whether every pixel is opaque: a colour table and no transparent index.
    var isOpaque: Bool { hasColourTable && transparentIndex == nil }
}
#endif
