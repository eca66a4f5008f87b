import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file mapped read-only into memory, so a decoder can read a large file without copying it,
/// and give back the pages it has read.
///
/// Pages of a file mapping that have been read count toward the process's resident memory until
/// they are released; ``releasePages(before:)`` drops them (they would be read again from the
/// file if touched), so a decoder streaming through a 100 MB PNG keeps only a few megabytes of
/// it resident.
final class MappedFile: @unchecked Sendable {
    /// The file's bytes, over the mapping (no copy). The mapping lives as long as this value.
    let data: Data
    private let base: UnsafeMutableRawPointer?
    private let released = LockedState(0)

    /// Pages are released in steps of at least this many bytes.
    static let releaseStep = 4 << 20

    /// Maps the file at `url`.
    init(_ url: URL) throws(ImageError) {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw Self.error(url, "cannot open") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.error(url, "cannot stat") }
        let size = Int(status.st_size)
        guard size > 0 else {
            base = nil
            data = Data()
            return
        }
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED else {
            throw Self.error(url, "cannot map")
        }
        base = mapping
        data = Data(
            bytesNoCopy: mapping, count: size,
            deallocator: .custom { pointer, count in
                munmap(pointer, count)
            })
    }

    /// Drops the resident pages wholly before `offset` once another ``releaseStep`` has been
    /// read since the last release. Safe to call often; a smaller `offset` than last time starts
    /// a new pass over the file.
    func releasePages(before offset: Int) {
        guard let base else { return }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let end = min(offset, data.count) / pageSize * pageSize
        let start = released.withLock { released -> Int? in
            // A reader starting over from the top (the decoder after the EXIF walk) begins a
            // new pass: what it reads again is released again.
            if end < released { released = 0 }
            guard end - released >= Self.releaseStep else { return nil }
            defer { released = end }
            return released
        }
        guard let start else { return }
        _ = madvise(base + start, end - start, MADV_DONTNEED)
    }

    private static func error(_ url: URL, _ what: String) -> ImageError {
        .dataLoadingFailed(reason: "\(what) \(url.path): \(String(cString: strerror(errno)))")
    }
}
