import Foundation
import IrisSamples
import Testing
@testable import Iris
import IrisTestSupport

/// Responsive loading through an image service (``ImagePipeline/Configuration/imageService``),
/// over a loopback server that plays both the service (answering imgproxy paths) and the origin.
@Suite("Image service")
struct ImageServiceTests {
    static let ladder = SizeLadder.standard

    static func pipeline(_ service: ImgproxyService) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = URLSessionDataLoader(timeout: httpHangTimeout)
            $0.imageService = service
            $0.imageServiceFailover = ImageServiceFailover(clock: VirtualClock())  // time moves only when told
        }
    }

    /// The path the service is asked for (after the base URL).
    static func servicePath(_ service: ImgproxyService, source: URL, target: DecodeTarget, signature: String = "insecure") -> String {
        "/" + signature + service.path(for: source, rendition: service.rendition(for: target))
    }

    @Test("the ladder: each side stepped up, a third more at most; past the top, the top")
    func ladderSteps() {
        #expect(Self.ladder.step(atLeast: 1) == 32)
        #expect(Self.ladder.step(atLeast: 390) == 480)
        #expect(Self.ladder.step(atLeast: 480) == 480)
        #expect(Self.ladder.step(atLeast: 9000) == 3840)
        for pixels in 32...3840 {
            let step = Self.ladder.step(atLeast: pixels)
            #expect(step >= pixels && Double(step) <= Double(pixels) * 1.5 + 1, "\(pixels) px → \(step)")
        }
        let fill = Self.ladder.box(for: DecodeTarget(size: PixelSize(width: 390, height: 293), contentMode: .fill))
        #expect(fill == (480, 320))
    }

    @Test("imgproxy's URL: signature, rs, gravity for fills, the source plain with the format as extension")
    func urlForm() async throws {
        let service = ImgproxyService(baseURL: URL(string: "https://img.example.com/base/")!, gravity: "sm")
        let source = URL(string: "https://cdn.example.com/p/a b.jpg?v=2&x=@")!
        let rendition = service.rendition(for: DecodeTarget(size: PixelSize(width: 300, height: 200), contentMode: .fill))
        #expect(rendition == ImageRendition(width: 320, height: 256, contentMode: .fill, format: .webp))
        let url = try await service.url(for: source, rendition: rendition)
        #expect(
            url.absoluteString == "https://img.example.com/base/insecure/rs:fill:320:256/g:sm/plain/"
                + "https://cdn.example.com/p/a%2520b.jpg%3Fv=2&x=%40@webp")  // imgproxy unescapes a plain source once
        let fit = service.rendition(for: DecodeTarget(size: PixelSize(width: 100, height: 4096), contentMode: .fit))
        #expect(service.path(for: source, rendition: fit).hasPrefix("/rs:fit:128:3840/plain/"))
        let hosts = ImgproxyService(baseURL: url, sourceHosts: ["CDN.example.com"])
        #expect(hosts.renders(source) && !hosts.renders(URL(string: "https://other.example.com/a.jpg")!))
        #expect(!service.renders(URL(fileURLWithPath: "/tmp/a.jpg")))
    }

    @Test("a request at a target fetches the service's rendition, never the original; at full size, the original")
    func fetchesTheRendition() async throws {
        let original = try JPEGEncoder().encode(SampleImages.photo(width: 1600, height: 1200, seed: 81), options: EncodeOptions())
        let rendition = try WebPEncoder().encode(SampleImages.photo(width: 480, height: 384, seed: 81), options: EncodeOptions())
        try await withTestServer { server in
            let source = server.url("/photos/a.jpg")
            server.serve("/photos/a.jpg", data: original, contentType: "image/jpeg")
            let service = ImgproxyService(baseURL: server.url("/"))
            let target = DecodeTarget(size: PixelSize(width: 390, height: 293), contentMode: .fill)
            let path = Self.servicePath(service, source: source, target: target)
            server.serve(path, data: rendition, contentType: "image/webp")
            let pipeline = Self.pipeline(service)
            let image = try await pipeline.image(
                for: ImageRequest(
                    url: source, targetSize: CGSize(width: 130, height: 97.67),
                    contentMode: .fill, scale: 3))
            #expect(image.format == .webp)
            #expect(image.bitmap.width >= 390 && image.bitmap.height >= 293)  // covers the slot
            #expect(image.rendition == service.rendition(for: target))
            #expect(server.requestCount(path) == 1)
            #expect(server.requestCount("/photos/a.jpg") == 0)
            let full = try await pipeline.image(for: ImageRequest(url: source))
            #expect(full.bitmap.size == PixelSize(width: 1600, height: 1200))
            #expect(server.requestCount("/photos/a.jpg") == 1)
            #expect(
                pipeline.dataKey(for: ImageRequest(url: source, targetSize: CGSize(width: 10, height: 10)))
                    != pipeline.dataKey(for: ImageRequest(url: source)))
        }
    }

    @Test("a service that fails (5xx, an HTML page) falls back to the original and says so; a 404 fails")
    func fallback() async throws {
        let original = try JPEGEncoder().encode(SampleImages.photo(width: 640, height: 480, seed: 82), options: EncodeOptions())
        try await withTestServer { server in
            let service = ImgproxyService(baseURL: server.url("/"))
            let pipeline = Self.pipeline(service)
            let target = DecodeTarget(size: PixelSize(width: 100, height: 100), contentMode: .fit)
            let request = { (name: String) in ImageRequest(url: server.url("/o/\(name).jpg"), targetSize: CGSize(width: 100, height: 100)) }

            server.serve("/o/down.jpg", data: original, contentType: "image/jpeg")
            server.serve(Self.servicePath(service, source: server.url("/o/down.jpg"), target: target), .error(503))
            let downPath = Self.servicePath(service, source: server.url("/o/down.jpg"), target: target)
            let down = try await pipeline.fetch(request("down"))
            #expect(
                down.serviceFallback
                    == .httpStatus(
                        code: 503,
                        url: try await service.url(
                            for: server.url("/o/down.jpg"), rendition: service.rendition(for: target))))
            #expect(down.rendition == nil && down.data.count == original.count)
            #expect(server.requestCount("/o/down.jpg") == 1 && server.requestCount(downPath) == 1)

            // Each case on a pipeline of its own: a failed service is skipped for a while
            // (ImageServiceFailoverTests).
            server.serve("/o/portal.jpg", data: original, contentType: "image/jpeg")
            let portalPath = Self.servicePath(service, source: server.url("/o/portal.jpg"), target: target)
            server.serve(portalPath, .htmlPage())
            let portal = try await Self.pipeline(service).image(for: request("portal"))
            #expect(portal.rendition == nil && portal.bitmap.size == PixelSize(width: 100, height: 75))
            #expect(server.requestCount(portalPath) == 1)

            server.serve("/o/gone.jpg", data: original, contentType: "image/jpeg")
            let gonePath = Self.servicePath(service, source: server.url("/o/gone.jpg"), target: target)
            server.serve(gonePath, .error(404))
            await #expect(throws: ImageError.self) { try await Self.pipeline(service).image(for: request("gone")) }
            #expect(server.requestCount(gonePath) == 1)
            #expect(server.requestCount("/o/gone.jpg") == 0)  // a bad source is not retried
        }
    }

    @Test("a signer from the app's backend is asked once per path; its signature is the URL's first segment")
    func signer() async throws {
        let calls = PipelineCounter()
        let service = ImgproxyService(
            baseURL: URL(string: "https://img.example.com")!,
            signing: .signer { path in
                calls.increment()
                return "sig-\(path.count)"
            })
        let source = URL(string: "https://cdn.example.com/a.jpg")!
        let rendition = service.rendition(for: DecodeTarget(size: PixelSize(width: 64, height: 64), contentMode: .fill))
        let first = try await service.url(for: source, rendition: rendition)
        let second = try await service.url(for: source, rendition: rendition)
        #expect(first == second && calls.count == 1)
        #expect(first.path.hasPrefix("/sig-"))
    }

    @Test("a grid of 100 images on iPhone, iPad and Mac sizes asks the service for a handful of sizes")
    func distinctRenditions() {
        let service = ImgproxyService(baseURL: URL(string: "https://img.example.com")!)
        // Cells of a 3-column grid on a 390-pt iPhone at 3×, a 4-column 1,024-pt iPad at 2×, a
        // 6-column 1,440-pt Mac window at 2× and at 1×, each cell a few points narrower for the
        // spacing; every cell on a screen the same size.
        let cells: [(points: Double, scale: Double)] = [(128, 3), (252, 2), (236, 2), (236, 1), (126, 3), (250, 2)]
        var boxes = Set<String>()
        for cell in cells {
            let pixels = Int((cell.points * cell.scale).rounded(.up))
            boxes.insert(
                service.rendition(for: DecodeTarget(size: PixelSize(width: pixels, height: pixels), contentMode: .fill))
                    .description)
        }
        #expect(boxes.count <= 4, "\(boxes.sorted())")
    }
}
