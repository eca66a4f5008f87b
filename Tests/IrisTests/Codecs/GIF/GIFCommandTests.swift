#if canImport(CGIF)
import Foundation
import Testing
@testable import Iris
import IrisTestSupport

/// `iris info` and `iris frames` on GIFs whose frames have no colour table, and on one whose
/// LZW code size giflib rejects.
@Suite("GIF in the commands")
struct GIFCommandTests {
    @Test("frames without a colour table: info counts 3, frames writes 3 with their delays, exit 0")
    func framesWithoutColourTable() async throws {
        let directory = try CLITestSupport.directory("gif-no-table")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("no-table.gif")
        try GIFConformanceTests.framesWithoutTables().write(to: file)
        #expect(try await CodecCommandRun.infoJSON(file)["frames"] as? Int == 3)
        let out = directory.appendingPathComponent("frames")
        let run = try await CodecCommandRun.iris(["frames", "--out", out.path, file.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.split(separator: "\n") == ["0 100", "1 200", "2 300"])
        #expect(CLITestSupport.fileNames(in: out).count == 3)
    }

    @Test("an LZW code size giflib rejects: info fails naming it, not as truncation")
    func rejectedCodeSize() async throws {
        let directory = try CLITestSupport.directory("gif-lzw")
        defer { try? FileManager.default.removeItem(at: directory) }
        var blocks = GIFBlocks(try GIFConformanceTests.threeFrames())
        blocks.bytes[blocks.images[0].codeSize] = 12
        let file = directory.appendingPathComponent("lzw12.gif")
        try blocks.data.write(to: file)
        let run = try await CodecCommandRun.iris(["info", file.path])
        #expect(run.status != 0)
        #expect(
            run.standardError.contains("LZW minimum code size is 12") && !run.standardError.contains("truncated"), "\(run.standardError)")
    }
}
#endif
