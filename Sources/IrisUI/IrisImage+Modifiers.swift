#if canImport(SwiftUI)
import Iris
import SwiftUI

extension IrisImage {
    /// Loads through `pipeline` instead of the environment's ``SwiftUICore/EnvironmentValues/imagePipeline``.
    public func pipeline(_ pipeline: ImagePipeline) -> IrisImage {
        var view = self
        view.options.pipeline = pipeline
        return view
    }

    /// How urgent the load is; changing it changes the running load's priority.
    public func priority(_ priority: ImageRequest.Priority) -> IrisImage {
        var view = self
        view.options.settings.priority = priority
        return view
    }

    /// Processors applied after decoding (resize, crop, round corners, blur…).
    public func processors(_ processors: [any ImageProcessing]) -> IrisImage {
        var view = self
        view.options.settings.processors = processors
        return view
    }

    /// Whether the decoded image fits inside the view's size or covers it (the image is decoded
    /// large enough to fill the view without blur when it is shown with `scaledToFill`).
    public func contentMode(_ contentMode: Iris.ContentMode) -> IrisImage {
        var view = self
        view.options.settings.contentMode = contentMode
        return view
    }

    /// Calls `action` on the main actor for every result shown: each success (a memory-cache hit
    /// of a new image included) and each failure.
    public func onCompletion(_ action: @escaping (Result<LoadedImage, ImageError>) -> Void) -> IrisImage {
        var view = self
        view.options.onCompletion = action
        return view
    }

    /// Whether animated images play (the default) or show their first frame only.
    public func animatesFrames(_ animates: Bool) -> IrisImage {
        var view = self
        view.options.animatesFrames = animates
        return view
    }
}
#endif
