#if canImport(SwiftUI)
import SwiftUI
#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
#endif

/// Reports whether the window a SwiftUI view is in can be seen: on macOS, a window covered by
/// others, minimised or on another Space is not (`NSWindow.occlusionState`), and SwiftUI's scene
/// phase does not say so. Elsewhere the scene phase covers it and this adds nothing.
struct WindowVisibility: ViewModifier {
    let report: @MainActor (Bool) -> Void

    func body(content: Content) -> some View {
        #if canImport(AppKit) && !targetEnvironment(macCatalyst)
        content.background(WindowOcclusionReader(report: report))
        #else
        content
        #endif
    }
}

#if canImport(AppKit) && !targetEnvironment(macCatalyst)
/// An empty AppKit view that reports its window's occlusion: when it moves to a window, and
/// whenever that window's occlusion changes.
private struct WindowOcclusionReader: NSViewRepresentable {
    let report: @MainActor (Bool) -> Void

    func makeNSView(context: Context) -> OcclusionReportingView {
        let view = OcclusionReportingView()
        view.report = report
        return view
    }

    func updateNSView(_ view: OcclusionReportingView, context: Context) {
        view.report = report
    }
}

/// See ``WindowOcclusionReader``.
final class OcclusionReportingView: NSView {
    var report: (@MainActor (Bool) -> Void)?
    private var observer: (any NSObjectProtocol)?

    override func viewDidMoveToWindow() {
        super.viewDidMoveToWindow()
        if let observer { NotificationCenter.default.removeObserver(observer) }
        observer = nil
        guard let window else { return }
        observer = NotificationCenter.default.addObserver(
            forName: NSWindow.didChangeOcclusionStateNotification,
            object: window, queue: .main
        ) { [weak self] _ in
            MainActor.assumeIsolated { self?.reportOcclusion() }
        }
        reportOcclusion()
    }

    private func reportOcclusion() {
        guard let window else { return }
        report?(window.occlusionState.contains(.visible))
    }

    override func hitTest(_ point: NSPoint) -> NSView? { nil }
}
#endif
#endif
