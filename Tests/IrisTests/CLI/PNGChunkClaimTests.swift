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
            let run = try await Self.peakOfIris(["info", file.path])
            // An `iris` that allocated the claim peaks above 2 GiB. On Linux a spawned child's
            // peak starts at its parent's (the peak is carried across exec), and this test
            // process peaks at a few hundred MiB while the suite runs: the bound sits between.
            #expect(run.status != 0 && run.peakMiB < 1536, "\(type): exit \(run.status), peak \(run.peakMiB) MiB")
        }
    }

    /// Runs `iris arguments` (output discarded) and returns its exit status and the peak resident
    /// memory `wait4` reports for that one process, waiting on a thread of its own.
    static func peakOfIris(_ arguments: [String]) async throws -> (status: Int32, peakMiB: Int) {
        let executable = try CLITestSupport.irisExecutable().path
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                var actions = posix_spawn_file_actions_t()
                posix_spawn_file_actions_init(&actions)
                defer { posix_spawn_file_actions_destroy(&actions) }
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
                let argv = ([executable] + arguments).map { strdup($0) } + [nil]
                defer { argv.forEach { free($0) } }
                var pid: pid_t = 0
                let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
                guard spawned == 0 else {
                    continuation.resume(throwing: CLITestError("posix_spawn failed: \(spawned)"))
                    return
                }
                var status: Int32 = 0
                var usage = rusage()
                while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
                let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
                continuation.resume(returning: (exitStatus, usage.ru_maxrss / 1024))
            }.start()
        }
    }
}
#endif
