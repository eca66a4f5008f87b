import ArgumentParser
import Foundation
import Iris

/// `iris service-url`: the URL an app configured with an imgproxy-compatible service fetches for
/// a source shown in a slot (to check what a CDN or the service's result cache will see).
struct ServiceURLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service-url",
        abstract: "Print the image service URL a view of a slot fetches for a source (imgproxy's format).",
        discussion: """
            The slot is in points, times --scale pixels per point, rounded up to the ladder as \
            IrisImage and IrisImageView ask for it (both sides on the ladder).
            Example: iris service-url --service https://images.example.com --slot 130x130 --scale 3 https://cdn.example.com/a.jpg
            """
    )

    @Option(help: "The service's base URL.")
    var service: String

    @Option(help: "The slot, in points: WIDTHxHEIGHT.")
    var slot: String

    @Option(help: "Pixels per point of the screen.")
    var scale: Double = 1

    @Flag(help: "Fit the image inside the slot (default: cover it, as a view that says nothing).")
    var fit = false

    @Option(help: "The format asked for (webp, avif, jpeg, png); 'auto' lets the service choose.")
    var format: String = "webp"

    @Option(help: "imgproxy's gravity for covering (e.g. sm for smart).")
    var gravity: String?

    @Argument(help: "Source URLs.")
    var sources: [String]

    func run() async throws {
        guard let base = URL(string: service), base.scheme != nil else { throw ValidationError("--service is not a URL: \(service)") }
        let parts = slot.lowercased().split(separator: "x").compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 && $0.isFinite }), scale > 0, scale.isFinite else {
            throw ValidationError("--slot must be WIDTHxHEIGHT in points and --scale positive (got \(slot), \(scale))")
        }
        let formats: [ImageFormat]
        switch format.lowercased() {
        case "auto": formats = []
        case "webp": formats = [.webp]
        case "avif": formats = [.avif]
        case "jpeg", "jpg": formats = [.jpeg]
        case "png": formats = [.png]
        default: throw ValidationError("--format must be webp, avif, jpeg, png or auto (got \(format))")
        }
        let imageService = ImgproxyService(baseURL: base, formats: formats, gravity: gravity)
        let target = DecodeTarget(
            size: PixelSize(width: Int((parts[0] * scale).rounded(.up)), height: Int((parts[1] * scale).rounded(.up))),
            contentMode: fit ? .fit : .fill)
        let rendition = imageService.rendition(for: target)
        for source in sources {
            guard let url = URL(string: source), imageService.renders(url) else {
                throw ValidationError("not an http(s) URL: \(source)")
            }
            print(try await imageService.url(for: url, rendition: rendition).absoluteString)
        }
    }
}
