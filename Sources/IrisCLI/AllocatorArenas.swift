import ArgumentParser

#if canImport(CIrisShims)
import CIrisShims
#endif

/// How many malloc arenas the tool's threads share. glibc gives each thread that allocates its
/// own arena, up to 8 a core, and keeps a large freed block in the arena that freed it: a
/// progressive JPEG's coefficient buffers (73 MB for a 12 MP 4:4:4 photo decoded above 1/8; at
/// 1/8 only DC coefficients are kept, about 1 MB) stay resident once per thread that ever decoded
/// one, so one job over eight files peaked at 167 MiB while one decode needs 94. Capped at the
/// number of jobs that decode at once, the blocks are reused (no page faults, unlike returning
/// them to the system after each image), and eight files on one job peak at 99–102 MiB at 800 px
/// (docs/BENCHMARKS.md, "Progressive JPEG").
enum AllocatorArenas {
    /// Caps the arenas at `count` (at least 1); must run before the tool's threads allocate.
    static func limit(to count: Int) {
        #if canImport(CIrisShims)
        _ = iris_limit_malloc_arenas(Int32(max(1, min(count, 64))))
        #endif
    }

    /// The arenas for `command` (parsed): its `--jobs` when it has one, at most `cores`; `cores`
    /// otherwise.
    static func count(for command: (any ParsableCommand)?, cores: Int) -> Int {
        guard let jobs = (command as? any ParallelJobsCommand)?.jobs else { return max(cores, 1) }
        return max(1, min(jobs, cores))
    }
}

/// A command that decodes up to `jobs` images at once.
protocol ParallelJobsCommand {
    /// The most images decoded at once (`--jobs`).
    var jobs: Int { get }
}

extension ThumbnailCommand: ParallelJobsCommand {}
extension SheetCommand: ParallelJobsCommand {}
