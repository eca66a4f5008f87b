extension ImageProcessors {
    /// Crops to a size around the most interesting part of the image: where there are edges,
    /// saturated colour and skin tones (an attention score, as libvips' `attention` strategy
    /// scores them), found on a small copy of the image.
    public struct SmartCrop: ImageProcessing, Hashable {
        /// The size of the result, in pixels (clipped to the image).
        public var size: PixelSize

        /// Makes a smart-crop processor.
        public init(size: PixelSize) { self.size = size }

        /// What the memory cache key records of this processor.
        public var identifier: String { "iris.smartCrop(\(size))" }

        /// Returns the processed image. The rectangle depends on the pixels, so each frame of an
        /// animation may be cut at another place (its size never changes).
        public func process(_ image: LoadedImage) throws(ImageError) -> LoadedImage {
            guard size.width > 0, size.height > 0 else {
                throw .processingFailed(processor: identifier, reason: "target size \(size) is empty")
            }
            let rect = Self.attentionRect(in: image.bitmap, size: size)
            if rect.width == image.bitmap.width && rect.height == image.bitmap.height { return image }
            return image.replacingBitmap(image.bitmap.cropped(to: rect))
        }

        /// The `size` rectangle of `bitmap` (clipped to it) with the highest attention score.
        public static func attentionRect(in bitmap: Bitmap, size: PixelSize) -> PixelRect {
            let width = min(size.width, bitmap.width), height = min(size.height, bitmap.height)
            guard width < bitmap.width || height < bitmap.height else {
                return PixelRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height)
            }
            // Score a copy at most 96 pixels on its long side: features, not detail, decide.
            let scale = min(1, 96 / Double(max(bitmap.width, bitmap.height)))
            let small = PixelSize(
                width: max(1, Int((Double(bitmap.width) * scale).rounded())),
                height: max(1, Int((Double(bitmap.height) * scale).rounded())))
            var copy = bitmap.isPremultiplied ? bitmap : bitmap.premultiplied()
            if copy.format == .gray8 { copy = copy.converted(to: .preferred(hasAlpha: false)) }
            let reduced = small == copy.size ? copy : Resampler(kernel: .bilinear).resize(copy, to: small)
            let scores = attentionScores(reduced)
            // A summed-area table, then every window position of the scaled size.
            let (sw, sh) = (small.width, small.height)
            var table = [Double](repeating: 0, count: (sw + 1) * (sh + 1))
            for y in 0..<sh {
                var row = 0.0
                for x in 0..<sw {
                    row += scores[y * sw + x]
                    table[(y + 1) * (sw + 1) + x + 1] = table[y * (sw + 1) + x + 1] + row
                }
            }
            let ratioX = Double(sw) / Double(bitmap.width), ratioY = Double(sh) / Double(bitmap.height)
            let windowW = min(sw, max(1, Int((Double(width) * ratioX).rounded())))
            let windowH = min(sh, max(1, Int((Double(height) * ratioY).rounded())))
            var best = -1.0, bestX = 0, bestY = 0
            // Ties go to the window nearest the centre: a flat image is cut in the middle.
            let centreX = Double(sw - windowW) / 2, centreY = Double(sh - windowH) / 2
            var bestDistance = Double.infinity
            for y in 0...(sh - windowH) {
                for x in 0...(sw - windowW) {
                    let sum =
                        table[(y + windowH) * (sw + 1) + x + windowW] - table[y * (sw + 1) + x + windowW]
                        - table[(y + windowH) * (sw + 1) + x] + table[y * (sw + 1) + x]
                    let distance = (Double(x) - centreX) * (Double(x) - centreX) + (Double(y) - centreY) * (Double(y) - centreY)
                    if sum > best + 1e-9 || (abs(sum - best) <= 1e-9 && distance < bestDistance) {
                        best = sum
                        bestX = x
                        bestY = y
                        bestDistance = distance
                    }
                }
            }
            let x = min(bitmap.width - width, max(0, Int((Double(bestX) / ratioX).rounded())))
            let y = min(bitmap.height - height, max(0, Int((Double(bestY) / ratioY).rounded())))
            return PixelRect(x: x, y: y, width: width, height: height)
        }

        /// Per pixel of a four-byte premultiplied bitmap: edges (the luma Laplacian) and
        /// saturation, each relative to its mean over the image, and skin tone, weighted by
        /// coverage.
        static func attentionScores(_ bitmap: Bitmap) -> [Double] {
            let (width, height) = (bitmap.width, bitmap.height)
            let (red, blue) = bitmap.format.isBlueFirst ? (2, 0) : (0, 2)
            let hasAlpha = bitmap.format.hasAlpha
            var luma = [Double](repeating: 0, count: width * height)
            var saturation = [Double](repeating: 0, count: width * height)
            var skin = [Double](repeating: 0, count: width * height)
            var alphas = [Double](repeating: 1, count: width * height)
            bitmap.withUnsafeBytes { pixels in
                for y in 0..<height {
                    for x in 0..<width {
                        let at = y * bitmap.bytesPerRow + x * 4
                        let alpha = hasAlpha ? Double(pixels[at + 3]) / 255 : 1
                        let unpremultiply = alpha > 0 ? 1 / alpha : 0
                        let r = Double(pixels[at + red]) * unpremultiply
                        let g = Double(pixels[at + 1]) * unpremultiply
                        let b = Double(pixels[at + blue]) * unpremultiply
                        let index = y * width + x
                        luma[index] = 0.299 * r + 0.587 * g + 0.114 * b
                        saturation[index] = max(r, g, b) - min(r, g, b)
                        skin[index] = isSkin(r: r, g: g, b: b) ? 1 : 0
                        alphas[index] = alpha
                    }
                }
            }
            // Each feature counts by how much it stands out from its own average over the image:
            // a picture saturated all over (a sky, a gradient) scores its details, not its
            // colour; edges, rare in most photos, weigh by their rarity.
            var edges = [Double](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width {
                    let index = y * width + x
                    let left = luma[y * width + max(0, x - 1)], right = luma[y * width + min(width - 1, x + 1)]
                    let up = luma[max(0, y - 1) * width + x], down = luma[min(height - 1, y + 1) * width + x]
                    edges[index] = abs(4 * luma[index] - left - right - up - down)
                }
            }
            let count = Double(max(1, width * height))
            let meanEdge = edges.reduce(0, +) / count, meanSaturation = saturation.reduce(0, +) / count
            var scores = [Double](repeating: 0, count: width * height)
            for index in scores.indices {
                let edge = edges[index] / (meanEdge + 1)
                let colour = max(0, saturation[index] - meanSaturation) / (meanSaturation + 1)
                scores[index] = (edge + colour + 2 * skin[index]) * alphas[index]
            }
            return scores
        }

        /// A skin tone under daylight (a rule on RGB, 0…255).
        static func isSkin(r: Double, g: Double, b: Double) -> Bool {
            r > 95 && g > 40 && b > 20 && r > g && r > b && r - min(g, b) > 15 && abs(r - g) > 15
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.SmartCrop {
    /// Crops to `size` around the most interesting part; see ``ImageProcessors/SmartCrop``.
    public static func smartCrop(size: PixelSize) -> Self { ImageProcessors.SmartCrop(size: size) }
}
