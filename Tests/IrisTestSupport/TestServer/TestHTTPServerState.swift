import Foundation
import NIOConcurrencyHelpers

/// The server's shared bookkeeping: routes, request log, counts and gates.
final class TestHTTPServerState: Sendable {
    private struct State {
        var routes: [String: TestHTTPRoute] = [:]
        var log: [TestHTTPRequest] = []
        var cancelled: [String] = []
        var openGates: Set<String> = []
        var waiters: [String: [UUID: CheckedContinuation<Void, Never>]] = [:]
        var abandoned: Set<UUID> = []
        var isShutDown = false
    }

    private let state = NIOLockedValueBox(State())

    func setRoute(_ route: TestHTTPRoute, for path: String) {
        state.withLockedValue { $0.routes[path] = route }
    }

    /// Logs `request` and returns the route of its path.
    func received(_ request: TestHTTPRequest) -> TestHTTPRoute? {
        state.withLockedValue { state in
            state.log.append(request)
            return state.routes[request.path]
        }
    }

    func cancelled(_ path: String) {
        state.withLockedValue { $0.cancelled.append(path) }
    }

    var log: [TestHTTPRequest] { state.withLockedValue { $0.log } }
    var cancelledLog: [String] { state.withLockedValue { $0.cancelled } }

    /// Suspends until `path`'s gate opens; returns at once when the calling task is cancelled.
    func waitForGate(_ path: String) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLockedValue { state in
                    if state.isShutDown || state.openGates.contains(path) || state.abandoned.remove(id) != nil { return true }
                    state.waiters[path, default: [:]][id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state in
                if let waiter = state.waiters[path]?.removeValue(forKey: id) { return Optional(waiter) }
                state.abandoned.insert(id)
                return nil
            }
            waiter?.resume()
        }
    }

    /// Opens `path`'s gate for good.
    func open(_ path: String) {
        let waiters = state.withLockedValue { state in
            state.openGates.insert(path)
            return state.waiters.removeValue(forKey: path).map { Array($0.values) } ?? []
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The gate piece `index` of `path`'s body waits for (see ``TestHTTPRoute/piecesOnRelease``).
    static func pieceGate(_ path: String, _ index: Int) -> String { "\(path) piece \(index)" }

    /// Opens every gate, now and later.
    func shutDown() {
        let waiters = state.withLockedValue { state in
            state.isShutDown = true
            defer { state.waiters = [:] }
            return state.waiters.values.flatMap(\.values)
        }
        for waiter in waiters { waiter.resume() }
    }
}
