import IrisServerCore

extension ImageRenderer {
    /// `work` admitted into the bounded work queue (at once, or refused with a 429) and cut off
    /// at the processing timeout (a 504). The admission is held until the work really ends,
    /// even past a timeout that answered already.
    func admitted<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try gate.admit()
        return try await withTimeout(configuration.processingTimeout, whenWorkEnds: { self.gate.dismiss() }, work)
    }

    /// `body` holding a render slot: one only while rendering, so a request waiting on a slow
    /// source keeps no core from the others, and an encode that cannot stop still has its core.
    func inRenderSlot<T>(
        for prepared: PreparedRender, _ body: () async throws(ServeError) -> T
    ) async throws(ServeError) -> T {
        try await gate.enter(source: prepared.request.source.description, bytes: prepared.data.count)
        defer { gate.leave() }
        // Cut off by the timeout while it waited: the slot goes straight back.
        if Task.isCancelled { throw ServeError(status: 503, "the request was cancelled") }
        return try await body()
    }
}
