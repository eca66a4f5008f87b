import Foundation
import Testing
@testable import Iris

#if canImport(Glibc)
import Glibc
#endif
import IrisTestSupport

/// A tiny PNG whose header chunk claims gigabytes: found truncated before anything is allocated
/// for the claim (libpng allocates a chunk's claimed length before reading it). Measured as the
/// `iris` executable's own behaviour under an address-space limit the claim would pass.
@Suite("PNG chunk claims")
struct PNGChunkClaimTests {
    /// The PNG signature, a 16×16 IHDR, then a `type` chunk header claiming `length` bytes and a
    /// few bytes of it: 52 bytes in all.
    static func claiming(_ type: String, length: UInt32) -> Data {
        Data(
            PNGBytes.signature + PNGBytes.ihdr(width: 16, height: 16) + PNGBytes.be32(length) + Array(type.utf8)
                + Array("Comment\0abc".utf8))
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
            // `iris info` under a 1 GiB address-space limit: an `iris` that allocated the claim
            // (2 GiB) fails to (libpng: "out of memory") instead of saying the file is truncated.
            // The limit is the child's own, whatever this test process holds meanwhile.
            let run = try await Self.irisUnderMemoryLimit(kibibytes: 1 << 20, ["info", file.path], in: directory)
            #expect(
                run.status == 1 && run.stderr.contains("PNG is truncated after 52 bytes"),
                "\(type): exit \(run.status), \(run.stderr)")
        }
    }

    /// Runs `iris arguments` under `ulimit -v kibibytes` and returns its exit status and what it
    /// wrote to standard error, waiting on a thread of its own.
    static func irisUnderMemoryLimit(
        kibibytes: Int, _ arguments: [String], in directory: URL
    ) async throws -> (status: Int32, stderr: String) {
        let executable = try CLITestSupport.irisExecutable().path
        let errors = directory.appendingPathComponent("stderr-\(UUID().uuidString).txt")
        let script = "ulimit -v \(kibibytes) && exec \"$0\" \"$@\" 2>\"\(errors.path)\" >/dev/null"
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            Thread {
                let argv = (["/bin/sh", "-c", script, executable] + arguments).map { strdup($0) } + [nil]
                defer { argv.forEach { free($0) } }
                var pid: pid_t = 0
                let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ)
                guard spawned == 0 else {
                    continuation.resume(throwing: CLITestError("posix_spawn failed: \(spawned)"))
                    return
                }
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                continuation.resume(returning: (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
            }.start()
        }
        return (status, (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }
}
