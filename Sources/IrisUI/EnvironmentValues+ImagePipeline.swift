#if canImport(SwiftUI)
import Iris
import SwiftUI

/// The pipeline ``IrisImage`` loads through when none is given to it.
private struct ImagePipelineKey: EnvironmentKey {
    static var defaultValue: ImagePipeline { .shared }
}

extension EnvironmentValues {
    /// The pipeline ``IrisImage`` views load through: ``/Iris/ImagePipeline/shared`` unless set.
    public var imagePipeline: ImagePipeline {
        get { self[ImagePipelineKey.self] }
        set { self[ImagePipelineKey.self] = newValue }
    }
}

extension View {
    /// Makes every ``IrisImage`` in this view load through `pipeline`.
    public func imagePipeline(_ pipeline: ImagePipeline) -> some View {
        environment(\.imagePipeline, pipeline)
    }
}
#endif
