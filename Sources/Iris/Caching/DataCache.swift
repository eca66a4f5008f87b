import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A disk cache of original encoded data and what HTTP said about it: one file per key,
/// crash-safe, with a hard size limit.
///
/// - Each file is named after a 128-bit hash of its key and carries a header with the key, the
///   HTTP metadata (``HTTPCacheMetadata``: validators, freshness), the payload length and
///   checksums (see `DataCacheEntryFile`). A read verifies all of it: a torn, truncated or
///   damaged file is deleted and reported as a miss, never returned, and bytes never come back
///   with another response's metadata. Files of the format before metadata are read as entries
///   without it.
/// - ``store(_:for:)`` returns at once; a serial background queue writes a temporary file in the
///   same directory and renames it into place, so a crash (even `kill -9`) leaves either the
///   old entry, the new one, or none, never a partial one. Until the write lands, reads of that
///   key return the pending data.
/// - After each write, if the files total more than ``sizeLimit``, the least recently read or
///   written entries are deleted until they total at most ``trimmedSize``. Access order lives
///   in memory, is seeded from file modification times when the cache opens, and reads refresh
///   the file's modification time so the order survives restarts.
/// - Temporary files left by a crash are removed when the cache opens.
/// - A write that fails (the disk is full, the directory read-only) stores nothing and drops
///   any older entry for the key (one whose file cannot be deleted stays as it was); the size
///   accounting matches the files left, and reads never see a partial entry. If the directory
///   was deleted while the cache is open, the next write makes it again (entries that went
///   with it are forgotten, and reads of them are misses).
///
/// Use one `DataCache` per directory within a process; it is safe to use from any thread.
public final class DataCache: DataCaching, Sendable {
    /// The directory the entries live in.
    public let directory: URL
    /// The most bytes the entry files may take in total (headers included).
    public let sizeLimit: Int
    /// What a trim after going over ``sizeLimit`` brings the total down to: 90% of the limit.
    public var trimmedSize: Int { sizeLimit / 10 * 9 }
    /// Whether each write is flushed to the device (`fsync`) before it is renamed into place.
    /// Without it a power loss may lose recent entries, but the checksums still keep damaged
    /// ones from being returned.
    public let synchronizesWrites: Bool

    private struct PendingWrite {
        var sequence: UInt64
        var entry: DataCacheEntry
        /// The entry's metadata as the file stores it, serialised once.
        var metadata: [UInt8]
    }

    private struct State {
        /// File name → size in bytes, in access order.
        var index = LRUList<String, Void>()
        /// Data waiting to be written, by key.
        var pending: [String: PendingWrite] = [:]
        var nextSequence: UInt64 = 0
    }

    private let state: LockedState<State>
    private let queue = DispatchQueue(label: "Iris.DataCache.writes", qos: .utility)
    private let directoryPath: String

    static let temporaryPrefix = ".tmp-"

    /// Opens (creating if needed) a cache in `directory`.
    /// - Parameters:
    ///   - directory: Where the entry files live.
    ///   - sizeLimit: The most bytes the entries may take; 150 MiB by default.
    ///   - synchronizesWrites: Whether to `fsync` each entry before renaming it into place.
    /// - Throws: ``ImageError/dataLoadingFailed(reason:cause:)`` when the directory cannot be created
    ///   or read.
    public init(directory: URL, sizeLimit: Int = 150 * 1024 * 1024, synchronizesWrites: Bool = false) throws {
        self.directory = directory
        self.directoryPath = directory.standardizedFileURL.path
        self.sizeLimit = max(0, sizeLimit)
        self.synchronizesWrites = synchronizesWrites
        let manager = FileManager.default
        let names: [String]
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            names = try manager.contentsOfDirectory(atPath: directoryPath)
        } catch {
            throw ImageError.dataLoadingFailed(reason: "cannot open the disk cache at \(directoryPath): \(error.localizedDescription)")
        }
        var entries: [(name: String, size: Int, modified: Double)] = []
        for name in names {
            let path = directoryPath + "/" + name
            if name.hasPrefix(Self.temporaryPrefix) {
                unlink(path)
                continue
            }
            guard Self.isEntryName(name), let attributes = try? manager.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                let size = (attributes[.size] as? NSNumber)?.intValue
            else { continue }
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSinceReferenceDate ?? 0
            entries.append((name, size, modified))
        }
        var index = LRUList<String, Void>()
        for entry in entries.sorted(by: { $0.modified < $1.modified }) {
            index.set((), cost: entry.size, for: entry.name)
        }
        var victims: [String] = []
        if index.totalCost > self.sizeLimit {
            let target = self.sizeLimit / 10 * 9
            while index.totalCost > target, let victim = index.removeLeastRecent() { victims.append(victim.key) }
        }
        for victim in victims { unlink(directoryPath + "/" + victim) }
        state = LockedState(State(index: index))
    }

    // MARK: - DataCaching

    /// The entry for `key` if present and intact (pending writes included); a read makes the
    /// entry the most recently used. A damaged file is deleted and reported as a miss.
    public func entry(for key: String) -> DataCacheEntry? {
        let name = Self.fileName(for: key)
        enum Lookup { case pending(DataCacheEntry), onDisk, absent }
        let lookup = state.withLock { state -> Lookup in
            if let pending = state.pending[key] { return .pending(pending.entry) }
            return state.index.touch(name) ? .onDisk : .absent
        }
        switch lookup {
        case .pending(let entry): return entry
        case .absent: return nil
        case .onDisk: break
        }
        let path = path(for: name)
        switch DataCacheEntryFile.read(from: path, key: Array(key.utf8)) {
        case .hit(let entry):
            return entry
        case .otherKey:
            return nil
        case .missing:
            // Gone behind our back: forget it, unless a write has just put it back (renames
            // happen under the lock, so checking under the lock is decisive).
            state.withLock { state in
                if DataCacheEntryFile.inode(at: path) == nil { state.index.remove(name) }
            }
            return nil
        case .corrupt(let inode):
            // Delete only the damaged file, not one a write renamed into place meanwhile.
            state.withLock { state in
                if DataCacheEntryFile.inode(at: path) == inode {
                    unlink(path)
                    state.index.remove(name)
                }
            }
            return nil
        }
    }

    /// Stores `entry` for `key` without blocking: the write happens on a background queue, and
    /// until it lands reads of `key` return `entry`. An entry whose file would exceed
    /// ``sizeLimit`` is not stored (and an older entry for `key` is removed).
    public func store(_ entry: DataCacheEntry, for key: String) {
        let keyBytes = Array(key.utf8)
        let metadata = entry.metadata?.serialized ?? []
        guard
            DataCacheEntryFile.fileSize(keyCount: keyBytes.count, metadataCount: metadata.count, payloadCount: entry.data.count)
                <= sizeLimit
        else {
            remove(for: key)
            return
        }
        let sequence = state.withLock { state -> UInt64 in
            state.nextSequence += 1
            state.pending[key] = PendingWrite(sequence: state.nextSequence, entry: entry, metadata: metadata)
            return state.nextSequence
        }
        queue.async { [self] in write(key: key, keyBytes: keyBytes, sequence: sequence) }
    }

    /// Removes the entry for `key` (and any pending write of it).
    public func remove(for key: String) {
        let name = Self.fileName(for: key)
        state.withLock { state in
            state.pending[key] = nil
            state.index.remove(name)
        }
        let path = path(for: name)
        queue.async { unlink(path) }
    }

    /// Removes every entry (and every pending write).
    public func removeAll() {
        state.withLock { state in
            state.pending.removeAll()
            _ = state.index.removeAll()
        }
        let directoryPath = directoryPath
        queue.async {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directoryPath)) ?? []
            for name in names where Self.isEntryName(name) || name.hasPrefix(Self.temporaryPrefix) {
                unlink(directoryPath + "/" + name)
            }
        }
    }

    // MARK: - Inspection

    /// Bytes the entry files take (written entries only, not pending ones).
    public var totalSize: Int { state.withLock { $0.index.totalCost } }

    /// Number of entries on disk (written entries only).
    public var count: Int { state.withLock { $0.index.count } }

    /// Waits, suspending, until every write and removal requested so far has reached the disk.
    public func waitForPendingWrites() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    /// The same wait, blocking the calling thread: for code that cannot suspend. Do not call it
    /// from the cache's own queue (there is no way to get there from outside), nor from async
    /// code, where it would hold one of the cooperative pool's few threads (the compiler says so).
    @available(*, noasync, message: "blocks a cooperative thread; use await waitForPendingWrites()")
    public func waitForPendingWritesBlocking() {
        queue.sync {}
    }

    /// The file holding `key`'s entry (whether or not it exists).
    public func fileURL(for key: String) -> URL {
        URL(fileURLWithPath: path(for: Self.fileName(for: key)))
    }

    /// File names of the entries, most recently used first (for tests and diagnostics).
    var fileNamesByRecency: [String] { state.withLock { $0.index.keysByRecency } }

    // MARK: - Writing

    /// Runs on the queue: writes the pending data of `key` if it is still the latest.
    private func write(key: String, keyBytes: [UInt8], sequence: UInt64) {
        let pending = state.withLock { state in
            state.pending[key].flatMap { $0.sequence == sequence ? $0 : nil }
        }
        guard let pending else { return }  // superseded or removed meanwhile
        let (entry, metadata) = (pending.entry, pending.metadata)
        let name = Self.fileName(for: key)
        let finalPath = path(for: name)
        let temporaryPath = path(for: Self.temporaryPrefix + UUID().uuidString)
        let size = DataCacheEntryFile.fileSize(keyCount: keyBytes.count, metadataCount: metadata.count, payloadCount: entry.data.count)
        func writeFile() -> Int32 {
            DataCacheEntryFile.write(
                to: temporaryPath, key: keyBytes, metadata: metadata, payload: entry.data, synchronize: synchronizesWrites)
        }
        var status = writeFile()
        if status == ENOENT, recreateDirectory() { status = writeFile() }
        var victims: [String] = []
        let committed = state.withLock { state -> Bool in
            guard state.pending[key]?.sequence == sequence else { return false }
            state.pending[key] = nil
            guard status == 0, rename(temporaryPath, finalPath) == 0 else {
                // Not stored; drop an older entry too rather than serve stale data. If its file
                // cannot be deleted either (a read-only directory), it stays, intact and counted:
                // the cache would find it again when next opened anyway.
                if state.index.contains(name), unlink(finalPath) == 0 || errno == ENOENT { state.index.remove(name) }
                return false
            }
            state.index.set((), cost: size, for: name)
            if state.index.totalCost > sizeLimit {
                let target = trimmedSize
                while state.index.totalCost > target, let victim = state.index.removeLeastRecent() {
                    victims.append(victim.key)
                }
            }
            return true
        }
        if !committed {
            unlink(temporaryPath)
            return
        }
        if synchronizesWrites { synchronizeDirectory() }
        // Only this queue renames files into place, so no new file can appear under these
        // names before they are deleted.
        for victim in victims { unlink(path(for: victim)) }
    }

    /// Runs on the queue after a write found no directory: it was deleted behind the cache's
    /// back, and every entry with it. Forgets them and makes the directory again; `false` when
    /// the directory is there after all or cannot be made.
    private func recreateDirectory() -> Bool {
        guard DataCacheEntryFile.inode(at: directoryPath) == nil else { return false }
        state.withLock { _ = $0.index.removeAll() }
        return (try? FileManager.default.createDirectory(atPath: directoryPath, withIntermediateDirectories: true)) != nil
    }

    private func synchronizeDirectory() {
        let descriptor = open(directoryPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    // MARK: - Names

    private func path(for name: String) -> String { directoryPath + "/" + name }

    /// The file name for `key`: 32 hex digits of its 128-bit FNV-1a hash.
    static func fileName(for key: String) -> String { FNV1a128.hexHash(key) }

    /// Whether `name` looks like an entry file.
    static func isEntryName(_ name: String) -> Bool {
        name.utf8.count == 32 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
