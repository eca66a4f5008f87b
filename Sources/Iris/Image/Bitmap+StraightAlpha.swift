extension Bitmap {
    /// The bitmap with premultiplied colour: itself when it is already (or has no alpha), else
    /// a copy with each colour multiplied by its alpha. What to call before drawing, resampling
    /// or compositing a bitmap that ``isPremultiplied`` says is straight.
    public func premultiplied() -> Bitmap {
        guard format.hasAlpha, !isPremultiplied else { return self }
        var out = self
        out.isPremultiplied = true
        let (width, height, stride) = (width, height, bytesPerRow)
        out.withUnsafeMutableBytes { bytes in
            for y in 0..<height {
                PixelConversion.premultiplyRGBA(
                    UnsafeMutableRawBufferPointer(rebasing: bytes[(y * stride)..<(y * stride + width * 4)]),
                    pixelCount: width)
            }
        }
        return out
    }

    /// The same pixels marked as straight alpha (for a decoder that wrote straight colour).
    func markedStraight() -> Bitmap {
        var out = self
        out.isPremultiplied = !format.hasAlpha
        return out
    }
}
