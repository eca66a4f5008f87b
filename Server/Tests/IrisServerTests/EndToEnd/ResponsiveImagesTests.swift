import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import HummingbirdTesting
import Iris
import IrisServer
import IrisServerCore
import IrisUI
import ResponsiveGrid
import Testing

/// Responsive images end to end, on 127.0.0.1 only: IrisUI's model, driven as the views drive it
/// (``ImageGrid``: `loadForView` then `viewLayoutDidChange(slot:displayScale:)`), over a pipeline
/// whose image service is an unsigned ``ImgproxyService`` pointing at Iris Server in public mode
/// (its application, listening), which fetches the originals from a live source server. Bytes
/// and URLs are counted at the app's loader and at the service.
@Suite struct ResponsiveImagesTests {
    static let names = (0..<12).map { "photo-\($0).jpg" }

    /// A photo-like 1600×1200 JPEG (gradients under fine noise), the "original" of every cell,
    /// made once for the suite (a debug build draws it pixel by pixel).
    static func original() throws -> Data { try madeOriginal.get() }

    private static let madeOriginal = Result(catching: { () throws -> Data in
        try TestImages.encode(
            TestImages.bitmap(width: 1600, height: 1200) { x, y in
                let noise = UInt8(truncatingIfNeeded: ((x &* 7919) ^ (y &* 104_729)) &* 2_654_435_761 >> 16) & 0x3F
                return RGBA(r: UInt8(x * 180 / 1599) &+ noise, g: UInt8(y * 180 / 1199) &+ noise / 2, b: 90 &+ noise / 3)
            }, as: .jpeg, quality: 90)
    })

    /// Runs `body` with Iris Server in public mode, allowing sources under `prefix`, listening on
    /// 127.0.0.1 with its answers counted in `counts`; `body` gets its base URL.
    static func withPublicService<T: Sendable>(
        allowing prefix: String, counts: ServiceCounts,
        _ body: @Sendable (_ base: URL) async throws -> T
    ) async throws -> T {
        let config = Harness.configuration {
            $0.development = false
            $0.publicMode = true
            $0.sourcePolicy.allowedPrefixes = [prefix]
            Harness.withResultCache(&$0)
        }
        let renderer = try ImageRenderer(configuration: config)
        defer { Harness.removeCaches(of: config) }
        let router = IrisServerApplication.router(renderer: renderer, logger: Harness.quietLogger)
        let app = Application(
            responder: CountingResponder(inner: router.buildResponder(), counts: counts),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.test(.live) { client in try await body(URL(string: "http://127.0.0.1:\(client.port!)")!) }
    }

    /// A pipeline as an app configures it: the service, a memory cache, a loader that counts.
    static func pipeline(service: URL, loader: CountingDataLoader) -> ImagePipeline {
        var configuration = ImagePipeline.Configuration(dataLoader: loader, memoryCache: MemoryCache(), resumableData: nil)
        configuration.imageService = ImgproxyService(baseURL: service)
        // The service's deadline only detects a hang here: a busy machine may take seconds to render.
        configuration.imageServiceFailover = ImageServiceFailover(timeout: .seconds(600))
        return ImagePipeline(configuration: configuration)
    }

    @Test func aGridAsksTheServiceForItsSlotsOnAPhoneThenAnIPad() async throws {
        let files = SourceFiles()
        let original = try Self.original()
        for name in Self.names { files[name] = original }
        let originalBytes = original.count * Self.names.count
        try await withSourceServer(files) { base in
            let counts = ServiceCounts()
            try await Self.withPublicService(allowing: "\(base)/f/", counts: counts) { service in
                let loader = CountingDataLoader(URLSessionDataLoader(timeout: 600))
                let grid = await ImageGrid(
                    pipeline: Self.pipeline(service: service, loader: loader),
                    urls: Self.names.map { URL(string: "\(base)/f/\($0)")! })

                // A 3-column grid on a 390 pt phone at 3x: 128.7 pt cells, 386 px, decoded at 448 px
                // (the view's bucket), asked of the service at 480 (the ladder's step).
                await grid.layOut(on: .phone)
                #expect(await grid.settle(deadline: .seconds(600)))
                #expect(await grid.cellsNotCovering(.phone).isEmpty)
                for cell in await grid.cells() {
                    #expect(cell.rendition == ImageRendition(width: 480, height: 480, contentMode: .fill, format: .webp), "\(cell)")
                    #expect(cell.bitmap == PixelSize(width: 448, height: 448) && cell.error == nil, "\(cell)")
                }
                let phone = counts.tally
                #expect(phone.requests.count == 12 && phone.requests.values.allSatisfy { $0 == 1 } && phone.statuses == [200: 12])
                #expect(phone.requests.keys.allSatisfy { $0.hasPrefix("/insecure/rs:fill:480:480/plain/") && $0.hasSuffix("@webp") })
                let phoneBytes = loader.tally.bytes
                #expect(phoneBytes == phone.bytes && loader.tally.requests.count == 12)
                #expect(phoneBytes * 20 < originalBytes, "\(phoneBytes) bytes against \(originalBytes)")

                // The same grid on a 1,024 pt iPad at 2x, 4 columns: 254.5 pt cells, 509 px, decoded
                // at 512, asked for at 640: one more URL per cell.
                await grid.layOut(on: .pad)
                #expect(await grid.settle(deadline: .seconds(600)))
                #expect(await grid.cellsNotCovering(.pad).isEmpty)
                for cell in await grid.cells() {
                    #expect(cell.rendition == ImageRendition(width: 640, height: 640, contentMode: .fill, format: .webp), "\(cell)")
                    #expect(cell.bitmap == PixelSize(width: 512, height: 512) && cell.error == nil, "\(cell)")
                }
                let both = counts.tally
                #expect(both.requests.count == 24 && both.requests.values.allSatisfy { $0 == 1 } && both.statuses == [200: 24])
                #expect(loader.tally.bytes == both.bytes && loader.tally.requests.count == 24)
                #expect(loader.tally.bytes * 10 < originalBytes, "\(loader.tally.bytes) bytes against \(originalBytes)")
                // The service downloaded each original once, for both sizes.
                #expect(Self.names.allSatisfy { files.count($0) == 1 })
                print(
                    "responsive grid: originals \(originalBytes) bytes; phone \(phoneBytes) bytes in 12 URLs "
                        + "(\(originalBytes / max(1, phoneBytes))× fewer), phone + iPad \(loader.tally.bytes) bytes in 24 URLs")
            }
        }
    }

    /// A service answering 503 (down behind its load balancer): each cell loads its original
    /// once, and says so; the service is asked at most once per cell, and once it has answered 503
    /// the cells still to load skip it (its cool-off).
    @Test func aFailingServiceFallsBackToTheOriginalOnce() async throws {
        let files = SourceFiles()
        let original = try Self.original()
        for name in Self.names { files[name] = original }
        try await withSourceServer(files) { base in
            let counts = ServiceCounts()
            let router = Router()
            router.get("**") { _, _ in Response(status: .serviceUnavailable) }
            let app = Application(
                responder: CountingResponder(inner: router.buildResponder(), counts: counts),
                configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await app.test(.live) { client in
                let loader = CountingDataLoader(URLSessionDataLoader(timeout: 600))
                let service = URL(string: "http://127.0.0.1:\(client.port!)")!
                let grid = await ImageGrid(
                    pipeline: Self.pipeline(service: service, loader: loader),
                    urls: Self.names.map { URL(string: "\(base)/f/\($0)")! })
                await grid.layOut(on: .phone)
                #expect(await grid.settle(deadline: .seconds(600)))
                #expect(await grid.cellsNotCovering(.phone).isEmpty)
                // Every cell shows its original (the service answered only 503s, below).
                for cell in await grid.cells() {
                    #expect(cell.rendition == nil && cell.bitmap != nil && cell.error == nil, "\(cell)")
                }
                let asked = counts.tally
                #expect(asked.statuses.keys.sorted() == [503] && (1...12).contains(asked.statuses[503] ?? 0), "\(asked.statuses)")
                #expect(asked.requests.values.allSatisfy { $0 == 1 })
                #expect(Self.names.allSatisfy { files.count($0) == 1 })
            }
        }
    }

    /// A 403 from the service (a source off its allow-list, or a key it no longer takes) loads
    /// each cell's original once, and says so: an unsigned URL signs the same again, so it is not
    /// asked twice, and once it has refused the cells still to load skip it (its cool-off).
    @Test func aRefusalLoadsTheOriginals() async throws {
        let files = SourceFiles()
        let original = try Self.original()
        for name in Self.names { files[name] = original }
        try await withSourceServer(files) { base in
            let counts = ServiceCounts()
            try await Self.withPublicService(allowing: "\(base)/elsewhere/", counts: counts) { service in
                let loader = CountingDataLoader(URLSessionDataLoader(timeout: 600))
                let grid = await ImageGrid(
                    pipeline: Self.pipeline(service: service, loader: loader),
                    urls: Self.names.map { URL(string: "\(base)/f/\($0)")! })
                await grid.layOut(on: .phone)
                #expect(await grid.settle(deadline: .seconds(600)))
                // Every cell shows its original (the service answered only 403s, below).
                for cell in await grid.cells() {
                    #expect(cell.rendition == nil && cell.bitmap != nil && cell.error == nil, "\(cell)")
                }
                let asked = counts.tally
                #expect(asked.statuses.keys.sorted() == [403] && (1...12).contains(asked.statuses[403] ?? 0), "\(asked.statuses)")
                #expect(asked.requests.values.allSatisfy { $0 == 1 })
                #expect(Self.names.allSatisfy { files.count($0) == 1 })
            }
        }
    }
}

/// What one cell shows, as plain values.
struct CellReport: Sendable, CustomStringConvertible {
    var bitmap: PixelSize?
    var rendition: ImageRendition?
    var error: ImageError?

    var description: String {
        "bitmap \(bitmap.map { "\($0)" } ?? "none"), rendition \(rendition.map { "\($0)" } ?? "none"), "
            + "error \(error.map { "\($0)" } ?? "none")"
    }
}

extension ImageGrid {
    /// What every cell shows.
    func cells() -> [CellReport] {
        models.map { model in
            let image = model.phase.loadedImage
            return CellReport(
                bitmap: image?.bitmap.size, rendition: image?.rendition, error: model.phase.error)
        }
    }
}
