#if canImport(CPNG)
import Foundation
@testable import Iris
import IrisTestSupport

/// An APNG as a list of chunks, to rebuild it with chunks moved, split or renumbered: the
/// conformance cases the APNG specification describes, made from files ``APNGTestWriter``
/// writes with libpng's compressed data.
struct APNGChunkList {
    /// One chunk: its type and its data (CRC recomputed when written).
    struct Chunk {
        var type: String
        var body: [UInt8]
    }

    var chunks: [Chunk]

    init(_ data: Data) {
        let bytes = [UInt8](data)
        chunks = PNGBytes.chunks(data).map { Chunk(type: $0.type, body: Array(bytes[$0.dataRange])) }
    }

    /// The PNG: signature, then every chunk with its CRC.
    var data: Data {
        var out = PNGSampleImage.signature
        for chunk in chunks { out += PNGBytes.chunk(chunk.type, chunk.body) }
        return Data(out)
    }

    /// Indices of the chunks of `type`.
    func indices(of type: String) -> [Int] {
        chunks.indices.filter { chunks[$0].type == type }
    }

    /// Whether a chunk carries a sequence number (fcTL, fdAT).
    static func isSequenced(_ chunk: Chunk) -> Bool { chunk.type == "fcTL" || chunk.type == "fdAT" }

    /// The sequence numbers of the fcTL and fdAT chunks, in file order.
    var sequenceNumbers: [UInt32] {
        chunks.filter(Self.isSequenced).map { chunk in
            chunk.body.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
        }
    }

    /// Numbers the fcTL and fdAT chunks 0, 1, 2… in file order, as the specification wants.
    mutating func renumber() {
        var next: UInt32 = 0
        for index in chunks.indices where Self.isSequenced(chunks[index]) {
            setSequence(next, at: index)
            next += 1
        }
    }

    /// Sets the sequence number of the chunk at `index`.
    mutating func setSequence(_ number: UInt32, at index: Int) {
        chunks[index].body.replaceSubrange(0..<4, with: PNGBytes.be32(number))
    }

    /// Splits every fdAT (and the IDAT) chunk's data into `pieces` chunks, an empty chunk (an
    /// fdAT with its sequence number only, a zero-length IDAT) between each two, then numbers
    /// the sequence again.
    mutating func splitDataChunks(into pieces: Int) {
        var out: [Chunk] = []
        for chunk in chunks {
            guard chunk.type == "fdAT" || chunk.type == "IDAT" else {
                out.append(chunk)
                continue
            }
            let header = chunk.type == "fdAT" ? Array(chunk.body.prefix(4)) : []
            let payload = Array(chunk.body.dropFirst(header.count))
            let size = max(1, (payload.count + pieces - 1) / pieces)
            var start = 0
            while start < payload.count {
                if start > 0 { out.append(Chunk(type: chunk.type, body: header)) }  // empty
                let end = min(payload.count, start + size)
                out.append(Chunk(type: chunk.type, body: header + payload[start..<end]))
                start = end
            }
        }
        chunks = out
        renumber()
    }
}
#endif
