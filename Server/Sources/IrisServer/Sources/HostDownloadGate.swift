import DequeModule
import Foundation
import IrisServerCore
import Synchronization

/// Bounds the downloads of each source host: at most ``maxRunning`` at once per host, at most
/// ``maxWaiting`` more waiting for one in arrival order, none waiting past ``maxWait``.
///
/// A slow host fills its own allowance and its own queue, never another host's, so sources on
/// other hosts keep downloading while it crawls. What cannot be served in time is answered at
/// once (429 with `Retry-After`) rather than late: a download beyond the host's queue; one
/// whose expected wait (its place in the queue × the host's recent download time ÷ its
/// allowance) would end past its deadline, judged when it arrives and again whenever one of
/// the host's downloads ends; and one still waiting at its deadline.
///
/// A host is a URL's host name and port (an origin server); it is forgotten when it has no
/// download running or waiting.
package final class HostDownloadGate: Sendable {
    /// A download's place among its host's running ones, given back with ``leave(_:)``.
    package struct Permit: Sendable {
        /// The host.
        package let host: String
        /// When the download started, on the gate's clock.
        let started: Duration
    }

    private struct Waiter {
        let id: UInt64
        let deadline: Duration
        /// Resumed with `nil` when the download may start, else with the refusal.
        let continuation: CheckedContinuation<ServeError?, Never>
    }

    private struct Host {
        var running = 0
        var waiting = Deque<Waiter>()
        /// How long the host's downloads take lately (a moving average), once one has ended.
        var typicalDuration: Duration?
    }

    private let hosts = Mutex<[String: Host]>([:])
    private let nextID = Atomic<UInt64>(0)
    private let clock: DeadlineClock
    /// The most downloads of one host at once.
    package let maxRunning: Int
    /// The most downloads of one host waiting for one of its slots.
    package let maxWaiting: Int
    /// The longest a download waits for a slot of its host.
    package let maxWait: Duration

    /// Makes a gate; `clock` keeps the deadlines and times the downloads.
    package init(maxRunning: Int, maxWaiting: Int, maxWait: Duration, clock: DeadlineClock = .continuous) {
        self.maxRunning = max(1, maxRunning)
        self.maxWaiting = max(0, maxWaiting)
        self.maxWait = maxWait
        self.clock = clock
    }

    static let queueFull = ServeError(status: 429, "too many downloads from the source's host are waiting, retry later")
    static let tooSlow = ServeError(status: 429, "the source's host is too slow to answer in time, retry later")
    static let cancelled = ServeError(status: 503, "the request was cancelled")
    /// The answers of a host with no room for a download.
    static let refusals = [queueFull, tooSlow]

    /// The host of `url` as the gate counts it: the name, lowercased, and the port.
    package static func host(of url: URL) -> String? {
        guard let name = url.host?.lowercased(), !name.isEmpty else { return nil }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return "\(name):\(port)"
    }

    /// Downloads of `host` running now, and waiting for a slot.
    package func load(of host: String) -> (running: Int, waiting: Int) {
        hosts.withLock { hosts in (hosts[host]?.running ?? 0, hosts[host]?.waiting.count ?? 0) }
    }

    /// Takes a download slot of `host`: at once when one is free and nobody waits, else in
    /// arrival order; throws 429 at once when the host's queue is full or the wait is expected
    /// to outlast ``maxWait``, and when it has waited ``maxWait``. Every permit is given back
    /// with one ``leave(_:)``.
    package func enter(_ host: String) async throws(ServeError) -> Permit {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let deadline = clock.now + maxWait
        var expiry: Task<Void, Never>?
        let refusal = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ServeError?, Never>) in
                switch arrive(Waiter(id: id, deadline: deadline, continuation: continuation), at: host) {
                case .started: continuation.resume(returning: nil)
                case .refused(let refusal): continuation.resume(returning: refusal)
                case .queued:
                    expiry = Task { [weak self, clock] in
                        do { try await clock.sleep(until: deadline) } catch { return }
                        self?.remove(id, of: host, answering: Self.tooSlow)
                    }
                }
            }
        } onCancel: {
            remove(id, of: host, answering: Self.cancelled)
        }
        expiry?.cancel()
        if let refusal { throw refusal }
        return Permit(host: host, started: clock.now)
    }

    /// Gives back a slot: to the host's first waiter, if any; the host's download time is
    /// learnt, and the waiters it now says would wait past their deadline are answered.
    package func leave(_ permit: Permit) {
        let now = clock.now
        let took = now - permit.started
        let (next, late): (Waiter?, [Waiter]) = hosts.withLock { hosts in
            guard var host = hosts[permit.host] else { return (nil, []) }
            host.typicalDuration = host.typicalDuration.map { ($0 * 3 + took) / 4 } ?? took
            let next = host.waiting.popFirst()
            if next == nil { host.running -= 1 }
            let late = shedLate(&host, now: now)
            hosts[permit.host] = host.running == 0 && host.waiting.isEmpty ? nil : host
            return (next, late)
        }
        next?.continuation.resume(returning: nil)
        for waiter in late { waiter.continuation.resume(returning: Self.tooSlow) }
    }

    /// What became of a download on arrival.
    private enum Arrival {
        /// It took a free slot.
        case started
        /// It waits in its host's queue.
        case queued
        /// It is answered at once.
        case refused(ServeError)
    }

    /// Starts `waiter`'s download on its host, queues it, or refuses it.
    private func arrive(_ waiter: Waiter, at key: String) -> Arrival {
        hosts.withLock { hosts -> Arrival in
            // Cancelled before it could queue: the cancellation handler found nothing to remove.
            if Task.isCancelled { return .refused(Self.cancelled) }
            var host = hosts[key, default: Host()]
            defer { hosts[key] = host.running == 0 && host.waiting.isEmpty ? nil : host }
            if host.running < maxRunning && host.waiting.isEmpty {
                host.running += 1
                return .started
            }
            if host.waiting.count >= maxWaiting { return .refused(Self.queueFull) }
            if let typical = host.typicalDuration, expectedWait(place: host.waiting.count + 1, typical) > maxWait {
                return .refused(Self.tooSlow)
            }
            host.waiting.append(waiter)
            return .queued
        }
    }

    /// How long the waiter at `place` (1: next) is expected to wait: the host's slots free up
    /// one per `typical ÷ maxRunning`.
    private func expectedWait(place: Int, _ typical: Duration) -> Duration {
        typical * place / maxRunning
    }

    /// Takes out of the queue the waiters whose expected wait ends past their deadline.
    private func shedLate(_ host: inout Host, now: Duration) -> [Waiter] {
        guard let typical = host.typicalDuration else { return [] }
        var kept = Deque<Waiter>()
        var late: [Waiter] = []
        for waiter in host.waiting {
            if now + expectedWait(place: kept.count + 1, typical) > waiter.deadline {
                late.append(waiter)
            } else {
                kept.append(waiter)
            }
        }
        host.waiting = kept
        return late
    }

    /// The waiter `id`, if still waiting, leaves the queue answered `refusal`.
    private func remove(_ id: UInt64, of key: String, answering refusal: ServeError) {
        let removed: Waiter? = hosts.withLock { hosts in
            guard var host = hosts[key], let index = host.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            let waiter = host.waiting.remove(at: index)
            hosts[key] = host.running == 0 && host.waiting.isEmpty ? nil : host
            return waiter
        }
        removed?.continuation.resume(returning: refusal)
    }
}
