#if canImport(SwiftUI)
import SwiftUI

/// Redraws its content on every display frame with the seconds since it appeared; which
/// animation frame that means is decided by the core (`Animation.frameIndex(atElapsed:)`; frames: AnimationPlayer).
/// SwiftUI stops the timeline while the view is off screen.
struct AnimationTimeline<Content: View>: View {
    let content: (Double) -> Content
    @State private var start = Date()

    var body: some View {
        TimelineView(.animation) { context in
            content(context.date.timeIntervalSince(start))
        }
        .onAppear { start = Date() }
    }
}
#endif
