import Foundation
import Testing
@testable import Iris

@Suite("EXIF reader")
struct EXIFReaderTests {
    typealias B = EXIFBuilder

    /// The three containers the reader understands, built around one TIFF block.
    enum Container: CaseIterable, CustomStringConvertible {
        case jpeg, png, webp, webpWithEXIFHeader

        var format: ImageFormat {
            switch self {
            case .jpeg: .jpeg
            case .png: .png
            case .webp, .webpWithEXIFHeader: .webp
            }
        }

        func build(_ tiff: [UInt8]) -> Data {
            switch self {
            case .jpeg: B.minimalJPEG(tiff: tiff)
            case .png: B.minimalPNG(tiff: tiff)
            case .webp: B.minimalWebP(tiff: tiff)
            case .webpWithEXIFHeader: B.minimalWebP(tiff: tiff, exifHeader: true)
            }
        }

        /// Where the EXIF block's last byte ends in `build(tiff)`: prefixes shorter than this
        /// cut the block and must give `nil`.
        func exifEnd(tiffCount: Int) -> Int {
            switch self {
            case .jpeg: 2 + 4 + 6 + tiffCount  // SOI, APP1 marker+length, "Exif\0\0"
            case .png: 8 + 25 + 8 + tiffCount + 4  // signature, IHDR, eXIf header, CRC
            case .webp: 12 + 18 + 8 + tiffCount  // RIFF header, VP8X, EXIF header
            case .webpWithEXIFHeader: 12 + 18 + 8 + 6 + tiffCount
            }
        }

        var description: String {
            switch self {
            case .jpeg: "JPEG"
            case .png: "PNG"
            case .webp: "WebP"
            case .webpWithEXIFHeader: "WebP (Exif header)"
            }
        }
    }

    static func read(_ data: Data, _ format: ImageFormat) -> Int? {
        storedOrientation(data, format)?.rawValue
    }

    // MARK: Valid containers

    @Test(
        "every orientation 1–8 in both byte orders in every container",
        arguments: Container.allCases, B.ByteOrder.allCases)
    func everyValue(container: Container, order: B.ByteOrder) {
        for value in 1...8 {
            let data = container.build(B.tiff(orientation: UInt16(value), byteOrder: order))
            #expect(Self.read(data, container.format) == value, "\(container) \(order) value \(value)")
        }
    }

    @Test("a Data slice with indices not starting at zero", arguments: Container.allCases)
    func dataSlice(container: Container) {
        let inner = container.build(B.tiff(orientation: 6, byteOrder: .bigEndian))
        let outer = Data([1, 2, 3, 4, 5]) + inner + Data([9, 9])
        let slice = outer[5..<(5 + inner.count)]
        #expect(slice.startIndex == 5)
        #expect(Self.read(slice, container.format) == 6)
    }

    @Test("formats without EXIF support give nil even for EXIF-bearing bytes")
    func otherFormats() {
        let jpeg = B.minimalJPEG(tiff: B.tiff(orientation: 6))
        for format in ImageFormat.wellKnown where ![.jpeg, .png, .webp].contains(format) {
            #expect(Self.read(jpeg, format) == nil, "\(format)")
        }
        // A container read as the wrong format is not recognised either.
        #expect(Self.read(jpeg, .png) == nil)
        #expect(Self.read(B.minimalPNG(tiff: B.tiff(orientation: 6)), .webp) == nil)
        #expect(Self.read(B.minimalWebP(tiff: B.tiff(orientation: 6)), .jpeg) == nil)
    }

    @Test("files without EXIF give nil")
    func noEXIF() {
        let sos: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        #expect(Self.read(Data([0xFF, 0xD8] + sos + [0xFF, 0xD9]), .jpeg) == nil)
        #expect(Self.read(Data([0xFF, 0xD8, 0xFF, 0xD9]), .jpeg) == nil)
        let ihdr = PNGBytes.chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])
        #expect(Self.read(Data(PNGBytes.signature + ihdr + PNGBytes.chunk("IEND", [])), .png) == nil)
        #expect(Self.read(B.riff(B.vp8x(width: 1, height: 1, flags: 0)), .webp) == nil)
        #expect(Self.read(Data(), .jpeg) == nil)
        #expect(Self.read(Data(), .png) == nil)
        #expect(Self.read(Data(), .webp) == nil)
    }

    @Test("JPEG: fill bytes, markers without length, APP0 and an XMP APP1 before the EXIF APP1")
    func jpegWalk() {
        let tiff = B.tiff(orientation: 8, byteOrder: .bigEndian)
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let xmpPayload = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8)
        let xmp: [UInt8] = [0xFF, 0xE1] + B.bytes16(UInt16(xmpPayload.count + 2), big: true) + xmpPayload
        let data = Data(
            [0xFF, 0xD8, 0xFF, 0xFF, 0xFF] + app0 + [0xFF, 0x01, 0xFF, 0xD3]
                + xmp + [0xFF, 0xFF] + B.app1(tiff) + [0xFF, 0xD9])
        #expect(Self.read(data, .jpeg) == 8)
        // The first EXIF APP1 wins.
        let two = B.jpeg(B.minimalJPEG(tiff: B.tiff(orientation: 3)), insertingEXIF: B.tiff(orientation: 5))
        #expect(Self.read(two, .jpeg) == 5)
    }

    @Test("JPEG: EXIF after SOS, garbage between segments, or a missing SOI gives nil")
    func jpegStops() {
        let sos: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        let app1 = B.app1(B.tiff(orientation: 6))
        #expect(Self.read(Data([0xFF, 0xD8] + sos + app1 + [0xFF, 0xD9]), .jpeg) == nil)
        #expect(Self.read(Data([0xFF, 0xD8, 0x00] + app1), .jpeg) == nil)
        #expect(Self.read(Data(app1), .jpeg) == nil)
        // A stuffed zero (FF 00) is not a marker.
        #expect(Self.read(Data([0xFF, 0xD8, 0xFF, 0x00] + app1), .jpeg) == nil)
    }

    @Test("PNG: eXIf after IDAT is accepted; after IEND it is not")
    func pngPlacement() {
        let ihdr = PNGBytes.chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])
        let idat = PNGBytes.chunk("IDAT", [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01])
        let exif = PNGBytes.chunk("eXIf", B.tiff(orientation: 7, byteOrder: .bigEndian))
        let iend = PNGBytes.chunk("IEND", [])
        #expect(Self.read(Data(PNGBytes.signature + ihdr + idat + exif + iend), .png) == 7)
        #expect(Self.read(Data(PNGBytes.signature + ihdr + idat + iend + exif), .png) == nil)
    }

    @Test("WebP: odd-sized chunks are padded to even sizes; an oversized RIFF size is clamped")
    func webpPadding() {
        let tiff = B.tiff(orientation: 2)
        let iccp = B.riffChunk("ICCP", [1, 2, 3])  // odd: one padding byte follows
        #expect(iccp.count == 12)
        #expect(Self.read(B.minimalWebP(tiff: tiff, before: iccp), .webp) == 2)
        // Without the padding byte the walk lands one byte off and finds no EXIF.
        let unpadded = Array(iccp.dropLast())
        #expect(Self.read(B.minimalWebP(tiff: tiff, before: unpadded), .webp) == nil)
        // A RIFF size past the end of the data reads what is there.
        var huge = [UInt8](B.minimalWebP(tiff: tiff))
        huge.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Self.read(Data(huge), .webp) == 2)
        // A RIFF size that ends before the EXIF chunk hides it.
        var short = [UInt8](B.minimalWebP(tiff: tiff))
        short.replaceSubrange(4..<8, with: B.bytes32(4 + 18, big: false))
        #expect(Self.read(Data(short), .webp) == nil)
    }

    // MARK: Hostile input

    @Test(
        "truncated at every offset: nil until the EXIF block is complete, never a crash",
        arguments: Container.allCases, B.ByteOrder.allCases)
    func truncation(container: Container, order: B.ByteOrder) {
        let tiff = B.tiff(orientation: 6, byteOrder: order)
        let data = container.build(tiff)
        let end = container.exifEnd(tiffCount: tiff.count)
        #expect(Self.read(data.prefix(end), container.format) == 6)
        for length in 0..<data.count {
            let result = Self.read(data.prefix(length), container.format)
            if length < end {
                #expect(result == nil, "prefix of \(length) bytes")
            } else {
                #expect(result == 6, "prefix of \(length) bytes")
            }
        }
    }

    @Test("container lengths past the end give nil")
    func containerLengths() {
        let tiff = B.tiff(orientation: 6)
        // JPEG APP1 length past the end, and below its own two bytes.
        let jpegCount = B.minimalJPEG(tiff: tiff).count
        for length: UInt16 in [0xFFFF, UInt16(jpegCount - 4 + 1), 0, 1] {
            var bytes = [UInt8](B.minimalJPEG(tiff: tiff))
            bytes.replaceSubrange(4..<6, with: B.bytes16(length, big: true))
            #expect(Self.read(Data(bytes), .jpeg) == nil, "APP1 length \(length)")
        }
        // PNG chunk lengths: huge, over 2^31 - 1, one past the end; on IHDR and on eXIf.
        for at in [8, 33] {
            for length: UInt32 in [0xFFFF_FFFF, 0x8000_0000, 0x7FFF_FFFF, UInt32(tiff.count + 100)] {
                var bytes = [UInt8](B.minimalPNG(tiff: tiff))
                bytes.replaceSubrange(at..<(at + 4), with: B.bytes32(length, big: true))
                #expect(Self.read(Data(bytes), .png) == nil, "chunk at \(at) length \(length)")
            }
        }
        // WebP chunk sizes past the end, on VP8X and on EXIF.
        for at in [16, 34] {
            for size: UInt32 in [0xFFFF_FFFF, 0xFFFF_FFFE, UInt32(tiff.count + 1)] {
                var bytes = [UInt8](B.minimalWebP(tiff: tiff))
                bytes.replaceSubrange(at..<(at + 4), with: B.bytes32(size, big: false))
                #expect(Self.read(Data(bytes), .webp) == nil, "chunk size at \(at): \(size)")
            }
        }
    }

    @Test(
        "TIFF: IFD offsets outside the block give nil",
        arguments: Container.allCases, B.ByteOrder.allCases)
    func ifdOffsets(container: Container, order: B.ByteOrder) {
        let count = B.tiff(orientation: 6, byteOrder: order).count
        let offsets: [UInt32] = [
            0, 4, 7, UInt32(count - 1), UInt32(count), UInt32(count + 100),
            0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFF0, 0xFFFF_FFFF,
        ]
        for offset in offsets {
            let data = container.build(B.tiff(orientation: 6, byteOrder: order, ifdOffset: offset))
            #expect(Self.read(data, container.format) == nil, "IFD offset \(offset)")
        }
    }

    @Test(
        "TIFF: entry counts past the end, zero entries, bad byte order or magic give nil",
        arguments: B.ByteOrder.allCases)
    func entryCounts(order: B.ByteOrder) {
        for count: UInt16 in [65535, 5, 0x8000, 0] {
            let data = B.minimalJPEG(tiff: B.tiff(orientation: 6, byteOrder: order, entryCount: count))
            #expect(Self.read(data, .jpeg) == nil, "entry count \(count)")
        }
        // Fewer entries than written is fine as long as the orientation is among them.
        #expect(Self.read(B.minimalJPEG(tiff: B.tiff(orientation: 6, byteOrder: order, entryCount: 3)), .jpeg) == 6)
        #expect(Self.read(B.minimalJPEG(tiff: B.tiff(orientation: 6, byteOrder: order, entryCount: 2)), .jpeg) == nil)
        var tiff = B.tiff(orientation: 6, byteOrder: order)
        tiff[1] = tiff[0] == 0x49 ? 0x4D : 0x49  // "IM" / "MI"
        #expect(Self.read(B.minimalJPEG(tiff: tiff), .jpeg) == nil)
        tiff = B.tiff(orientation: 6, byteOrder: order)
        let magic = order == .bigEndian ? 3 : 2
        tiff[magic] = 43
        #expect(Self.read(B.minimalJPEG(tiff: tiff), .jpeg) == nil)
        #expect(Self.read(B.minimalJPEG(tiff: []), .jpeg) == nil)
        #expect(Self.read(B.minimalJPEG(tiff: Array(tiff.prefix(8))), .jpeg) == nil)
    }

    @Test(
        "TIFF: wrong type, wrong count, or a value outside 1–8 gives nil",
        arguments: Container.allCases, B.ByteOrder.allCases)
    func badValues(container: Container, order: B.ByteOrder) {
        for value: UInt16 in [0, 9, 255, 0x0100, 0xFFFF] {
            let data = container.build(B.tiff(orientation: value, byteOrder: order))
            #expect(Self.read(data, container.format) == nil, "value \(value)")
        }
        for type: UInt16 in [1, 4, 7, 8, 0, 0xFFFF] {  // BYTE, LONG, UNDEFINED, SSHORT…
            let data = container.build(B.tiff(orientation: 6, byteOrder: order, type: type))
            #expect(Self.read(data, container.format) == nil, "type \(type)")
        }
        for count: UInt32 in [0, 2, 0xFFFF_FFFF] {
            let data = container.build(B.tiff(orientation: 6, byteOrder: order, count: count))
            #expect(Self.read(data, container.format) == nil, "count \(count)")
        }
    }

    @Test("random corruption of valid containers and random bytes never crash")
    func fuzz() {
        var rng = SplitMix(seed: 0x1215)
        var found = 0
        for container in Container.allCases {
            let valid = [UInt8](container.build(B.tiff(orientation: 6, byteOrder: .bigEndian)))
            for _ in 0..<3000 {
                var bytes = valid
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    let at = Int(rng.next() % UInt64(bytes.count))
                    bytes[at] = rng.next() % 3 == 0 ? 0xFF : UInt8(truncatingIfNeeded: rng.next())
                }
                let cut = rng.next() % 4 == 0 ? Int(rng.next() % UInt64(bytes.count)) : bytes.count
                if let value = Self.read(Data(bytes.prefix(cut)), container.format) {
                    #expect((1...8).contains(value))
                    found += 1
                }
            }
        }
        for format in [ImageFormat.jpeg, .png, .webp] {
            for _ in 0..<2000 {
                let count = Int(rng.next() % 64)
                var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                // Give the noise a valid signature so the walkers get past the first check.
                let head: [UInt8] =
                    switch format {
                    case .jpeg: [0xFF, 0xD8]
                    case .png: PNGBytes.signature
                    default: Array("RIFF".utf8) + [UInt8(truncatingIfNeeded: rng.next()), 0, 0, 0] + Array("WEBP".utf8)
                    }
                bytes = head + bytes
                _ = Self.read(Data(bytes), format)
            }
        }
        // Most corruptions miss the few bytes that matter, so most files still read.
        #expect(found > 0)
    }

    @Test("a 16 MB JPEG with EXIF up front is read without touching the rest")
    func readsOnlyTheHead() throws {
        // The tail after the EXIF segment is memory that cannot be read at all (PROT_NONE): a
        // reader that walked into it would crash the test, however fast or slow the machine.
        let head = [UInt8](B.minimalJPEG(tiff: B.tiff(orientation: 6)))
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let headBytes = (head.count + page - 1) / page * page
        let tail = 16 << 20
        let mapping = try #require(
            mmap(nil, headBytes + tail, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            "mmap failed")
        try #require(mapping != MAP_FAILED, "mmap failed")
        defer { munmap(mapping, headBytes + tail) }
        // The head ends exactly where the unreadable pages begin.
        let start = mapping + (headBytes - head.count)
        head.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: head.count) }
        try #require(mprotect(mapping + headBytes, tail, PROT_NONE) == 0, "mprotect failed")
        let data = Data(bytesNoCopy: start, count: head.count + tail, deallocator: .none)
        let orientations = Set((0..<100).map { _ in storedOrientation(data, .jpeg) })
        #expect(orientations == [.right])
    }
}

// MARK: - Real files from the C libraries

#if canImport(CPNG) && canImport(CWebP) && canImport(CJPEG)
import CPNG
import CWebP
import CJPEG
import IrisSamples
import IrisTestSupport

extension EXIFReaderTests {
    /// Straight-alpha RGBA bytes of a photo-like sample, for the C encoders.
    static func sampleRGBA(width: Int, height: Int, alpha: Bool) -> [UInt8] {
        let bitmap = SampleImages.photo(width: width, height: height, seed: 11, format: alpha ? .rgba8 : .rgbx8, alpha: alpha)
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let p = bitmap.rgba(x: x, y: y)
                // Unpremultiply (exactness does not matter for these tests).
                func u(_ c: UInt8) -> UInt8 { p.a == 0 ? 0 : UInt8(min(255, Int(c) * 255 / Int(p.a))) }
                bytes += [u(p.r), u(p.g), u(p.b), p.a]
            }
        }
        return bytes
    }

    @Test(
        "PNG from libpng: the inserted eXIf chunk is accepted by libpng (CRC) and read by us",
        arguments: B.ByteOrder.allCases)
    func libpngRoundTrip(order: B.ByteOrder) throws {
        let (width, height) = (17, 9)
        let rgba = Self.sampleRGBA(width: width, height: height, alpha: true)
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        var size = 0
        #expect(png_image_write_to_memory(&image, nil, &size, 0, rgba, 0, nil) != 0)
        var encoded = [UInt8](repeating: 0, count: size)
        #expect(png_image_write_to_memory(&image, &encoded, &size, 0, rgba, 0, nil) != 0)
        let tiff = B.tiff(orientation: 6, byteOrder: order)
        let png = B.png(Data(encoded.prefix(size)), insertingEXIF: tiff)
        #expect(storedOrientation(png, .png) == .right)
        #expect(storedOrientation(Data(encoded.prefix(size)), .png) == nil)
        // libpng drops an ancillary chunk with a bad CRC, so getting it back proves the CRC.
        let exif = try #require(Self.libpngEXIf(png))
        expectSameBytes(exif, tiff)
        // And a corrupted CRC is indeed dropped (the check can fail).
        var bad = [UInt8](png)
        bad[33 + 8 + tiff.count] ^= 0x01
        #expect(Self.libpngEXIf(Data(bad)) == nil)
    }

    /// The eXIf chunk as libpng reads it, with the whole image decoded too.
    static func libpngEXIf(_ png: Data) -> [UInt8]? {
        final class Source {
            let bytes: [UInt8]
            var position = 0
            init(_ b: [UInt8]) { bytes = b }
        }
        let source = Source([UInt8](png))
        guard let created = png_create_read_struct(PNG_LIBPNG_VER_STRING, nil, nil, { _, _ in }) else { return nil }
        var read: png_structp? = created
        var info = png_create_info_struct(created)
        defer { png_destroy_read_struct(&read, &info, nil) }
        png_set_read_fn(created, Unmanaged.passUnretained(source).toOpaque()) { ptr, out, count in
            let source = Unmanaged<Source>.fromOpaque(png_get_io_ptr(ptr)!).takeUnretainedValue()
            // Valid input only: the test never feeds libpng a truncated file.
            let n = min(count, source.bytes.count - source.position)
            source.bytes.withUnsafeBufferPointer { out!.update(from: $0.baseAddress! + source.position, count: n) }
            source.position += n
        }
        png_read_info(created, info)
        var length: UInt32 = 0
        var pointer: UnsafeMutablePointer<UInt8>?
        guard png_get_eXIf_1(created, info, &length, &pointer) != 0, let pointer else { return nil }
        return Array(UnsafeBufferPointer(start: pointer, count: Int(length)))
    }

    @Test(
        "WebP from libwebp (lossy, lossy with alpha, lossless): EXIF chunk added, demuxer agrees",
        arguments: [(false, false), (false, true), (true, false), (true, true)])
    func libwebpRoundTrip(lossless: Bool, alpha: Bool) throws {
        let (width, height) = (23, 13)
        let rgba = Self.sampleRGBA(width: width, height: height, alpha: alpha)
        var output: UnsafeMutablePointer<UInt8>?
        let size =
            lossless
            ? WebPEncodeLosslessRGBA(rgba, Int32(width), Int32(height), Int32(width * 4), &output)
            : WebPEncodeRGBA(rgba, Int32(width), Int32(height), Int32(width * 4), 80, &output)
        let encodedPointer = try #require(output)
        defer { WebPFree(encodedPointer) }
        let encoded = Data(bytes: encodedPointer, count: size)
        for order in B.ByteOrder.allCases {
            let tiff = B.tiff(orientation: 8, byteOrder: order)
            let webp = B.webp(encoded, addingEXIF: tiff)
            #expect(storedOrientation(webp, .webp) == .left)
            #expect(storedOrientation(encoded, .webp) == nil)
            // libwebp's demuxer validates the container, the VP8X canvas and the flags.
            let chunk = [UInt8](webp).withUnsafeBufferPointer { buffer -> [UInt8]? in
                var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
                guard let demux = WebPDemux(&data) else { return nil }
                defer { WebPDemuxDelete(demux) }
                #expect(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH) == UInt32(width))
                #expect(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT) == UInt32(height))
                #expect(WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & EXIF_FLAG.rawValue != 0)
                var iterator = WebPChunkIterator()
                guard WebPDemuxGetChunk(demux, "EXIF", 1, &iterator) != 0 else { return nil }
                defer { WebPDemuxReleaseChunkIterator(&iterator) }
                return Array(UnsafeBufferPointer(start: iterator.chunk.bytes, count: iterator.chunk.size))
            }
            expectSameBytes(chunk, tiff)
            // The pixels still decode at the same size.
            var w: Int32 = 0, h: Int32 = 0
            let decoded = [UInt8](webp).withUnsafeBufferPointer { WebPDecodeRGBA($0.baseAddress, $0.count, &w, &h) }
            #expect(decoded != nil && w == Int32(width) && h == Int32(height))
            WebPFree(decoded)
        }
    }

    @Test(
        "JPEG from libjpeg: the inserted APP1 is seen by libjpeg and read by us",
        arguments: B.ByteOrder.allCases)
    func libjpegRoundTrip(order: B.ByteOrder) throws {
        let (width, height) = (19, 11)
        let encoded = Self.libjpegEncode(width: width, height: height)
        #expect(storedOrientation(encoded, .jpeg) == nil)  // JFIF APP0 only
        let tiff = B.tiff(orientation: 3, byteOrder: order)
        let jpeg = B.jpeg(encoded, insertingEXIF: tiff)
        #expect(storedOrientation(jpeg, .jpeg) == .down)
        let (app1, size) = Self.libjpegAPP1(jpeg)
        expectSameBytes(app1, B.exifPayload(tiff))
        #expect(size.width == width && size.height == height)
    }

    /// A baseline RGB JPEG of a photo-like sample, written by libjpeg.
    static func libjpegEncode(width: Int, height: Int) -> Data {
        let rgba = sampleRGBA(width: width, height: height, alpha: false)
        let rgb = stride(from: 0, to: rgba.count, by: 4).flatMap { rgba[$0..<($0 + 3)] }
        let errors = UnsafeMutablePointer<jpeg_error_mgr>.allocate(capacity: 1)
        let cinfo = UnsafeMutablePointer<jpeg_compress_struct>.allocate(capacity: 1)
        let buffer = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 1)
        let length = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        defer {
            errors.deallocate()
            cinfo.deallocate()
            buffer.deallocate()
            length.deallocate()
        }
        buffer.pointee = nil
        length.pointee = 0
        cinfo.pointee = jpeg_compress_struct()
        cinfo.pointee.err = jpeg_std_error(errors)
        jpeg_CreateCompress(cinfo, JPEG_LIB_VERSION, MemoryLayout<jpeg_compress_struct>.size)
        jpeg_mem_dest(cinfo, buffer, length)
        cinfo.pointee.image_width = JDIMENSION(width)
        cinfo.pointee.image_height = JDIMENSION(height)
        cinfo.pointee.input_components = 3
        cinfo.pointee.in_color_space = JCS_RGB
        jpeg_set_defaults(cinfo)
        jpeg_set_quality(cinfo, 90, 1)
        jpeg_start_compress(cinfo, 1)
        rgb.withUnsafeBufferPointer { pixels in
            while cinfo.pointee.next_scanline < cinfo.pointee.image_height {
                var row: JSAMPROW? = UnsafeMutablePointer(mutating: pixels.baseAddress! + Int(cinfo.pointee.next_scanline) * width * 3)
                _ = jpeg_write_scanlines(cinfo, &row, 1)
            }
        }
        jpeg_finish_compress(cinfo)
        jpeg_destroy_compress(cinfo)
        let data = Data(bytes: buffer.pointee!, count: Int(length.pointee))
        free(buffer.pointee)
        return data
    }

    /// The first APP1 payload libjpeg saw, and the decoded size (the whole image is decoded).
    static func libjpegAPP1(_ jpeg: Data) -> (payload: [UInt8]?, size: (width: Int, height: Int)) {
        let bytes = [UInt8](jpeg)
        let errors = UnsafeMutablePointer<jpeg_error_mgr>.allocate(capacity: 1)
        let dinfo = UnsafeMutablePointer<jpeg_decompress_struct>.allocate(capacity: 1)
        defer {
            errors.deallocate()
            dinfo.deallocate()
        }
        dinfo.pointee = jpeg_decompress_struct()
        dinfo.pointee.err = jpeg_std_error(errors)
        jpeg_CreateDecompress(dinfo, JPEG_LIB_VERSION, MemoryLayout<jpeg_decompress_struct>.size)
        defer { jpeg_destroy_decompress(dinfo) }
        return bytes.withUnsafeBufferPointer { input in
            jpeg_mem_src(dinfo, input.baseAddress, UInt(input.count))
            jpeg_save_markers(dinfo, JPEG_APP0 + 1, 0xFFFF)
            _ = jpeg_read_header(dinfo, 1)
            var payload: [UInt8]?
            var marker = dinfo.pointee.marker_list
            while let m = marker {
                if m.pointee.marker == UInt8(JPEG_APP0 + 1) {
                    payload = Array(UnsafeBufferPointer(start: m.pointee.data, count: Int(m.pointee.data_length)))
                    break
                }
                marker = m.pointee.next
            }
            _ = jpeg_start_decompress(dinfo)
            let stride = Int(dinfo.pointee.output_width) * Int(dinfo.pointee.output_components)
            var row = [UInt8](repeating: 0, count: stride)
            row.withUnsafeMutableBufferPointer { rowBuffer in
                while dinfo.pointee.output_scanline < dinfo.pointee.output_height {
                    var pointer: JSAMPROW? = rowBuffer.baseAddress
                    _ = jpeg_read_scanlines(dinfo, &pointer, 1)
                }
            }
            let size = (Int(dinfo.pointee.output_width), Int(dinfo.pointee.output_height))
            _ = jpeg_finish_decompress(dinfo)
            return (payload, size)
        }
    }
}
#endif

/// The orientation the standard registry's decoder for `format` reads from `data`: what a
/// decode applies.
private func storedOrientation(_ data: Data, _ format: ImageFormat) -> Orientation? {
    ImageDecoderRegistry.standard.decoder(for: format)?.orientation(in: data, releasingInput: nil)
}
