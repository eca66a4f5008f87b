extension ColorManagement {
    /// `bitmap` as this policy wants it: converted to sRGB (with Little CMS, where it can be
    /// imported) for ``convertToSRGB``, as it is for ``keepSource``.
    ///
    /// On Apple platforms the ImageIO decoder already draws in the space the policy asks for,
    /// so there is nothing left to do here.
    func apply(to bitmap: Bitmap) -> Bitmap {
        guard self == .convertToSRGB, !bitmap.colorSpace.isSRGB else { return bitmap }
        #if canImport(CLCMS2)
        var converted = bitmap
        converted.convertToSRGB()
        return converted
        #else
        return bitmap
        #endif
    }
}
