import Foundation
import Iris

/// Runs one piece of work per input, one input more than `jobs` at once (children of one task
/// group, so nothing blocks a thread waiting for async work), and reports each as it ends.
///
/// The commands' work is a decode (their pipeline decodes at most `jobs` images at once), then
/// an encode and a write. The input beyond `jobs` waits in the pipeline's decode queue while
/// another input is encoded and written (its file synced to the disk), so the decode slot is
/// taken again as soon as it is free: no core waits for an encode or a write between two
/// decodes. With one job over twelve 2048×1536 WebP files that is 4 % less wall time
/// (docs/BENCHMARKS.md).
///
/// Cancelling the calling task (Ctrl-C, see ``Interrupt``) starts no more inputs and cancels
/// the running ones; what was written stays written.
struct Batch: Sendable {
    /// The input paths, in order.
    let inputs: [String]
    /// The images decoded at once (at least one); one input more is in flight.
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
            while next < min(inFlight, inputs.count) { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                if next < inputs.count && !Task.isCancelled { startNext() }
            }
        }
        return results
    }

    /// Inputs in flight at once: `jobs` decoding, and one waiting for a decode slot.
    var inFlight: Int { max(jobs, 1) + 1 }

    private static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if case .cancelled? = error as? ImageError { return true }
        return false
    }
}
