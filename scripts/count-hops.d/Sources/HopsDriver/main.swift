// The scenario `scripts/count-hops` traces: one request that misses the memory cache and the
// disk cache and so goes through the data loader, decode, the memory-cache store and the
// disk-cache write. Public API only, so the same file builds against any tree of Iris.
//
// The counter (trace.py under lldb, then report.py) counts only what runs between the markers below;
// everything before `hopsBegin()` (making the PNG, opening the caches, making the pipeline)
// and after `hopsEnd()` is set-up.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Iris

// Markers the counter breaks on (`HopsDriver.hopsBegin()` …), never inlined.
@inline(never) func hopsBegin() { print("hops: begin") }
@inline(never) func hopsReturned() { print("hops: image(for:) returned") }
@inline(never) func hopsEnd() { print("hops: end") }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("count-hops driver: \(message)\n".utf8))
    exit(1)
}

// A small PNG written by Iris's own encoder: 8×8, a gradient, opaque.
let side = 8
var pixels: [UInt8] = []
for y in 0..<side {
    for x in 0..<side { pixels += [UInt8(x * 32), UInt8(y * 32), 128, 255] }
}
guard let bitmap = Bitmap(width: side, height: side, format: .rgba8, pixels: pixels) else { fail("cannot make the bitmap") }
guard let encoder = ImageEncoders.encoder(for: .png) else { fail("no PNG encoder") }
let png: Data
do { png = try encoder.encode(bitmap, options: EncodeOptions()) } catch { fail("PNG encoding failed: \(error)") }

let cacheDirectory = FileManager.default.temporaryDirectory
    .appendingPathComponent("iris-count-hops-\(ProcessInfo.processInfo.processIdentifier)")
try? FileManager.default.removeItem(at: cacheDirectory)
defer { try? FileManager.default.removeItem(at: cacheDirectory) }
let dataCache: DataCache
do { dataCache = try DataCache(directory: cacheDirectory) } catch { fail("cannot open the disk cache: \(error)") }
let memoryCache = MemoryCache()
let loader = OneImageLoader(bytes: png)
let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration(dataLoader: loader, dataCache: dataCache,
                                                                        memoryCache: memoryCache))
let request = ImageRequest(url: URL(string: "https://hops.invalid/one.png")!)

hopsBegin()
let image: LoadedImage
do { image = try await pipeline.image(for: request) } catch { fail("the request failed: \(error)") }
hopsReturned()
// The disk-cache write runs on the cache's own queue and may land after `image(for:)` returns;
// waiting for it here makes its work fall inside the traced window every time.
await dataCache.waitForPendingWrites()
hopsEnd()

// The scenario really was a double miss that loaded once and filled both caches.
guard image.bitmap.width == side, image.bitmap.height == side else {
    fail("decoded \(image.bitmap.width)×\(image.bitmap.height), expected \(side)×\(side)")
}
guard loader.loads.withLock({ $0 }) == 1 else { fail("the loader ran \(loader.loads.withLock { $0 }) times, expected 1") }
guard memoryCache.count == 1 else { fail("memory cache holds \(memoryCache.count) images, expected 1") }
guard dataCache.count == 1 else { fail("disk cache holds \(dataCache.count) entries, expected 1") }
print("hops: ok \(image.bitmap.width)x\(image.bitmap.height) png \(png.count) bytes, loader calls 1, memory 1, disk 1")
