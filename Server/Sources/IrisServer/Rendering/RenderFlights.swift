import IrisServerCore
import Synchronization

/// Renders in flight by the strong validator of their result (``PreparedRender/etag``: the
/// service's version, the options, the format and the source's bytes): a request whose result is
/// being rendered joins that render instead of decoding and encoding the same again, as a
/// request whose source is being fetched joins that fetch. Without a result cache (or before
/// it has the result) a burst of one URL is rendered once per render in flight, not once per
/// request.
///
/// The render runs in a task of its own, which the requests await; it is cancelled only when
/// every request waiting for it has been cancelled (a request cut off by its timeout leaves
/// the others their result).
final class RenderFlights<Value: Sendable>: Sendable {
    private struct Flight {
        let id: Int
        let task: Task<Result<Value, ServeError>, Never>
        var waiting: Int
    }

    private struct State {
        var flights: [String: Flight] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// The result `render` makes for `key`, by the render in flight for `key` if there is one.
    func render(
        _ key: String, _ render: @escaping @Sendable () async throws(ServeError) -> Value
    ) async throws(ServeError) -> Value {
        let (id, task) = state.withLock { state in
            if var flight = state.flights[key] {
                flight.waiting += 1
                state.flights[key] = flight
                return (flight.id, flight.task)
            }
            let id = state.nextID
            state.nextID += 1
            let task = Task { () async -> Result<Value, ServeError> in
                defer { self.end(key, id: id) }
                do throws(ServeError) {
                    return .success(try await render())
                } catch {
                    return .failure(error)
                }
            }
            state.flights[key] = Flight(id: id, task: task, waiting: 1)
            return (id, task)
        }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            leave(key, id: id)
        }
        return try result.get()
    }

    /// The result `render` makes for `key` in a render slot of `gate` (the source's `bytes`
    /// counted while it waits for one), or that of the render of `key` in flight: a request that
    /// joins a render waits without a slot of its own.
    func render(
        _ key: String, inSlotOf gate: AdmissionGate, source: String, bytes: Int,
        _ render: @escaping @Sendable () async throws(ServeError) -> Value
    ) async throws(ServeError) -> Value {
        try await self.render(key) { () async throws(ServeError) in
            try await gate.inRenderSlot(source: source, bytes: bytes) { () async throws(ServeError) in try await render() }
        }
    }

    /// Renders in flight.
    var count: Int { state.withLock { $0.flights.count } }

    /// The requests waiting for the render of `key` (0 when none is in flight).
    func waiting(for key: String) -> Int { state.withLock { $0.flights[key]?.waiting ?? 0 } }

    /// A cancelled request stops waiting; the last one cancels the render.
    private func leave(_ key: String, id: Int) {
        let orphaned: Task<Result<Value, ServeError>, Never>? = state.withLock { state in
            guard var flight = state.flights[key], flight.id == id else { return nil }
            flight.waiting -= 1
            guard flight.waiting == 0 else {
                state.flights[key] = flight
                return nil
            }
            state.flights[key] = nil
            return flight.task
        }
        // Outside the lock: cancelling runs the task's cancellation handlers synchronously.
        orphaned?.cancel()
    }

    /// The render of flight `id` has ended: a later request renders anew.
    private func end(_ key: String, id: Int) {
        state.withLock { state in
            if state.flights[key]?.id == id { state.flights[key] = nil }
        }
    }
}
