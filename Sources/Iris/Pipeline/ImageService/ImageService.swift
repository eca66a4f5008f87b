import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An image service that renders a source at a size (imgproxy, Iris Server, thumbor, imgix,
/// Cloudinary...): set one as ``ImagePipeline/Configuration/imageService`` and every request of
/// an `http(s)` URL with a target size (what the views ask for: their slot × the screen's scale)
/// fetches the service's rendition instead of the original. The rendition's size comes from a
/// small ladder (``SizeLadder``), so a CDN and the service's result cache see a handful of URLs per
/// image; the decode still targets the exact slot.
///
/// Videos (MP4, M4V, MOV, QT, WebM, MKV, 3GP by their path's extension) are never sent to a service: their clip plays
/// from the original's bytes. Animations (GIF, APNG) go to the service only when it says it keeps
/// them moving (``keepsAnimations``).
///
/// When the service fails on its own (a 5xx, no answer within
/// ``ImageServiceFailover/timeout``, a refused connection, an answer that is not an image, a
/// 401/403 after signing again once, a 415/422 saying it cannot take the source), the original is
/// loaded instead (from the disk cache when it is there) and the image says so
/// (``FetchedData/serviceFallback``); a service that failed is then skipped for
/// ``ImageServiceFailover/coolOff`` before one request tries it again. A 404 or another 4xx says
/// the source is bad and is the load's error; so is a URL the service cannot make (a signer that
/// throws, and the loads of the cool-off after it), never silently replaced by the original.
/// ``ImgproxyService`` speaks imgproxy's URL format.
public protocol ImageService: Sendable {
    /// What tells this service's renditions apart from another's in the caches (its address and
    /// settings): part of the disk cache's key of every rendition.
    var cacheIdentity: String { get }

    /// The rendition of a decode at `target` (pixels, fit or fill): its size on the ladder and
    /// its format.
    func rendition(for target: DecodeTarget) -> ImageRendition

    /// Whether the service renders `source` (its host is one the service may fetch).
    func renders(_ source: URL) -> Bool

    /// The request that fetches `rendition` of `source` (asynchronous: a signature may come from
    /// the app's backend).
    func urlRequest(for source: URL, rendition: ImageRendition) async throws -> URLRequest

    /// Whether the service's renditions of an animated GIF or APNG still move.
    var keepsAnimations: Bool { get }

    /// The service refused a request's credentials (401, 403): forget kept signatures or tokens,
    /// so the next ``urlRequest(for:rendition:)`` makes new ones (the pipeline asks once more).
    func didRefuseCredentials()
}

extension ImageService {
    /// `false`: animations go to their originals unless a service says it keeps them.
    public var keepsAnimations: Bool { false }

    /// Nothing is kept.
    public func didRefuseCredentials() {}

    /// Every `http` and `https` source.
    public func renders(_ source: URL) -> Bool {
        let scheme = source.scheme?.lowercased()
        return scheme == "http" || scheme == "https"
    }
}

/// The sizes an image service is asked for: a fixed, short list of widths (as Next.js's
/// `deviceSizes` and `imageSizes`), each about 1.25–1.33× the one before, so that a slot asks
/// for at most a third more pixels a side than it shows, and a source is rendered at a few sizes
/// whatever the layouts of the devices showing it.
public struct SizeLadder: Sendable, Hashable {
    /// The sizes, in pixels, ascending.
    public let steps: [Int]

    /// A ladder of `steps` (sorted; duplicates and values under 1 dropped).
    public init(_ steps: [Int]) {
        self.steps = Array(Set(steps.filter { $0 > 0 })).sorted()
    }

    /// 32 to 3,840 pixels in 18 steps.
    public static let standard = SizeLadder([
        32, 48, 64, 96, 128, 160, 192, 256, 320, 384, 480, 640, 828, 1080, 1280, 1600, 2048,
        2560, 3840,
    ])

    /// The smallest step at least `pixels`; the largest step above it.
    public func step(atLeast pixels: Int) -> Int {
        steps.first { $0 >= pixels } ?? steps.last ?? max(1, pixels)
    }

    /// The box to ask for a decode at `target`: each side on the ladder. For `.fill` the service
    /// crops to the box's aspect, which differs from the slot's by the rounding (at most a third
    /// a side; the view then covers its slot from it): the price of a bounded set of renditions,
    /// which a public service can enforce (both sides on its ladder).
    public func box(for target: DecodeTarget) -> (width: Int, height: Int) {
        (step(atLeast: max(1, target.size.width)), step(atLeast: max(1, target.size.height)))
    }
}
