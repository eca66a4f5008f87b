import Iris

/// Where a result's pixels come from, computed from the source size and the options as
/// imgproxy does: crop of the source, the size it is scaled to, the part of the scaled image
/// kept (fill), the canvas it is extended to, and the padding around it.
public struct Geometry: Sendable, Hashable {
    /// The part of the source kept before scaling (the `crop` option), in source pixels.
    public var sourceCrop: PixelRect?
    /// The size the (cropped) source is scaled to.
    public var scaledSize: PixelSize
    /// The size kept of the scaled image (a fill's box), placed by ``cropGravity``.
    public var cropSize: PixelSize
    /// Where ``cropSize`` is cut from the scaled image.
    public var cropGravity: Gravity
    /// The canvas the result is extended to (`extend`), with the image's origin on it.
    public var extendTo: (size: PixelSize, x: Int, y: Int)?
    /// Padding in result pixels (`padding` × `dpr`).
    public var padding: Padding

    /// The size of the result: the canvas plus the padding.
    public var resultSize: PixelSize {
        let inner = extendTo?.size ?? cropSize
        return PixelSize(width: inner.width + padding.left + padding.right,
                         height: inner.height + padding.top + padding.bottom)
    }

    /// Compares everything but the tuple (Hashable by hand).
    public static func == (lhs: Geometry, rhs: Geometry) -> Bool {
        lhs.sourceCrop == rhs.sourceCrop && lhs.scaledSize == rhs.scaledSize && lhs.cropSize == rhs.cropSize
            && lhs.cropGravity == rhs.cropGravity && lhs.padding == rhs.padding
            && lhs.extendTo?.size == rhs.extendTo?.size && lhs.extendTo?.x == rhs.extendTo?.x && lhs.extendTo?.y == rhs.extendTo?.y
    }

    /// Hashes everything ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(sourceCrop)
        hasher.combine(scaledSize)
        hasher.combine(cropSize)
        hasher.combine(padding)
        hasher.combine(extendTo?.size)
    }

    /// The geometry of `options` for a source of `source` pixels (upright, after `rotate`).
    public init(source: PixelSize, options: ProcessingOptions) {
        var base = source
        if let crop = options.crop {
            let width = Self.cropSide(crop.width, of: source.width)
            let height = Self.cropSide(crop.height, of: source.height)
            let rect = Self.place(PixelSize(width: width, height: height), in: source,
                                  gravity: crop.gravity ?? options.gravity, smartAsCentre: true)
            sourceCrop = rect
            base = PixelSize(width: rect.width, height: rect.height)
        }
        let scaleX = options.dpr * options.zoomX, scaleY = options.dpr * options.zoomY
        let boxW = Double(options.width) * scaleX, boxH = Double(options.height) * scaleY
        let (sw, sh) = (Double(base.width), Double(base.height))
        var type = options.resizingType
        if type == .auto {
            type = (boxW > 0 && boxH > 0 && (sw >= sh) == (boxW >= boxH)) ? .fill : .fit
        }
        var factorX: Double, factorY: Double
        let wRatio = boxW > 0 ? boxW / sw : 0, hRatio = boxH > 0 ? boxH / sh : 0
        switch type {
        case .force:
            factorX = wRatio > 0 ? wRatio : (hRatio > 0 ? hRatio : scaleX)
            factorY = hRatio > 0 ? hRatio : (wRatio > 0 ? wRatio : scaleY)
        case .fill, .fillDown:
            let factor = wRatio > 0 && hRatio > 0 ? max(wRatio, hRatio) : max(wRatio, hRatio)
            factorX = factor > 0 ? factor : options.dpr
            factorY = factorX
        case .fit, .auto:
            let factor = wRatio > 0 && hRatio > 0 ? min(wRatio, hRatio) : max(wRatio, hRatio)
            factorX = factor > 0 ? factor : options.dpr
            factorY = factorX
        }
        if !options.enlarge && type != .force {
            let cap = max(factorX, factorY)
            if cap > 1 {
                factorX /= cap
                factorY /= cap
            }
        } else if !options.enlarge {
            factorX = min(factorX, 1)
            factorY = min(factorY, 1)
        }
        // min-width / min-height raise the scale, enlarging if they must.
        if options.minWidth > 0 {
            let least = Double(options.minWidth) * options.dpr / sw
            if factorX < least { factorY *= least / factorX; factorX = least }
        }
        if options.minHeight > 0 {
            let least = Double(options.minHeight) * options.dpr / sh
            if factorY < least { factorX *= least / factorY; factorY = least }
        }
        scaledSize = PixelSize(width: max(1, Int((sw * factorX).rounded())), height: max(1, Int((sh * factorY).rounded())))

        var keep = scaledSize
        if type == .fill || type == .fillDown {
            var box = (w: boxW > 0 ? boxW : Double(scaledSize.width), h: boxH > 0 ? boxH : Double(scaledSize.height))
            if type == .fillDown, box.w > Double(scaledSize.width) || box.h > Double(scaledSize.height) {
                // Not enlarged: the box shrinks, aspect kept, to fit the scaled image.
                let shrink = min(Double(scaledSize.width) / box.w, Double(scaledSize.height) / box.h)
                box = (box.w * shrink, box.h * shrink)
            }
            keep = PixelSize(width: min(scaledSize.width, max(1, Int(box.w.rounded()))),
                             height: min(scaledSize.height, max(1, Int(box.h.rounded()))))
        }
        cropSize = keep
        cropGravity = options.gravity

        if options.extend, boxW > 0 || boxH > 0 {
            let canvas = PixelSize(width: max(keep.width, Int(boxW.rounded())), height: max(keep.height, Int(boxH.rounded())))
            if canvas != keep {
                let rect = Self.place(keep, in: canvas, gravity: options.extendGravity, smartAsCentre: true)
                extendTo = (canvas, rect.x, rect.y)
            }
        }
        let dpr = options.dpr
        func scaled(_ side: Int) -> Int { Int((Double(side) * dpr).rounded()) }
        padding = Padding(top: scaled(options.padding.top), right: scaled(options.padding.right),
                          bottom: scaled(options.padding.bottom), left: scaled(options.padding.left))
    }

    /// A crop side: pixels (≥ 1), a fraction of `whole` (< 1), or all of it (0); at most `whole`.
    static func cropSide(_ value: Double, of whole: Int) -> Int {
        if value <= 0 { return whole }
        if value < 1 { return max(1, Int((Double(whole) * value).rounded())) }
        return min(whole, Int(value.rounded()))
    }

    /// Where an `inner` rectangle goes inside `outer` by `gravity`, clamped inside `outer`
    /// (smart gravity needs pixels: centred here when `smartAsCentre`).
    public static func place(_ inner: PixelSize, in outer: PixelSize, gravity: Gravity, smartAsCentre: Bool) -> PixelRect {
        let spareX = Double(outer.width - inner.width), spareY = Double(outer.height - inner.height)
        var x: Double, y: Double
        switch gravity {
        case .compass(let point, let xOffset, let yOffset):
            let anchor = point.anchor
            // Offsets point inwards from the anchored edge; at the centre they move right and down.
            x = spareX * anchor.x + (anchor.x == 1 ? -xOffset : xOffset)
            y = spareY * anchor.y + (anchor.y == 1 ? -yOffset : yOffset)
        case .focusPoint(let fx, let fy):
            x = fx * Double(outer.width) - Double(inner.width) / 2
            y = fy * Double(outer.height) - Double(inner.height) / 2
        case .smart:
            x = spareX / 2
            y = spareY / 2
        }
        let clampedX = Int(min(max(0, x), max(0, spareX)).rounded(.down))
        let clampedY = Int(min(max(0, y), max(0, spareY)).rounded(.down))
        return PixelRect(x: clampedX, y: clampedY, width: min(inner.width, outer.width), height: min(inner.height, outer.height))
    }
}
