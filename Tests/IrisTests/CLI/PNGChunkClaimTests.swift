#if DevelopmentTools
import Foundation
import Testing
@testable import Iris

#if canImport(Glibc)
import Glibc
#endif

/// A tiny PNG whose header chunk claims gigabytes: found truncated before anything is allocated
/// for the claim (libpng allocates a chunk's claimed length before reading it).
@Suite("PNG chunk claims")
struct PNGChunkClaimTests {
    /// The PNG signature, a 16×16 IHDR, then a `type` chunk header claiming `length` bytes and a
    /// few bytes of it: 52 bytes in all.
    static func claiming(_ type: String, length: UInt32) -> Data {
        func be(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        let ihdr: [UInt8] = Array("IHDR".utf8) + be(16) + be(16) + [8, 2, 0, 0, 0]
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += be(13) + ihdr + be(CRC32.checksum(ihdr))
        bytes += be(length) + Array(type.utf8) + Array("Comment\0abc".utf8)
        return Data(bytes)
    }

    static let types = ["tEXt", "zTXt", "iTXt", "pCAL", "sCAL", "sPLT", "iCCP"]

    @Test("a 52-byte PNG claiming a 2 GB text (or other header) chunk is truncated, and costs no more than its size")
    func hugeClaims() async throws {
        let directory = try CLITestSupport.directory("chunk-claims")
        defer { try? FileManager.default.removeItem(at: directory) }
        for type in Self.types {
            let data = Self.claiming(type, length: 0x7FFF_FFFF)
            #expect(data.count == 52)
            let error = thrownImageError { _ = try ImageDecoderRegistry.standard.decode(data) }
            guard case .truncated(.png, _, _)? = error else {
                Issue.record("\(type): \(String(describing: error))")
                continue
            }
            let file = directory.appendingPathComponent("\(type).png")
            try data.write(to: file)
            let run = try await CLITestSupport.runIris(["info", file.path])
            #expect(run.status != 0 && run.standardError.contains("truncated"), "\(type): \(run.standardError)")
        }
        // Peak resident memory of the largest child this test process has waited for: an `iris`
        // that allocated the claim would show about 2 GB here.
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        let peakMiB = usage.ru_maxrss / 1024
        #expect(peakMiB < 512, "a child peaked at \(peakMiB) MiB")
    }
}
#endif
