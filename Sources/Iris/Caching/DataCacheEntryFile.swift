import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file format of one disk-cache entry, and reading and writing it with POSIX calls.
///
/// Layout (little-endian):
///
/// | offset   | size | field                                                       |
/// |---------:|-----:|-------------------------------------------------------------|
/// |        0 |    4 | magic `IRDC`                                                |
/// |        4 |    2 | format version (2; 1 is read too)                           |
/// |        6 |    2 | flags (0)                                                   |
/// |        8 |    4 | key length in bytes                                         |
/// |       12 |    4 | CRC-32 of the payload                                       |
/// |       16 |    8 | payload length in bytes                                     |
/// |       24 |    4 | CRC-32 of bytes 0..<24 and 28..<32, the key and the metadata |
/// |       28 |    4 | metadata length in bytes (version 1: reserved, 0)           |
/// |       32 |    k | the key, UTF-8                                              |
/// |     32+k |    m | the HTTP metadata (``HTTPCacheMetadata/serialized``)        |
/// |   32+k+m |    n | the payload                                                 |
///
/// A file is valid only if its size is exactly `32 + k + m + n` and both checksums and the key
/// match, so a torn, truncated or damaged file is never mistaken for an entry, and the bytes
/// and their metadata are always those written together. Version 1 (before metadata; its
/// header checksum covers bytes 0..<24 and the key) is read as an entry without metadata.
enum DataCacheEntryFile {
    static let magic: [UInt8] = Array("IRDC".utf8)
    static let version: UInt16 = 2
    /// The version written before entries carried metadata: still read.
    static let versionWithoutMetadata: UInt16 = 1
    static let headerSize = 32

    /// What reading an entry file found.
    enum ReadResult {
        /// The payload and its metadata, intact and stored for the expected key.
        case hit(DataCacheEntry)
        /// There is no such file.
        case missing
        /// The file is intact but holds another key (a hash collision).
        case otherKey
        /// The file is damaged; `inode` identifies it so only this file is deleted.
        case corrupt(inode: UInt64)
    }

    /// Size of the file holding `payloadCount` bytes and `metadataCount` bytes of metadata for
    /// a key of `keyCount` UTF-8 bytes.
    static func fileSize(keyCount: Int, metadataCount: Int = 0, payloadCount: Int) -> Int {
        headerSize + keyCount + metadataCount + payloadCount
    }

    /// The header followed by the key and the metadata.
    static func header(key: [UInt8], metadata: [UInt8], payload: Data) -> [UInt8] {
        var bytes = magic
        append(version, to: &bytes)
        append(UInt16(0), to: &bytes)
        append(UInt32(key.count), to: &bytes)
        append(payload.withUnsafeBytes { CRC32.checksum($0) }, to: &bytes)
        append(UInt64(payload.count), to: &bytes)
        // The header's CRC covers the fields before it, then the metadata's length, the key and
        // the metadata that follow it: one pass over them, the CRC then put in its place.
        let crcOffset = bytes.count
        append(UInt32(metadata.count), to: &bytes)
        bytes += key
        bytes += metadata
        var headerCRC: [UInt8] = []
        append(CRC32.checksum(bytes), to: &headerCRC)
        bytes.insert(contentsOf: headerCRC, at: crcOffset)
        return bytes
    }

    /// Writes a new file at `path` (which must not exist). Returns `0`, or the `errno` of the
    /// failing call; on failure the caller removes the file.
    static func write(to path: String, key: [UInt8], metadata: [UInt8], payload: Data, synchronize: Bool) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return errno }
        var status = writeAll(descriptor, header(key: key, metadata: metadata, payload: payload))
        if status == 0 { status = payload.withUnsafeBytes { writeAll(descriptor, $0) } }
        if status == 0, synchronize, fsync(descriptor) != 0 { status = errno }
        if close(descriptor) != 0, status == 0 { status = errno }
        return status
    }

    /// Reads and verifies the entry at `path` for `key`. On a hit the file's access time is
    /// refreshed (its modification time, which orders entries after a restart).
    static func read(from path: String, key: [UInt8], touch: Bool = true) -> ReadResult {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .missing }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .missing }
        let inode = UInt64(info.st_ino)
        let size = Int(info.st_size)
        guard size >= headerSize else { return .corrupt(inode: inode) }

        var header = [UInt8](repeating: 0, count: headerSize)
        guard header.withUnsafeMutableBytes({ readAll(descriptor, into: $0, at: 0) }) else { return .corrupt(inode: inode) }
        let fileVersion = load(UInt16.self, header, 4)
        guard Array(header[0..<4]) == magic, fileVersion == version || fileVersion == versionWithoutMetadata,
            load(UInt16.self, header, 6) == 0
        else {
            return .corrupt(inode: inode)
        }
        let keyCount = Int(load(UInt32.self, header, 8))
        let payloadCRC = load(UInt32.self, header, 12)
        let payloadLength = load(UInt64.self, header, 16)
        let headerCRC = load(UInt32.self, header, 24)
        let metadataCount = Int(load(UInt32.self, header, 28))
        guard fileVersion == version || metadataCount == 0, payloadLength <= UInt64(Int.max / 2),
            size == fileSize(keyCount: keyCount, metadataCount: metadataCount, payloadCount: Int(payloadLength))
        else {
            return .corrupt(inode: inode)
        }
        var keyAndMetadata = [UInt8](repeating: 0, count: keyCount + metadataCount)
        guard keyAndMetadata.withUnsafeMutableBytes({ readAll(descriptor, into: $0, at: headerSize) }) else {
            return .corrupt(inode: inode)
        }
        let checkedHeader =
            fileVersion == version
            ? CRC32.checksum(header[28..<32], continuing: CRC32.checksum(header[0..<24])) : CRC32.checksum(header[0..<24])
        guard CRC32.checksum(keyAndMetadata, continuing: checkedHeader) == headerCRC else { return .corrupt(inode: inode) }
        let metadata: HTTPCacheMetadata?
        if metadataCount > 0 {
            guard let read = HTTPCacheMetadata(serialized: keyAndMetadata[keyCount...]) else { return .corrupt(inode: inode) }
            metadata = read
        } else {
            metadata = nil
        }
        var payload = Data(count: Int(payloadLength))
        let intact = payload.withUnsafeMutableBytes { buffer in
            readAll(descriptor, into: buffer, at: headerSize + keyCount + metadataCount)
                && CRC32.checksum(UnsafeRawBufferPointer(buffer)) == payloadCRC
        }
        guard intact else { return .corrupt(inode: inode) }
        guard keyAndMetadata.prefix(keyCount).elementsEqual(key) else { return .otherKey }
        if touch { _ = futimens(descriptor, nil) }
        return .hit(DataCacheEntry(data: payload, metadata: metadata))
    }

    /// The inode of the file at `path`, if it exists.
    static func inode(at path: String) -> UInt64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt64(info.st_ino)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func load<T: FixedWidthInteger>(_ type: T.Type, _ bytes: [UInt8], _ offset: Int) -> T {
        bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBytes { writeAll(descriptor, $0) }
    }

    private static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < buffer.count {
            let written = posixWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            offset += written
        }
        return 0
    }

    /// Fills `buffer` from `offset`; `false` on an error or an early end of file.
    private static func readAll(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            if count == 0 { return false }
            done += count
        }
        return true
    }
}

/// `write(2)`, named apart from the module's many `write` functions.
@inline(__always)
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, buffer, count)
    #elseif canImport(Musl)
    return Musl.write(descriptor, buffer, count)
    #else
    return Darwin.write(descriptor, buffer, count)
    #endif
}
