/// An animation's frames with processors applied to each one after it is composed and shrunk:
/// what the pipeline's image stage makes of an animated image.
///
/// Every processed frame must come out the size frame 0 did (a processor whose output size
/// depends on the pixels cannot animate): a frame that does not fails with
/// ``ImageError/processingFailed(processor:reason:)``, like any frame that fails to decode.
struct ProcessedAnimationSource: DerivedAnimationSource {
    let base: any AnimationFrameSource
    /// The size the base frames are made at (the decode's target).
    let baseFrameSize: PixelSize
    let processing: FrameProcessing

    /// The base decoder's state, and one unprocessed frame between the processors.
    var maximumWorkingBytes: Int { base.maximumWorkingBytes + baseFrameSize.pixelCount * 4 }

    func makeDecoder(frameSize: PixelSize, kernel: ResamplingKernel) throws(ImageError) -> any AnimationFrameDecoder {
        let processing = processing
        return MappedFrameDecoder(base: try base.makeDecoder(frameSize: baseFrameSize, kernel: kernel)) { frame, index throws(ImageError) in
            try processing.process(frame, index: index)
        }
    }
}

/// The processors of an animated image, run on one of its frames at a time: for frames made on
/// demand (``ProcessedAnimationSource``) and for frames already in memory alike.
struct FrameProcessing: Sendable {
    let processors: [any ImageProcessing]
    /// The image the frames belong to (its animation dropped): format, source size and
    /// orientation for the processors.
    let template: LoadedImage
    /// Processed frame 0's size, which every frame must have.
    let frameSize: PixelSize

    init(processors: [any ImageProcessing], image: LoadedImage, frameSize: PixelSize) {
        self.processors = processors
        var template = image
        template.animation = nil
        self.template = template
        self.frameSize = frameSize
    }

    /// Frame `index` (`frame`, unprocessed) with the processors applied.
    func process(_ frame: Bitmap, index: Int) throws(ImageError) -> Bitmap {
        var image = template
        image.bitmap = frame
        let bitmap = try LoadedImage.run(processors, on: image, checkingCancellation: false).get().bitmap
        guard bitmap.size == frameSize else {
            throw .processingFailed(
                processor: processors.map(\.identifier).joined(separator: ", "),
                reason: "frame \(index) came out \(bitmap.size.width)×\(bitmap.size.height), "
                    + "frame 0 \(frameSize.width)×\(frameSize.height): "
                    + "an animation's frames must all be one size")
        }
        return bitmap
    }
}
