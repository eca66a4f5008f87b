#if canImport(CGdkPixbuf)
import CGdkPixbuf
import Foundation

/// Decodes BMP and ICO with gdk-pixbuf (each through its own loader module only), on Linux.
///
/// BMP: every header version (OS/2 1.x and 2.x, Windows 3 to V5), 1 to 32 bits, RLE4/RLE8 and
/// bit fields. ICO: the largest image of the icon, as imgproxy shows it: a bitmap one decoded
/// by gdk-pixbuf, its AND mask as transparency; a PNG-compressed one (the 256-pixel images of
/// newer icons, which gdk-pixbuf does not read) by the PNG decoder, with its colour profile.
///
/// Limits are checked from the headers (``BMPHeader``, ``ICODirectory``) before gdk-pixbuf
/// allocates anything; a file that cannot hold the pixels its header declares is
/// ``ImageError/truncated(format:received:expected:)``. gdk-pixbuf decodes the whole image;
/// its rows then go through the ``RowSink`` for `context.outputSize` (these formats are small).
/// Output is premultiplied ``PixelFormat/rgba8`` with alpha, ``PixelFormat/rgbx8`` without;
/// samples are passed through as sRGB.
struct GdkPixbufDecoder: ImageDecoding {
    /// Makes a decoder.
    init() {}

    /// BMP and ICO.
    var formats: Set<ImageFormat> { [.bmp, .ico] }

    /// Reads the size from the BMP's info header or the icon's directory; nothing is decoded.
    func readHeader(_ data: Data) throws(ImageError) -> ImageHeader {
        if FormatSniffer.format(of: data) == .ico {
            let shown = try ICODirectory(data).shown
            if shown.isPNG {
                let png = try ICOPNGImage.header(of: ICOPNGImage.stream(of: shown, in: data))
                return ImageHeader(format: .ico, width: png.width, height: png.height, hasAlpha: true)
            }
            return ImageHeader(format: .ico, width: shown.size.width, height: shown.size.height, hasAlpha: true)
        }
        let header = try BMPHeader(data)
        return ImageHeader(format: .bmp, width: header.size.width, height: header.size.height, hasAlpha: header.bitCount == 32)
    }

    /// Decodes the image (an icon's largest) and resamples it to exactly `context.outputSize`.
    func decode(_ data: Data, context: DecodeContext) throws(ImageError) -> Bitmap {
        let output = context.outputSize
        let format = context.header.format == .ico ? ImageFormat.ico : .bmp
        guard output.width > 0, output.height > 0 else {
            throw .decodingFailed(format: format, reason: "the requested output size \(output) is empty")
        }
        // What gdk-pixbuf will allocate, judged before it does.
        let claimed: PixelSize
        if format == .ico {
            let directory = try ICODirectory(data)
            let shown = directory.shown
            if shown.isPNG {
                return try ICOPNGImage.decode(ICOPNGImage.stream(of: shown, in: data), context: context)
            }
            claimed = directory.largest ?? context.header.storedSize
        } else {
            let header = try BMPHeader(data)
            try header.checkComplete(data.count)
            claimed = header.size
        }
        try context.options.limits.check(width: claimed.width, height: claimed.height, format: format)

        let image = try PixbufLoad(data, type: format == .ico ? "ico" : "bmp", format: format)
        let sink = makeRowSink(
            source: image.size, output: output, format: image.hasAlpha ? .rgba8 : .rgbx8,
            kernel: context.options.kernel)
        try image.writeRows(to: sink)
        return sink.finish()
    }
}
#endif
