#if canImport(CPNG)
import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// APNGs as the APNG specification 1.0 describes them, decoded as browsers show them: a default
/// image outside the animation, one-frame animations, frame data in many chunks, fcTL before
/// acTL, and broken sequence numbers (shown as the default image, a still).
@Suite("APNG conformance")
struct APNGConformanceTests {
    let registry = ImageDecoderRegistry(decoders: [PNGDecoder()])

    static let red = RGBA(r: 255, g: 0, b: 0), green = RGBA(r: 0, g: 255, b: 0), blue = RGBA(r: 0, g: 0, b: 255)

    static func filled(_ colour: RGBA, _ count: Int) -> [RGBA] { [RGBA](repeating: colour, count: count) }

    /// A red 4×4 default image outside the animation, then a green frame shown 250 ms and
    /// (when `frames` is 2) a blue 2×2 frame at (1, 1).
    static func hiddenDefault(frames: Int) throws -> Data {
        var list = [APNGTestWriter.Frame(width: 4, height: 4, pixels: filled(green, 16), delay: (1, 4))]
        if frames > 1 {
            list.append(APNGTestWriter.Frame(x: 1, y: 1, width: 2, height: 2, pixels: filled(blue, 4), delay: (3, 10)))
        }
        return try APNGTestWriter.apng(width: 4, height: 4, frames: list, defaultImage: filled(red, 16))
    }

    @Test("a default image outside the animation with one fcTL frame: that frame is shown, animated, with its stored duration")
    func hiddenDefaultOneFrame() throws {
        let data = try Self.hiddenDefault(frames: 1)
        try KeptInputs.keep(data, as: "apng-hidden-default-one-frame.png")
        let header = try registry.header(of: data)
        #expect(header.frameCount == 1 && header.isAnimated)
        let image = try registry.decode(data)
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 1)
        #expect(animation.duration(at: 0) == 0.25)
        #expect(image.bitmap.rgba(x: 0, y: 0) == Self.green && image.bitmap.rgba(x: 3, y: 3) == Self.green)
        // The PNG decoder alone (a preview decode, no animation) shows the same first frame.
        let still = try registry.decode(data, options: DecodeOptions(allowsPartialData: true))
        #expect(still.animation == nil && still.bitmap.rgba(x: 2, y: 1) == Self.green)
    }

    @Test("a one-frame APNG whose frame is the default image reports its stored duration")
    func oneFrameDuration() throws {
        let frame = APNGTestWriter.Frame(width: 3, height: 2, pixels: Self.filled(Self.blue, 6), delay: (7, 0))
        let data = try APNGTestWriter.apng(width: 3, height: 2, frames: [frame])
        let header = try registry.header(of: data)
        #expect(header.frameCount == 1 && header.isAnimated)
        let animation = try #require(try registry.decode(data).animation)
        #expect(animation.frameCount == 1 && animation.duration(at: 0) == 0.07)
    }

    @Test("a default image outside a two-frame animation: the header counts the two fcTL frames")
    func hiddenDefaultTwoFrames() async throws {
        let data = try Self.hiddenDefault(frames: 2)
        let header = try registry.header(of: data)
        #expect(header.frameCount == 2 && header.isAnimated)
        let image = try registry.decode(data, options: DecodeOptions(target: DecodeTarget(width: 4, height: 4)))
        let animation = try #require(image.animation)
        #expect(animation.frameCount == header.frameCount)
        #expect(image.bitmap.rgba(x: 1, y: 1) == Self.green)
        let second = try await animation.frame(at: 1)
        #expect(second.rgba(x: 0, y: 0) == Self.green && second.rgba(x: 2, y: 2) == Self.blue)
    }

    @Test("frame data split over several fdAT (and IDAT) chunks, empty ones between, composes exactly as one chunk", arguments: [2, 5])
    func splitFrameData(pieces: Int) async throws {
        let canvas = PixelSize(width: 13, height: 11)
        let frames = Array(APNGAnimationTests.frames(canvas: canvas, seed: 11).prefix(6))
        let whole = try APNGTestWriter.apng(width: canvas.width, height: canvas.height, frames: frames)
        var list = APNGChunkList(whole)
        let before = list.chunks.count
        list.splitDataChunks(into: pieces)
        #expect(list.chunks.count >= before + 2 * frames.count)  // really split, empties included
        #expect(list.chunks.contains { $0.type == "fdAT" && $0.body.count == 4 })
        #expect(list.chunks.contains { $0.type == "IDAT" && $0.body.isEmpty })
        let split = list.data
        try KeptInputs.keep(split, as: "apng-split-fdat-\(pieces).png")
        #expect(try registry.header(of: split).frameCount == frames.count)
        let expected = try await AnimationReference.frames(of: try #require(try registry.decode(whole).animation))
        let animation = try #require(try registry.decode(split).animation)
        #expect(animation.frameCount == frames.count)
        let reference = APNGAnimationTests.reference(frames, canvas: canvas)
        for (index, frame) in try await AnimationReference.frames(of: animation).enumerated() {
            expectSameBytes(frame, expected[index], "frame \(index)")
            #expect(AnimationReference.maxDifference(frame, reference[index]).difference <= 2, "frame \(index)")
        }
    }

    @Test("an fcTL before acTL (valid): the header and the animation count the same frames, with the right pictures")
    func frameControlBeforeAnimationControl() async throws {
        let canvas = PixelSize(width: 9, height: 7)
        let frames = Array(APNGAnimationTests.frames(canvas: canvas, seed: 4).prefix(3))
        let ordered = try APNGTestWriter.apng(width: canvas.width, height: canvas.height, frames: frames)
        var list = APNGChunkList(ordered)
        let acTL = try #require(list.indices(of: "acTL").first)
        let firstFrameControl = try #require(list.indices(of: "fcTL").first)
        #expect(acTL < firstFrameControl && firstFrameControl < list.indices(of: "IDAT")[0])
        let moved = list.chunks.remove(at: acTL)
        list.chunks.insert(moved, at: firstFrameControl)  // now right after the first fcTL
        #expect(list.indices(of: "fcTL")[0] < list.indices(of: "acTL")[0])
        let data = list.data
        try KeptInputs.keep(data, as: "apng-fctl-before-actl.png")
        #expect(try registry.header(of: data).frameCount == 3)
        let animation = try #require(try registry.decode(data).animation)
        #expect(animation.frameCount == 3)
        let expected = try await AnimationReference.frames(of: try #require(try registry.decode(ordered).animation))
        for (index, frame) in try await AnimationReference.frames(of: animation).enumerated() {
            expectSameBytes(frame, expected[index], "frame \(index)")
        }
    }

    /// The ways a file can break the sequence: a gap, a repeat, two fdAT chunks of one frame
    /// swapped (numbers and data out of order), and two frames' chunks swapped whole.
    enum SequenceBreak: String, CaseIterable, Sendable {
        case gap, repeated, swappedData, swappedFrames

        /// `list` (frames in two fdAT chunks each, numbered) broken this way.
        func apply(to list: inout APNGChunkList) {
            let sequenced = list.chunks.indices.filter { APNGChunkList.isSequenced(list.chunks[$0]) }
            switch self {
            case .gap:
                for (offset, index) in sequenced.enumerated() where offset >= 3 { list.setSequence(UInt32(offset + 1), at: index) }
            case .repeated:
                list.setSequence(1, at: sequenced[2])
            case .swappedData:
                let data = list.indices(of: "fdAT")
                list.chunks.swapAt(data[0], data[2])  // the first frame's first and second piece
            case .swappedFrames:
                // The last two frames (fcTL, fdAT, fdAT, fdAT each) change places, numbers and all.
                let controls = list.indices(of: "fcTL")
                let last = Array(list.chunks[controls[2]..<list.indices(of: "IEND")[0]])
                let middle = Array(list.chunks[controls[1]..<controls[2]])
                list.chunks.replaceSubrange(controls[1]..<(controls[1] + middle.count + last.count), with: last + middle)
            }
        }
    }

    /// A hidden red default image and three animation frames whose data is in two fdAT chunks
    /// each (with an empty one between), broken by `kind`.
    static func broken(_ kind: SequenceBreak) throws -> Data {
        var random = SplitMix(seed: 21)
        let frames = (0..<3).map { _ in
            APNGTestWriter.Frame(width: 8, height: 8, pixels: APNGAnimationTests.randomPixels(&random, count: 64), blend: 1)
        }
        var list = APNGChunkList(try APNGTestWriter.apng(width: 8, height: 8, frames: frames, defaultImage: filled(red, 64)))
        list.splitDataChunks(into: 2)
        kind.apply(to: &list)
        return list.data
    }

    @Test(
        "sequence numbers with a gap, a repeat or out of order: the default image, as a still, in the header and the decode",
        arguments: SequenceBreak.allCases)
    func brokenSequence(_ kind: SequenceBreak) throws {
        let data = try Self.broken(kind)
        let numbers = APNGChunkList(data).sequenceNumbers
        #expect(numbers != numbers.indices.map { UInt32($0) }, "the sequence must really be broken")
        try KeptInputs.keep(data, as: "apng-sequence-\(kind.rawValue).png")
        #expect(APNGStructure(data)?.sequenceError != nil)
        let header = try registry.header(of: data)
        #expect(header.frameCount == 1 && !header.isAnimated)
        let image = try registry.decode(data)
        #expect(image.animation == nil)
        #expect(image.bitmap.rgba(x: 0, y: 0) == Self.red && image.bitmap.rgba(x: 7, y: 7) == Self.red)
        #expect(try APNGFrameReader.source(data, limits: .default) == nil)
        // The intact file plays (the control).
        var intact = APNGChunkList(data)
        intact.renumber()
        if kind != .swappedData {
            #expect(try registry.header(of: intact.data).frameCount == 3)
        }
    }
}
#endif
