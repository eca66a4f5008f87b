import Foundation
#if canImport(UIKit) && !os(watchOS)
import UIKit
#endif

/// How hard the system is asking for memory back.
public enum MemoryPressure: Sendable, Hashable, CustomStringConvertible {
    /// A memory warning (`UIApplication.didReceiveMemoryWarningNotification`, a `DispatchSource`
    /// memory-pressure warning).
    case warning
    /// The system is about to end processes for memory (a critical memory-pressure event).
    case critical
    /// The app went to the background, where a large footprint gets it ended first.
    case background

    /// "warning", "critical" or "background".
    public var description: String {
        switch self {
        case .warning: "warning"
        case .critical: "critical"
        case .background: "background"
        }
    }
}

/// Passes the system's memory-pressure events to every live ``MemoryCache`` (each registers
/// itself when made, held weakly).
///
/// On iOS, tvOS and visionOS it listens to `UIApplication.didReceiveMemoryWarningNotification`
/// and `didEnterBackgroundNotification`; on every Apple platform to a `DispatchSource`
/// memory-pressure source (warning and critical). On Linux nothing reports by itself: a server
/// that watches its own memory (cgroup limits) calls ``report(_:)``.
public final class MemoryPressureMonitor: Sendable {
    /// The monitor every ``MemoryCache`` registers with.
    public static let shared = MemoryPressureMonitor(listensToSystem: true)

    private final class WeakCache: Sendable {
        weak let cache: MemoryCache?
        init(_ cache: MemoryCache) { self.cache = cache }
    }

    private let caches = LockedState<[WeakCache]>([])
    /// What ``observe(_:)`` registered, by token.
    private let observers = LockedState<[ObjectIdentifier: @MainActor @Sendable (MemoryPressure) -> Void]>([:])
    private let systemSources = LockedState<[any Sendable]>([])

    /// A monitor that reports only what ``report(_:)`` is told, or also the system's events.
    init(listensToSystem: Bool) {
        if listensToSystem { listenToSystem() }
    }

    /// Adds `cache` (held weakly) to those trimmed on each event.
    func register(_ cache: MemoryCache) {
        caches.withLock { list in
            list.removeAll { $0.cache == nil }
            list.append(WeakCache(cache))
        }
    }

    /// Gives memory back for `pressure`: trims every live cache (``MemoryCache/trim(for:)``),
    /// then, on the main actor, tells the observers (views off screen let go of their images,
    /// ``observe(_:)``) and trims the caches once more, so that what those views held and the
    /// caches kept goes too. Reported on the main thread, all of it happens before this returns.
    public func report(_ pressure: MemoryPressure) {
        guard observers.withLock({ !$0.isEmpty }) else { return trimCaches(for: pressure) }
        if Thread.isMainThread {
            MainActor.assumeIsolated { relieve(pressure) }
        } else {
            trimCaches(for: pressure)  // at once; again once the observers have let go
            Task { @MainActor in self.relieve(pressure) }
        }
    }

    /// Calls `handler` on the main actor at each memory-pressure event, until the returned
    /// observation is released: a view model lets go of what it shows off screen.
    public func observe(_ handler: @escaping @MainActor @Sendable (MemoryPressure) -> Void) -> MemoryPressureObservation {
        let observation = MemoryPressureObservation(monitor: self)
        observers.withLock { $0[ObjectIdentifier(observation)] = handler }
        return observation
    }

    /// Forgets the observer of `token`.
    func removeObserver(_ token: ObjectIdentifier) {
        _ = observers.withLock { $0.removeValue(forKey: token) }
    }

    @MainActor
    private func relieve(_ pressure: MemoryPressure) {
        let handlers = observers.withLock { Array($0.values) }
        for handler in handlers { handler(pressure) }
        trimCaches(for: pressure)
    }

    private func trimCaches(for pressure: MemoryPressure) {
        let live = caches.withLock { list -> [MemoryCache] in
            list.removeAll { $0.cache == nil }
            return list.compactMap(\.cache)
        }
        for cache in live { cache.trim(for: pressure) }
    }

    private func listenToSystem() {
        #if canImport(Darwin)
        let source = DispatchSource.makeMemoryPressureSource(eventMask: [.warning, .critical], queue: .global(qos: .utility))
        source.setEventHandler { [weak self, weak source] in
            guard let event = source?.data else { return }
            self?.report(event.contains(.critical) ? .critical : .warning)
        }
        source.activate()
        systemSources.withLock { $0.append(UncheckedSource(source)) }
        #endif
        #if canImport(UIKit) && !os(watchOS)
        let center = NotificationCenter.default
        let warning = center.addObserver(
            forName: UIApplication.didReceiveMemoryWarningNotification, object: nil,
            queue: nil
        ) { [weak self] _ in self?.report(.warning) }
        let background = center.addObserver(
            forName: UIApplication.didEnterBackgroundNotification, object: nil,
            queue: nil
        ) { [weak self] _ in self?.report(.background) }
        systemSources.withLock { $0.append(contentsOf: [UncheckedSource(warning), UncheckedSource(background)]) }
        #endif
    }
}

/// Keeps an observer of a ``MemoryPressureMonitor`` registered; releasing it removes the observer.
public final class MemoryPressureObservation: Sendable {
    private weak let monitor: MemoryPressureMonitor?

    init(monitor: MemoryPressureMonitor) {
        self.monitor = monitor
    }

    deinit {
        monitor?.removeObserver(ObjectIdentifier(self))
    }
}

#if canImport(Darwin)
/// A dispatch source or notification token kept for the life of the monitor.
private struct UncheckedSource: @unchecked Sendable {
    let value: AnyObject
    init(_ value: AnyObject) { self.value = value }
}
#endif
