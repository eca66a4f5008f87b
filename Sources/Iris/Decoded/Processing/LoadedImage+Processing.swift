extension LoadedImage {
    /// The image with `processors` applied in order, checking for cancellation between them.
    ///
    /// An animated image keeps its animation: the processors run on the still (frame 0) now and
    /// on every other frame as the animation makes it (see ``Animation/applying(_:to:first:)``),
    /// so a blurred or cropped GIF plays blurred or cropped.
    func applying(_ processors: [any ImageProcessing]) -> Result<LoadedImage, ImageError> {
        guard !processors.isEmpty else { return .success(self) }
        let result = Self.run(processors, on: self, checkingCancellation: true)
        guard case .success(var processed) = result, let animation else { return result }
        processed.animation = animation.applying(processors, to: self, first: processed.bitmap)
        return .success(processed)
    }

    /// `processors` run in order on `image`, stopping at the first error.
    static func run(
        _ processors: [any ImageProcessing], on image: LoadedImage,
        checkingCancellation: Bool
    ) -> Result<LoadedImage, ImageError> {
        var image = image
        for processor in processors {
            if checkingCancellation, Task.isCancelled { return .failure(.cancelled) }
            do {
                // Processors keep the meaning of the numbers: their output, untagged, keeps
                // the input's colour space.
                let input = image.bitmap
                image = try processor.process(image)
                image.bitmap = image.bitmap.keepingColorSpace(of: input)
            } catch {
                return .failure(error)
            }
        }
        // What a processor made is shown as it is: rows Core Animation draws in place, aligned
        // here (once, in the process queue) rather than copied on the main thread at commit.
        if !processors.isEmpty { image.bitmap = image.bitmap.alignedForDisplay() }
        return .success(image)
    }
}
