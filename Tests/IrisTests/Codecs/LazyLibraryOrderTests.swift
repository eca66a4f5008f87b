#if os(Linux)
import CIrisShims
import Foundation
import IrisSamples
import IrisTestSupport
import Testing

/// The order in which a lazily loaded codec library's dependencies are opened (CIrisShims's
/// lazy_library_order.c): each after the libraries it needs, read from the DT_NEEDED entries of
/// the system's own FFmpeg libraries; and files that are not libraries, or are cut short or
/// corrupt, give nothing and never crash the walk.
@Suite("Lazy libraries: dependencies opened leaves first")
struct LazyLibraryOrderTests {
    /// FFmpeg's demuxer library, as the lazy stubs name it first (the development symlink).
    static let avformat = "libavformat.so"

    @Test("each library of FFmpeg's comes after the ones it needs, once, and is one the dynamic linker loads")
    func ffmpegLeavesFirst() throws {
        let order = Self.order(Self.avformat)
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(position.count == order.count, "a library is listed twice")
        let avutil = try #require(order.firstIndex { $0.hasPrefix("libavutil.so.") }, "libavutil is not among \(order)")
        let avcodec = try #require(order.firstIndex { $0.hasPrefix("libavcodec.so.") }, "libavcodec is not among \(order)")
        #expect(avutil < avcodec, "libavcodec needs libavutil")
        #expect(!order.contains { $0.hasPrefix("libavformat.so") }, "the library asked for is the caller's to open")
        for (index, library) in order.enumerated() {
            for dependency in try #require(Self.needed(library)) {
                if let at = position[dependency] {
                    #expect(at < index, "\(library) comes before \(dependency), which it needs")
                }
            }
        }
        // Every name listed is a library that opening libavformat loads: no strays.
        let handle = try #require(dlopen(Self.avformat, RTLD_NOW | RTLD_LOCAL), "\(String(cString: dlerror()))")
        defer { dlclose(handle) }
        let strays = order.filter { library in
            guard let loaded = dlopen(library, RTLD_LAZY | RTLD_NOLOAD) else { return true }
            dlclose(loaded)
            return false
        }
        #expect(strays.isEmpty, "listed but not loaded with libavformat: \(strays)")
    }

    @Test("a library that is not found, or a file that is not a library, gives nothing")
    func notALibrary() throws {
        #expect(Self.needed("libiris-no-such-library.so.0") == nil)
        #expect(Self.order("libiris-no-such-library.so.0").isEmpty)
        let directory = try CLITestSupport.directory("lazy-order")
        defer { try? FileManager.default.removeItem(at: directory) }
        let jpeg = directory.appendingPathComponent("photo.jpg")
        try CLITestSupport.writePhoto(jpeg, width: 64, height: 48)
        #expect(Self.needed(jpeg.path) == [])
        #expect(Self.order(jpeg.path).isEmpty)
    }

    @Test("a library cut short, or with its headers or dynamic section overwritten, gives at most its real entries")
    func damagedLibraries() throws {
        let library = try Self.smallestFFmpegDependency()
        let bytes = try Data(contentsOf: library)
        let real = try #require(Self.needed(library.path))
        #expect(!real.isEmpty, "\(library.path) needs nothing")
        let directory = try CLITestSupport.directory("lazy-order-damaged")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("damaged.so")
        for length in [0, 4, 16, 63, 64, 200, 1000, 4000] where length < bytes.count {
            try bytes.prefix(length).write(to: file)
            #expect(Self.needed(file.path) == [], "cut to \(length) bytes")
        }
        // Random 8-byte words of the ELF and program headers and of the dynamic section
        // overwritten: whatever is read, nothing crashes and no name is made up.
        let dynamic = try #require(Self.dynamicSection(bytes), "no PT_DYNAMIC in \(library.path)")
        var random = SplitMix(seed: 38)
        for trial in 0..<120 {
            var damaged = bytes
            for _ in 0..<3 {
                let region = trial % 2 == 0 ? 0..<min(bytes.count, 1024) : dynamic
                let offset = Int.random(in: region.lowerBound..<max(region.lowerBound + 1, region.upperBound - 8), using: &random)
                let word = UInt64.random(in: 0...UInt64.max, using: &random)
                let kept = trial % 3 == 0 ? word & 0xffff : word  // small values pass more checks
                withUnsafeBytes(of: kept.littleEndian) { damaged.replaceSubrange(offset..<offset + 8, with: $0) }
            }
            try damaged.write(to: file)
            let names = Self.needed(file.path) ?? []
            #expect(names.count <= 128 && names.allSatisfy { !$0.isEmpty && $0.utf8.count < 256 }, "trial \(trial): \(names)")
            _ = Self.order(file.path)
        }
    }

    // MARK: - Helpers

    /// What `name` needs, directly or not, in the order it is opened in.
    static func order(_ name: String) -> [String] {
        let names = Names()
        iris_library_dependency_order(name, collectName, Unmanaged.passUnretained(names).toOpaque())
        return names.list
    }

    /// The DT_NEEDED entries of `name`; nil when it is not found.
    static func needed(_ name: String) -> [String]? {
        let names = Names()
        let count = iris_library_needed(name, collectName, Unmanaged.passUnretained(names).toOpaque())
        return count < 0 ? nil : names.list
    }

    /// The file of the smallest library FFmpeg's demuxer needs that itself needs another (a
    /// real library, cheap to copy many times).
    static func smallestFFmpegDependency() throws -> URL {
        let handle = try #require(dlopen(avformat, RTLD_NOW | RTLD_LOCAL), "\(String(cString: dlerror()))")
        defer { dlclose(handle) }
        // The files the process has mapped, as the kernel lists them.
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        let paths = Set(maps.split(separator: "\n").compactMap { line in line.split(separator: " ").last.map(String.init) })
        var smallest: (size: Int, url: URL)?
        for library in order(avformat) where !(needed(library) ?? []).isEmpty {
            // The file a soname links to carries the full version: libogg.so.0 → libogg.so.0.8.5.
            guard let path = paths.first(where: { $0.hasSuffix("/" + library) || $0.contains("/" + library + ".") }),
                let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            else { continue }
            if size < smallest?.size ?? .max { smallest = (size, URL(fileURLWithPath: path)) }
        }
        return try #require(smallest?.url, "no library of FFmpeg's found mapped")
    }

    /// Collects the names a visitor is called with.
    final class Names {
        var list: [String] = []
    }

    /// The byte range of the dynamic section of the 64-bit little-endian ELF file `bytes`.
    static func dynamicSection(_ bytes: Data) -> Range<Int>? {
        func integer<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T? {
            guard offset >= 0, offset + MemoryLayout<T>.size <= bytes.count else { return nil }
            return bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        }
        guard let headers = integer(0x20, UInt64.self), let size = integer(0x36, UInt16.self), let count = integer(0x38, UInt16.self)
        else { return nil }
        for index in 0..<Int(count) {
            let header = Int(headers) + index * Int(size)
            guard integer(header, UInt32.self) == 2,  // PT_DYNAMIC
                let offset = integer(header + 8, UInt64.self), let length = integer(header + 32, UInt64.self),
                Int(offset) + Int(length) <= bytes.count
            else { continue }
            return Int(offset)..<Int(offset + length)
        }
        return nil
    }
}
/// A visitor of the C walk that appends each name to the `Names` its context points to.
private func collectName(_ name: UnsafePointer<CChar>?, _ context: UnsafeMutableRawPointer?) {
    guard let name, let context else { return }
    Unmanaged<LazyLibraryOrderTests.Names>.fromOpaque(context).takeUnretainedValue().list.append(String(cString: name))
}
#endif
