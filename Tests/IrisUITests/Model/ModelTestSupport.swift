import Foundation
import Observation
@testable import Iris
@testable import IrisUI
import IrisTestSupport

/// Records every phase an ``ImageModel`` sets, in order.
@MainActor
final class PhaseRecorder {
    private(set) var phases: [ImagePhase] = []

    init(_ model: ImageModel) {
        model.phaseObserver = { [weak self] phase in self?.phases.append(phase) }
    }

    /// The kinds of the recorded phases, with runs of the same kind folded into one.
    var kinds: [ImagePhase.Kind] {
        phases.map(\.kind).reduce(into: []) { kinds, kind in
            if kinds.last != kind { kinds.append(kind) }
        }
    }

    /// The progress values reported while loading.
    var progressValues: [ImageTask.Progress] { phases.compactMap(\.progress) }
}

/// Polls `condition` on the main actor until it holds; the deadline (``pipelineEventually``'s)
/// only detects a hang.
@MainActor
func modelEventually(_ condition: () -> Bool) async -> Bool {
    await pipelineEventually(condition)
}

/// Waits until `model` has finished loading (success or failure).
@MainActor
func modelSettled(_ model: ImageModel) async -> Bool {
    await modelEventually {
        switch model.phase {
        case .success, .failure: true
        case .empty, .loading, .preview: false
        }
    }
}

/// Calls `onChange` once, the next time `model.phase` is about to change (as SwiftUI's
/// observation of a view's body does).
@MainActor
func observePhase(of model: ImageModel, onChange: @escaping @Sendable () -> Void) {
    withObservationTracking {
        _ = model.phase
    } onChange: {
        onChange()
    }
}

extension ImagePipeline {
    /// A pipeline over a real ``URLSessionDataLoader`` and the platform's decoders, with a memory
    /// cache unless told otherwise.
    static func modelTestPipeline(
        memoryCache: (any ImageCaching)? = MemoryCache(),
        progressive: Bool = false
    ) -> ImagePipeline {
        ImagePipeline(
            configuration: .init(
                dataLoader: URLSessionDataLoader(timeout: httpHangTimeout), memoryCache: memoryCache,
                isProgressiveDecodingEnabled: progressive))
    }
}
