import Foundation
import Iris

/// Where a result's pixels come from, computed from the source size and the options with
/// imgproxy's arithmetic: crop of the source, the scale, the part of the scaled image kept
/// (fill), the canvas it is extended to (`extend`, then `extend_aspect_ratio`), and the
/// padding around it.
///
/// As imgproxy does, a source that cannot be enlarged lowers the effective dpr to what it
/// allows (``dprScale``): a fill keeps the box's aspect ratio and an extension keeps its
/// composition instead of growing a mostly empty canvas; `max_result_dimension` scales the
/// whole result down, dpr included.
package struct Geometry: Sendable, Hashable {
    /// The part of the source kept before scaling (the `crop` option), in source pixels.
    package var sourceCrop: PixelRect?
    /// The size the (cropped) source is scaled to.
    package var scaledSize: PixelSize
    /// The size kept of the scaled image (a fill's box), at ``cropRect``.
    package var cropSize: PixelSize
    /// Where ``cropSize`` is cut from the scaled image (smart gravity: centred here; the
    /// processor finds the place from the pixels).
    package var cropRect: PixelRect
    /// The gravity of the cut.
    package var cropGravity: Gravity
    /// The canvas the result is extended to (`extend`, `extend_aspect_ratio`), with the image's
    /// origin on it.
    package var extendTo: (size: PixelSize, x: Int, y: Int)?
    /// Padding in result pixels (`padding` × ``dprScale``).
    package var padding: Padding
    /// The dpr in effect: the requested one, lowered where the source is too small for it.
    package var dprScale: Double

    /// The size of the result: the canvas plus the padding.
    package var resultSize: PixelSize {
        let inner = extendTo?.size ?? cropSize
        return PixelSize(
            width: inner.width + padding.left + padding.right,
            height: inner.height + padding.top + padding.bottom)
    }

    /// Compares everything but the tuple (Hashable by hand).
    package static func == (lhs: Geometry, rhs: Geometry) -> Bool {
        lhs.sourceCrop == rhs.sourceCrop && lhs.scaledSize == rhs.scaledSize && lhs.cropSize == rhs.cropSize
            && lhs.cropRect == rhs.cropRect && lhs.cropGravity == rhs.cropGravity && lhs.padding == rhs.padding
            && lhs.dprScale == rhs.dprScale && lhs.extendTo?.size == rhs.extendTo?.size
            && lhs.extendTo?.x == rhs.extendTo?.x && lhs.extendTo?.y == rhs.extendTo?.y
    }

    /// Hashes everything ``==`` compares.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(sourceCrop)
        hasher.combine(scaledSize)
        hasher.combine(cropRect)
        hasher.combine(padding)
        hasher.combine(extendTo?.size)
    }

    /// The geometry of `options` for a source of `source` pixels (upright, after `rotate`).
    package init(source: PixelSize, options: ProcessingOptions) {
        let o = options
        let cropW = o.crop.map { Self.cropSide($0.width, of: source.width) } ?? 0
        let cropH = o.crop.map { Self.cropSide($0.height, of: source.height) } ?? 0
        let base = PixelSize(width: Self.minNonZero(cropW, source.width), height: Self.minNonZero(cropH, source.height))
        if let crop = o.crop, base != source {
            sourceCrop = Self.place(base, in: source, gravity: crop.gravity ?? o.gravity, dpr: 1)
        } else {
            sourceCrop = nil
        }

        var scale = Scale(base: base, options: o)
        var sizes = Sizes(base: base, scale: scale, options: o)
        if let limit = o.limits.resultDimension, limit > 0 {
            var out = PixelSize(
                width: Self.minNonZero(sizes.scaled.width, sizes.resultCrop.width),
                height: Self.minNonZero(sizes.scaled.height, sizes.resultCrop.height))
            if o.extend {
                out = PixelSize(width: max(out.width, sizes.target.width), height: max(out.height, sizes.target.height))
            } else if o.extendAspectRatio, let exar = sizes.aspectCanvas {
                out = PixelSize(width: max(out.width, exar.width), height: max(out.height, exar.height))
            }
            let padded = PixelSize(
                width: out.width + Self.scaleToEven(o.padding.left, scale.dpr) + Self.scaleToEven(o.padding.right, scale.dpr),
                height: out.height + Self.scaleToEven(o.padding.top, scale.dpr) + Self.scaleToEven(o.padding.bottom, scale.dpr))
            if padded.width > limit || padded.height > limit {
                let down = Double(limit) / Double(max(padded.width, padded.height))
                scale.x = max(scale.x * down, 1 / Double(base.width))
                scale.y = max(scale.y * down, 1 / Double(base.height))
                scale.dpr *= down
                sizes = Sizes(base: base, scale: scale, options: o)
            }
        }

        scaledSize = PixelSize(width: max(1, sizes.scaled.width), height: max(1, sizes.scaled.height))
        cropSize = PixelSize(
            width: Self.minNonZero(sizes.resultCrop.width, scaledSize.width),
            height: Self.minNonZero(sizes.resultCrop.height, scaledSize.height))
        cropGravity = o.gravity
        cropRect = Self.place(cropSize, in: scaledSize, gravity: o.gravity, dpr: scale.dpr)
        dprScale = scale.dpr

        var canvas: (size: PixelSize, x: Int, y: Int)?
        var current = cropSize
        if o.extend {
            canvas = Self.extend(current, to: sizes.target, gravity: o.extendGravity, dpr: scale.dpr)
            if let canvas { current = canvas.size }
        }
        if o.extendAspectRatio, let exar = sizes.aspectCanvas,
            let outer = Self.extend(current, to: exar, gravity: o.extendAspectRatioGravity, dpr: scale.dpr)
        {
            canvas = (outer.size, outer.x + (canvas?.x ?? 0), outer.y + (canvas?.y ?? 0))
        }
        extendTo = canvas
        padding = Padding(
            top: Self.scaleToEven(o.padding.top, scale.dpr), right: Self.scaleToEven(o.padding.right, scale.dpr),
            bottom: Self.scaleToEven(o.padding.bottom, scale.dpr), left: Self.scaleToEven(o.padding.left, scale.dpr))
    }

    /// The scale factors per axis and the dpr in effect (imgproxy's shrink arithmetic).
    struct Scale {
        var x: Double
        var y: Double
        var dpr: Double

        init(base: PixelSize, options o: ProcessingOptions) {
            let srcW = Double(base.width), srcH = Double(base.height)
            let dstW = o.width > 0 ? Double(o.width) : srcW, dstH = o.height > 0 ? Double(o.height) : srcH
            var shrinkW = dstW != srcW ? srcW / dstW : 1, shrinkH = dstH != srcH ? srcH / dstH : 1
            if shrinkW != 1 || shrinkH != 1 {
                var type = o.resizingType
                if type == .auto { type = (srcW - srcH >= 0) == (dstW - dstH >= 0) ? .fill : .fit }
                if o.width == 0 && type != .force {
                    shrinkW = shrinkH
                } else if o.height == 0 && type != .force {
                    shrinkH = shrinkW
                } else if type == .fit {
                    shrinkW = max(shrinkW, shrinkH)
                    shrinkH = shrinkW
                } else if type == .fill || type == .fillDown {
                    shrinkW = min(shrinkW, shrinkH)
                    shrinkH = shrinkW
                }
            }
            shrinkW /= o.zoomX
            shrinkH /= o.zoomY
            var dpr = o.dpr
            if !o.enlarge {
                let least = min(shrinkW, shrinkH)
                if least < 1 {
                    shrinkW /= least
                    shrinkH /= least
                    // The box cannot be reached: a dpr below 1 would move further from it. An
                    // extension keeps its composition whatever the dpr, so it is not compensated.
                    if !o.extend { dpr /= least }
                }
                // The most dpr the source allows without enlarging.
                dpr = min(dpr, min(shrinkW, shrinkH))
            }
            if o.minWidth > 0 {
                let least = srcW / Double(o.minWidth)
                if least < shrinkW {
                    shrinkH /= shrinkW / least
                    shrinkW = least
                }
            }
            if o.minHeight > 0 {
                let least = srcH / Double(o.minHeight)
                if least < shrinkH {
                    shrinkW /= shrinkH / least
                    shrinkH = least
                }
            }
            shrinkW = min(shrinkW / dpr, srcW)
            shrinkH = min(shrinkH / dpr, srcH)
            x = 1 / shrinkW
            y = 1 / shrinkH
            self.dpr = dpr
        }
    }

    /// The box, the scaled size, the fill's cut (0: that side uncut) and the aspect-ratio canvas.
    struct Sizes {
        var target: PixelSize
        var scaled: PixelSize
        var resultCrop: PixelSize
        var aspectCanvas: PixelSize?

        init(base: PixelSize, scale: Scale, options o: ProcessingOptions) {
            target = PixelSize(width: Geometry.scaled(o.width, scale.dpr * o.zoomX), height: Geometry.scaled(o.height, scale.dpr * o.zoomY))
            scaled = PixelSize(width: Geometry.scaled(base.width, scale.x), height: Geometry.scaled(base.height, scale.y))
            resultCrop = target
            if o.resizingType == .fillDown && !o.enlarge && scaled.width > 0 && scaled.height > 0 {
                // Never enlarged: the box shrinks to the scaled image, keeping its aspect ratio;
                // a side of 0 stays unconstrained.
                let diffW = Double(target.width) / Double(scaled.width), diffH = Double(target.height) / Double(scaled.height)
                if diffW > diffH && diffW > 1 {
                    resultCrop = PixelSize(
                        width: scaled.width,
                        height: Geometry.scaled(scaled.width, Double(target.height) / Double(target.width)))
                } else if diffH > diffW && diffH > 1 {
                    resultCrop = PixelSize(
                        width: Geometry.scaled(scaled.height, Double(target.width) / Double(target.height)),
                        height: scaled.height)
                }
            }
            if o.extendAspectRatio && target.width > 0 && target.height > 0 {
                let outW = Geometry.minNonZero(scaled.width, resultCrop.width), outH = Geometry.minNonZero(scaled.height, resultCrop.height)
                let diffW = Double(target.width) / Double(max(1, outW)), diffH = Double(target.height) / Double(max(1, outH))
                if diffH > diffW {
                    aspectCanvas = PixelSize(width: outW, height: Geometry.scaled(outW, Double(target.height) / Double(target.width)))
                } else if diffW > diffH {
                    aspectCanvas = PixelSize(width: Geometry.scaled(outH, Double(target.width) / Double(target.height)), height: outH)
                }
            }
        }
    }

    /// The canvas `image` is extended to for a box of `box` (a side of 0 or smaller: the
    /// image's), or `nil` when the box adds nothing.
    static func extend(_ image: PixelSize, to box: PixelSize, gravity: Gravity, dpr: Double) -> (size: PixelSize, x: Int, y: Int)? {
        guard box.width > image.width || box.height > image.height else { return nil }
        let canvas = PixelSize(width: max(box.width, image.width), height: max(box.height, image.height))
        let rect = place(image, in: canvas, gravity: gravity, dpr: dpr)
        return (canvas, rect.x, rect.y)
    }

    /// A crop side: pixels (≥ 1), a fraction of `whole` (< 1), or 0 for all of it.
    static func cropSide(_ value: Double, of whole: Int) -> Int {
        if value <= 0 { return 0 }
        if value < 1 { return max(1, Int((Double(whole) * value).rounded())) }
        return Int(value)
    }

    static func minNonZero(_ a: Int, _ b: Int) -> Int { a == 0 ? b : (b == 0 ? a : min(a, b)) }

    /// `value × factor` rounded half away from zero; 0 stays 0.
    static func scaled(_ value: Int, _ factor: Double) -> Int { value == 0 ? 0 : Int((Double(value) * factor).rounded()) }

    /// `value × factor` rounded half to even; 0 stays 0.
    static func scaleToEven(_ value: Int, _ factor: Double) -> Int {
        value == 0 ? 0 : Int((Double(value) * factor).rounded(.toNearestOrEven))
    }

    /// Where an `inner` rectangle goes inside `outer` by `gravity`, kept inside `outer`.
    /// Compass offsets point inwards from the anchored edge (at the centre, right and down):
    /// 1 or more is pixels times `dpr`, below 1 a fraction of `outer`. Smart gravity needs
    /// pixels: centred here.
    /// With `allowsOverflow` (a watermark) `inner` may stick out of `outer`, all but a pixel.
    package static func place(
        _ inner: PixelSize, in outer: PixelSize, gravity: Gravity, dpr: Double = 1,
        allowsOverflow: Bool = false
    ) -> PixelRect {
        var left: Int, top: Int
        switch gravity {
        case .focusPoint(let fx, let fy):
            left = scaleToEvenAlways(outer.width, fx) - inner.width / 2
            top = scaleToEvenAlways(outer.height, fy) - inner.height / 2
        case .smart:
            left = halfToEven(outer.width - inner.width + 1)
            top = halfToEven(outer.height - inner.height + 1)
        case .compass(let point, let xOffset, let yOffset):
            let offX = abs(xOffset) >= 1 ? Int((xOffset * dpr).rounded(.toNearestOrEven)) : scaleToEvenAlways(outer.width, xOffset)
            let offY = abs(yOffset) >= 1 ? Int((yOffset * dpr).rounded(.toNearestOrEven)) : scaleToEvenAlways(outer.height, yOffset)
            let anchor = point.anchor
            switch anchor.x {
            case 0: left = offX
            case 1: left = outer.width - inner.width - offX
            default: left = halfToEven(outer.width - inner.width + 1) + offX
            }
            switch anchor.y {
            case 0: top = offY
            case 1: top = outer.height - inner.height - offY
            default: top = halfToEven(outer.height - inner.height + 1) + offY
            }
        }
        if allowsOverflow {
            left = max(1 - inner.width, min(left, outer.width - 1))
            top = max(1 - inner.height, min(top, outer.height - 1))
            return PixelRect(x: left, y: top, width: inner.width, height: inner.height)
        }
        left = max(0, min(left, outer.width - inner.width))
        top = max(0, min(top, outer.height - inner.height))
        return PixelRect(x: left, y: top, width: min(inner.width, outer.width), height: min(inner.height, outer.height))
    }

    /// `value / 2` rounded half to even.
    private static func halfToEven(_ value: Int) -> Int { Int((Double(value) / 2).rounded(.toNearestOrEven)) }

    private static func scaleToEvenAlways(_ value: Int, _ factor: Double) -> Int {
        Int((Double(value) * factor).rounded(.toNearestOrEven))
    }
}
