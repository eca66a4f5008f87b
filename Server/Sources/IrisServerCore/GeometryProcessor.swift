import Iris

/// Applies a request's ``Geometry`` on the pipeline, in two steps around the effects: `resize`
/// (crop of the source, scale, the fill's crop by gravity, smart crop included) and `canvas`
/// (extend and padding). The geometry is computed from the image's source size, so an image
/// decoded smaller than its source (shrink-on-load) gets the same result.
package struct GeometryProcessor: ImageProcessing, Hashable {
    /// Which part of the geometry this step applies.
    package enum Step: String, Sendable, Hashable {
        /// Crop of the source, scaling, and the fill's crop.
        case resize
        /// Extension to the box and padding.
        case canvas
    }

    /// The request's options.
    package var options: ProcessingOptions
    /// This step.
    package var step: Step

    /// Makes one step of the geometry of `options`.
    package init(options: ProcessingOptions, step: Step) {
        self.options = options
        self.step = step
    }

    /// What the memory cache key records: the step and every option that shapes it.
    package var identifier: String {
        let o = options
        return "iris-server.geometry.\(step)(\(o.resizingType.rawValue),\(o.width)x\(o.height),min \(o.minWidth)x\(o.minHeight),"
            + "zoom \(o.zoomX)x\(o.zoomY),dpr \(o.dpr),enlarge \(o.enlarge),extend \(o.extend) \(o.extendGravity),"
            + "exar \(o.extendAspectRatio) \(o.extendAspectRatioGravity),mrd \(o.limits.resultDimension ?? 0),"
            + "gravity \(o.gravity),crop \(String(describing: o.crop)),padding \(o.padding),rotate \(o.rotate),"
            + "bg \(o.background?.hex ?? "none"),orient \(o.autoRotate))"
    }

    /// The geometry for `image`: its source size as the bitmap shows it (turned by `rotate`, and
    /// not turned upright when `auto_rotate` is off).
    package func geometry(for image: LoadedImage) -> Geometry {
        var source = image.sourceSize
        if !options.autoRotate && image.orientation.swapsDimensions { source = source.transposed }
        if options.rotate == 90 || options.rotate == 270 { source = source.transposed }
        return Geometry(source: source, options: options)
    }

    /// Returns the processed image (an animation: every frame).
    package func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
        let geometry = geometry(for: image)
        var image = image
        switch step {
        case .resize:
            if let crop = geometry.sourceCrop {
                // The bitmap may be smaller than the source: scale the rectangle to it.
                let source = geometry.sourceScale(for: image)
                let rect = PixelRect(
                    x: Int((Double(crop.x) * source.x).rounded(.down)),
                    y: Int((Double(crop.y) * source.y).rounded(.down)),
                    width: max(1, Int((Double(crop.width) * source.x).rounded())),
                    height: max(1, Int((Double(crop.height) * source.y).rounded())))
                image = try ImageProcessors.Crop(rect: rect).process(image)
            }
            if image.bitmap.size != geometry.scaledSize {
                image.bitmap = Resampler().resize(image.bitmap, to: geometry.scaledSize)
            }
            if geometry.cropSize != geometry.scaledSize {
                if case .smart = geometry.cropGravity {
                    image = try ImageProcessors.SmartCrop(size: geometry.cropSize).process(image)
                } else {
                    image = try ImageProcessors.Crop(rect: geometry.cropRect).process(image)
                }
            }
        case .canvas:
            let fill = options.background.map { RGBA(r: $0.red, g: $0.green, b: $0.blue) } ?? RGBA(r: 0, g: 0, b: 0, a: 0)
            if let extend = geometry.extendTo {
                image = try ImageProcessors.Canvas(size: extend.size, x: extend.x, y: extend.y, background: fill).process(image)
            }
            let padding = geometry.padding
            if !padding.isEmpty {
                image = try ImageProcessors.Canvas.padding(
                    top: padding.top, right: padding.right, bottom: padding.bottom,
                    left: padding.left, around: image.bitmap.size, background: fill
                )
                .process(image)
            }
        }
        return image
    }
}

extension Geometry {
    /// Bitmap pixels per source pixel, per axis (below 1 when the decoder shrank the image).
    func sourceScale(for image: LoadedImage) -> (x: Double, y: Double) {
        guard sourceCrop != nil else { return (1, 1) }
        var source = image.sourceSize
        if image.bitmap.width != source.width && image.bitmap.width == source.height { source = source.transposed }
        return (
            Double(image.bitmap.width) / Double(max(1, source.width)),
            Double(image.bitmap.height) / Double(max(1, source.height))
        )
    }
}
