import Foundation
import Testing

@testable import IrisCLI

/// The malloc arenas `iris` allows: as many as the images its command decodes at once.
@Suite("CLI allocator arenas")
struct AllocatorArenasTests {
    @Test("a command's --jobs caps the arenas, at most the cores; other commands get the cores")
    func arenasFollowJobs() {
        #expect(AllocatorArenas.count(for: ["thumbnail", "--jobs", "1", "a.jpg"], cores: 4) == 1)
        #expect(AllocatorArenas.count(for: ["thumbnail", "--jobs=3", "a.jpg"], cores: 4) == 3)
        #expect(AllocatorArenas.count(for: ["sheet", "--jobs", "2", "a.jpg"], cores: 4) == 2)
        #expect(AllocatorArenas.count(for: ["thumbnail", "--jobs", "16", "a.jpg"], cores: 4) == 4)
        // --jobs defaults to this machine's cores.
        let defaultJobs = ProcessInfo.processInfo.activeProcessorCount
        #expect(AllocatorArenas.count(for: ["thumbnail", "a.jpg"], cores: 64) == min(defaultJobs, 64))
        #expect(AllocatorArenas.count(for: ["convert", "a.jpg", "b.png"], cores: 4) == 4)
        #expect(AllocatorArenas.count(for: ["thumbnail", "--jobs", "0", "a.jpg"], cores: 4) == 4)  // refused later
        #expect(AllocatorArenas.count(for: ["--help"], cores: 2) == 2)
    }
}

extension AllocatorArenas {
    /// The arenas for the command `arguments` name, parsed as `iris` parses them (arguments that
    /// do not parse get `cores`: the command reports those itself).
    fileprivate static func count(for arguments: [String], cores: Int) -> Int {
        count(for: try? IrisCommand.parseAsRoot(arguments), cores: cores)
    }
}
