extension Animation {
    /// This animation with `processors` applied to every frame: frame 0 is `first` (the still
    /// `image`, already processed), the others are processed as they are made, into a buffer
    /// of as many frames as this one's. Frames in memory are processed now; one that fails
    /// leaves the animation out (the still is still shown).
    func applying(_ processors: [any ImageProcessing], to image: LoadedImage, first: Bitmap) -> Animation? {
        let frameProcessing = FrameProcessing(processors: processors, image: image, frameSize: first.size)
        switch storage {
        case let .frames(frames, durations):
            var processed = [first]
            for (index, frame) in frames.enumerated().dropFirst() {
                guard let result = try? frameProcessing.process(frame, index: index) else { return nil }
                processed.append(result)
            }
            return Animation(frames: processed, durations: durations, loopCount: loopCount)
        case let .lazy(buffer):
            let source = ProcessedAnimationSource(base: buffer.source, baseFrameSize: frameSize, processing: frameProcessing)
            return Animation(
                source: source, frameSize: first.size, kernel: buffer.kernel,
                bufferBytes: buffer.capacity * first.size.pixelCount * 4, first: first)
        }
    }
}
