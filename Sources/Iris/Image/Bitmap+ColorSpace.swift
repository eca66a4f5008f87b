extension Bitmap {
    /// The colour space of the pixel values: sRGB unless the bitmap was tagged otherwise (a
    /// decoder tags what the file says when ``ColorManagement/keepSource`` is asked for, or on
    /// Apple platforms by default). Encoders embed an ``ColorSpace/icc(_:)`` space's profile.
    ///
    /// Setting it changes only the label, not the numbers: to convert, decode with
    /// ``ColorManagement/convertToSRGB``.
    public var colorSpace: ColorSpace {
        get { taggedColorSpace ?? .sRGB }
        set { taggedColorSpace = newValue }
    }

    /// The bitmap with `other`'s colour-space tag, when it has none of its own: what an
    /// operation that keeps the meaning of the numbers (orientation, crop, resize, blur, a
    /// change of byte order) passes on. A colour space does not pass between grey and colour
    /// layouts (an RGB profile says nothing of grey levels).
    func keepingColorSpace(of other: Bitmap) -> Bitmap {
        guard taggedColorSpace == nil, other.taggedColorSpace != nil,
            (format == .gray8) == (other.format == .gray8)
        else { return self }
        var copy = self
        copy.taggedColorSpace = other.taggedColorSpace
        return copy
    }
}
