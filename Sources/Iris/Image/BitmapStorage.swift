/// The bytes behind a ``Bitmap``: one raw allocation, owned by this object and freed with it.
///
/// A bitmap writes only after `isKnownUniquelyReferenced` says no other bitmap (and no retained
/// consumer such as a `CGDataProvider`) holds the storage, so shared storage is never written:
/// that is what makes it safe to send. Anything that holds a strong reference (see
/// ``Bitmap/retainedBytes()``) may read the bytes for as long as it holds it.
final class BitmapStorage: @unchecked Sendable {
    /// Start of the allocation, aligned to a cache line.
    let bytes: UnsafeMutableRawPointer
    /// Bytes in use (the allocation has at least one, so `bytes` is valid even when this is 0).
    let count: Int

    /// Alignment of every allocation: a cache line, which SIMD loads and Core Graphics like.
    static let alignment = 64

    /// Allocates `count` bytes, leaving them for the caller to fill.
    init(uninitializedCount count: Int) {
        precondition(count >= 0, "byte count must not be negative")
        self.count = count
        bytes = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: Self.alignment)
        bytes.bindMemory(to: UInt8.self, capacity: max(count, 1))
    }

    /// Allocates `count` bytes, all zero.
    convenience init(zeroedCount count: Int) {
        self.init(uninitializedCount: count)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: count)
    }

    /// A storage holding a copy of `source`.
    convenience init(copying source: UnsafeRawBufferPointer) {
        self.init(uninitializedCount: source.count)
        if let base = source.baseAddress, source.count > 0 {
            bytes.copyMemory(from: base, byteCount: source.count)
        }
    }

    deinit { bytes.deallocate() }

    /// The bytes in use, for reading.
    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: bytes, count: count) }

    /// The bytes in use, for writing: only while the caller holds the only reference.
    var mutableBuffer: UnsafeMutableRawBufferPointer { UnsafeMutableRawBufferPointer(start: bytes, count: count) }

    /// A new storage with the same bytes.
    func copy() -> BitmapStorage { BitmapStorage(copying: buffer) }
}

extension Bitmap {
    /// A bitmap's bytes kept alive by one retain of its storage, for a consumer that outlives the
    /// bitmap value and cannot hold a Swift reference (a `CGDataProvider` gets `context` as its
    /// info pointer). Call ``release(context:)`` exactly once when done. While retained, the
    /// storage counts as shared, so mutating any bitmap that uses it copies first: the bytes seen
    /// here never change.
    struct RetainedBytes {
        /// The retained storage, as an opaque pointer to hand back to ``release(context:)``.
        let context: UnsafeMutableRawPointer
        /// The first pixel byte.
        let base: UnsafeRawPointer
        /// Bytes readable from `base`.
        let count: Int

        /// Gives up the retain taken by ``Bitmap/retainedBytes()``.
        static func release(context: UnsafeMutableRawPointer) {
            Unmanaged<BitmapStorage>.fromOpaque(context).release()
        }
    }

    /// Retains the storage and returns its bytes; see ``RetainedBytes``.
    func retainedBytes() -> RetainedBytes {
        RetainedBytes(
            context: Unmanaged.passRetained(storage).toOpaque(),
            base: UnsafeRawPointer(storage.bytes), count: storage.count)
    }
}
