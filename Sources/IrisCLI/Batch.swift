import Foundation
import Iris

/// Runs one piece of work per input with at most `jobs` at once (children of one task group,
/// so nothing blocks a thread waiting for async work) and reports each as it ends.
///
/// Cancelling the calling task (Ctrl-C, see ``Interrupt``) starts no more inputs and cancels
/// the running ones; what was written stays written.
struct Batch: Sendable {
    /// The input paths, in order.
    let inputs: [String]
    /// The most inputs in flight at once (at least one).
    let jobs: Int
    /// Progress and the summary.
    let report: BatchReport

    /// Runs `work(index, path)` for every input; returns each input's result in input order
    /// (`nil` when it failed or was cancelled). `work` returns its result and the path written.
    func run<Result: Sendable>(_ work: @escaping @Sendable (Int, String) async throws -> (Result, written: String)) async -> [Result?] {
        var results = [Result?](repeating: nil, count: inputs.count)
        await withTaskGroup(of: (Int, Result?).self) { group in
            var next = 0
            func startNext() {
                let index = next
                let path = inputs[index]
                next += 1
                group.addTask { [report] in
                    do {
                        let (result, written) = try await work(index, path)
                        report.succeeded(path, output: written)
                        return (index, result)
                    } catch {
                        if Task.isCancelled || Self.isCancellation(error) {
                            report.cancelled(path)
                        } else {
                            report.failed(path, reason: readable(error))
                        }
                        return (index, nil)
                    }
                }
            }
            while next < min(max(jobs, 1), inputs.count) { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                if next < inputs.count && !Task.isCancelled { startNext() }
            }
        }
        return results
    }

    private static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if case .cancelled? = error as? ImageError { return true }
        return false
    }
}
