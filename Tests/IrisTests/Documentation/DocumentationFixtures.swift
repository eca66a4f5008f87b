import Foundation
import Iris
import IrisSamples
import IrisTestSupport

/// Real inputs for the documentation's snippets: photo-like images written by Iris's own
/// encoders into a directory of their own, removed when the fixture goes.
final class DocumentationFixtures {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("iris-doc-snippets-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A photo-like PNG file named `name`.
    func pngFile(_ name: String, width: Int, height: Int, seed: UInt64 = 1) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try TestImages.png(width: width, height: height, seed: seed).write(to: url)
        return url
    }

    /// An animated WebP file of `frames` photo-like frames of `width`×`height`, 100 ms each.
    func animatedWebPFile(_ name: String, width: Int, height: Int, frames: Int) async throws -> URL {
        let bitmaps = (0..<frames).map { SampleImages.photo(width: width, height: height, seed: UInt64($0 + 1)) }
        let animation = Animation(frames: bitmaps, durations: Array(repeating: 0.1, count: frames))
        let data = try await ImageEncoders.animationEncoder(for: .webp)!.encode(animation, options: EncodeOptions(quality: 90))
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    /// A GIF written byte by byte from the GIF89a spec: a logical screen of `width`×`height`
    /// pixels (a claim: the file is 35 bytes) with one black 1×1 image in its corner.
    static func gifClaiming(width: Int, height: Int) -> Data {
        var bytes = Array("GIF89a".utf8)
        bytes += [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)]
        bytes += [0x80, 0x00, 0x00]  // a global colour table of 2 entries
        bytes += [0, 0, 0, 255, 255, 255]  // black, white
        bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00]  // image descriptor: at 0,0, 1×1, no local table
        // LZW, minimum code size 2: the codes clear (4), index 0, end (5) in 3 bits each,
        // least significant bit first, in one 2-byte sub-block.
        bytes += [0x02, 0x02, 0x44, 0x01, 0x00]
        bytes += [0x3B]  // trailer
        return Data(bytes)
    }
}

/// A stand-in for an app's asset store: encoded bytes by id, counting the loads.
actor DocumentationAssetStore {
    private(set) var loads = 0

    func data(for id: Int) async throws -> Data {
        loads += 1
        return try TestImages.png(width: 640, height: 480, seed: UInt64(id))
    }
}
