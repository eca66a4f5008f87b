#if canImport(CPNG)
import Foundation

/// What a walk over an APNG's chunks finds (APNG specification 1.0): the image header, the
/// chunks every frame's stream needs (PLTE, tRNS), the animation control, and each frame's
/// control with the byte ranges of its compressed data (IDAT bodies for a default image that is
/// part of the animation, fdAT bodies after their sequence numbers otherwise).
///
/// As the specification reads:
/// - The file is an APNG when an acTL chunk comes before the first IDAT. The fcTL of a default
///   image that is part of the animation comes before the first IDAT too, before or after acTL
///   (both orders are valid).
/// - The default image is the first frame only when an fcTL precedes the first IDAT; otherwise
///   it is a fallback for decoders without APNG support, and the animation starts at the first
///   fcTL after it (its data in fdAT chunks). acTL's `num_frames` counts the animation's frames,
///   so it excludes such a default image.
/// - A frame's data may be split over any number of IDAT or fdAT chunks, empty ones included;
///   they are concatenated.
/// - fcTL and fdAT chunks carry one sequence of numbers from 0 with no gaps, repeats or
///   reordering. A file that breaks it is shown as its default image, a still, as the
///   specification asks of chunks out of order: ``sequenceError`` says why, and there are no
///   ``frames``.
///
/// No pixel is decoded here; libpng decodes each frame later from a stream made of these
/// pieces.
struct APNGStructure: Sendable {
    /// One frame: its fcTL fields and where its compressed data is.
    struct Frame: Sendable {
        var width: Int, height: Int, x: Int, y: Int
        var delayNumerator: Int, delayDenominator: Int
        /// 0 NONE, 1 BACKGROUND, 2 PREVIOUS.
        var disposeOp: UInt8
        /// 0 SOURCE, 1 OVER.
        var blendOp: UInt8
        /// Non-empty byte ranges of the frame's compressed data, in order.
        var data: [Range<Int>] = []
        /// Whether the data is the default image's (IDAT).
        var isDefaultImage = false
    }

    /// The 13 bytes of IHDR.
    var header: [UInt8] = []
    /// Whole PLTE and tRNS chunks (length to CRC), copied into every frame's stream.
    var sharedChunks: [Range<Int>] = []
    /// acTL num_frames and num_plays.
    var declaredFrames = 0
    var plays = 0
    /// The frames whose data is complete (followed by another fcTL or by IEND), at most
    /// `declaredFrames` of them; none when the sequence numbers are broken.
    var frames: [Frame] = []
    /// Whether the default (IDAT) image is the first frame; `false` when it is a fallback only.
    var defaultImageIsFirstFrame = false
    /// Why the fcTL/fdAT sequence numbers are broken, when they are.
    var sequenceError: String?

    var canvas: PixelSize {
        PixelSize(width: Int(Self.u32(header, 0)), height: Int(Self.u32(header, 4)))
    }

    /// Colour type without alpha and without tRNS: every pixel opaque.
    var isOpaque: Bool {
        let colourType = header.count > 9 ? header[9] : 6
        return colourType & 4 == 0 && !sharedChunkTypes.contains("tRNS")
    }

    /// Whether the file plays as an animation: at least one complete frame, sequence intact.
    var isAnimated: Bool { !frames.isEmpty }

    /// The types of ``sharedChunks``.
    private var sharedChunkTypes: [String] = []

    /// Walks `data`; `nil` when it is not an APNG (no acTL before the first IDAT).
    init?(_ data: Data) {
        guard data.withUnsafeBytes({ read(PNGChunks($0)) }) else { return nil }
    }

    /// Reads the structure from `chunks`; whether they are an APNG's.
    private mutating func read(_ chunks: PNGChunks) -> Bool {
        var isAnimated = false
        var seenIDAT = false
        /// The frame whose data chunks are being read: after its fcTL, before the next.
        var current: Frame?
        var expectedSequence: UInt32 = 0
        var ended = false
        for chunk in chunks {
            guard chunk.isComplete else { break }  // cut short
            let (body, length) = (chunk.body, chunk.length)
            /// Checks the sequence number at the body's start against the next one expected.
            func sequence(_ type: String) {
                let number = chunks.u32(at: body)
                if sequenceError == nil, number != expectedSequence {
                    sequenceError = "\(type) sequence number \(number) where \(expectedSequence) was due"
                }
                expectedSequence &+= 1
            }
            switch chunk.type {
            case PNGChunks.IHDR where length >= 13:
                header = [UInt8](chunks.bytes[body..<(body + 13)])
            case PNGChunks.PLTE, PNGChunks.tRNS:
                if !seenIDAT {
                    sharedChunks.append(chunk.start..<chunk.end)
                    sharedChunkTypes.append(chunk.type == PNGChunks.PLTE ? "PLTE" : "tRNS")
                }
            case PNGChunks.acTL where length >= 8 && !seenIDAT:
                isAnimated = true
                declaredFrames = Int(chunks.u32(at: body))
                plays = Int(chunks.u32(at: body + 4))
            case PNGChunks.fcTL where length >= 26:
                sequence("fcTL")
                if let done = current { frames.append(done) }
                current = Frame(
                    width: Int(chunks.u32(at: body + 4)), height: Int(chunks.u32(at: body + 8)),
                    x: Int(chunks.u32(at: body + 12)), y: Int(chunks.u32(at: body + 16)),
                    delayNumerator: chunks.u16(at: body + 20), delayDenominator: chunks.u16(at: body + 22),
                    disposeOp: chunks.bytes[body + 24], blendOp: chunks.bytes[body + 25])
            case PNGChunks.IDAT:
                if !seenIDAT {
                    // An fcTL before the first IDAT makes the default image frame 0.
                    defaultImageIsFirstFrame = current != nil
                    current?.isDefaultImage = true
                    seenIDAT = true
                }
                if current?.isDefaultImage == true, length > 0 { current?.data.append(body..<(body + length)) }
            case PNGChunks.fdAT where length >= 4:
                sequence("fdAT")
                if current?.isDefaultImage == false, length > 4 { current?.data.append((body + 4)..<(body + length)) }
            case PNGChunks.IEND:
                ended = true
            default:
                break
            }
            if ended { break }
        }
        guard isAnimated, !header.isEmpty else { return false }
        if ended, let done = current { frames.append(done) }
        if sequenceError != nil {
            frames = []
            return true
        }
        frames.removeAll { $0.data.isEmpty || $0.width <= 0 || $0.height <= 0 }
        if frames.count > declaredFrames { frames.removeLast(frames.count - declaredFrames) }
        return true
    }

    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        guard bytes.count >= at + 4 else { return 0 }
        return UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }
}
#endif
