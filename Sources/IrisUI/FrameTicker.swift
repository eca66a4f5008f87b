#if canImport(UIKit) || canImport(AppKit)
#if canImport(UIKit)
import UIKit
#else
import AppKit
#endif
import QuartzCore

/// Calls `tick` with the seconds since it started on every display refresh, through a
/// `CADisplayLink`, until ``stop()`` or until it is released.
@MainActor
final class FrameTicker {
    private let tick: (Double) -> Void
    private var link: CADisplayLink?
    private var start: CFTimeInterval?

    init(view: PlatformView, tick: @escaping (Double) -> Void) {
        self.tick = tick
        // The link retains its target: a proxy that holds this ticker weakly breaks the cycle.
        let target = FrameTickerTarget()
        #if canImport(UIKit)
        let link = CADisplayLink(target: target, selector: #selector(FrameTickerTarget.step(_:)))
        #else
        let link = view.displayLink(target: target, selector: #selector(FrameTickerTarget.step(_:)))
        #endif
        target.ticker = self
        link.add(to: .main, forMode: .common)
        self.link = link
    }

    /// Stops the display link.
    func stop() {
        link?.invalidate()
        link = nil
    }

    fileprivate func step(_ link: CADisplayLink) {
        let start = self.start ?? link.timestamp
        self.start = start
        tick(link.timestamp - start)
    }
}

/// The display link's target; ends the link once its ticker is gone.
@MainActor
private final class FrameTickerTarget: NSObject {
    weak var ticker: FrameTicker?

    @objc func step(_ link: CADisplayLink) {
        if let ticker { ticker.step(link) } else { link.invalidate() }
    }
}
#endif
