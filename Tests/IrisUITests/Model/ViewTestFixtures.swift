import Foundation
import IrisTestSupport

@testable import Iris
@testable import IrisUI

/// What the view suites share: a pipeline that counts decodes, an animated request.
@MainActor
enum ViewTestFixtures {
    /// A pipeline with a memory cache whose decodes are counted.
    static func countingPipeline(_ decodes: PipelineCounter) -> ImagePipeline {
        ImagePipeline(configuration: .init(memoryCache: MemoryCache(), decoders: HTTPCountingDecoder.standard(counting: decodes)))
    }

    /// A request whose result is a three-frame animation of 0.1 s frames (frame `i` is red `i`).
    static func animatedRequest(id: String, loopCount: Int = 0) throws -> ImageRequest {
        let png = try PNGEncoder().encode(Bitmap(width: 4, height: 4, format: .rgba8), options: EncodeOptions())
        let frames = AnimationPlayerTests.animation([0.1, 0.1, 0.1], loopCount: loopCount)
        return ImageRequest(
            source: .data(id: id) { png },
            processors: [
                .custom("frames") { image in
                    var animated = image
                    animated.animation = frames
                    return animated
                }
            ])
    }
}

extension ImageRequest {
    /// The request with `contentMode`.
    func contentMode(_ contentMode: ContentMode) -> ImageRequest {
        var request = self
        request.contentMode = contentMode
        return request
    }
}
