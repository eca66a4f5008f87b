import Foundation
import Synchronization

/// Progress and summary of a batch, safe to update from many tasks: a progress bar on a
/// terminal, else one line per input on standard error.
final class BatchReport: Sendable {
    private struct State {
        var done = 0
        var written = 0
        var cancelled = 0
        var failures: [(String, String)] = []
    }
    private let state = Mutex(State())
    private let total: Int
    private let noun: String
    private let showsBar: Bool

    /// A report of `total` inputs, each making one of `noun` ("thumbnails").
    init(total: Int, noun: String, showsBar: Bool) {
        self.total = total
        self.noun = noun
        self.showsBar = showsBar
    }

    /// Outputs written so far.
    var written: Int { state.withLock { $0.written } }

    func succeeded(_ path: String, output: String) {
        state.withLock { state in
            state.done += 1
            state.written += 1
            show(state, line: "[\(state.done)/\(total)] \(path) -> \(output)")
        }
    }

    func failed(_ path: String, reason: String) {
        state.withLock { state in
            state.done += 1
            state.failures.append((path, reason))
            show(state, line: "[\(state.done)/\(total)] \(path): FAILED: \(reason)")
        }
    }

    /// An input stopped by an interruption (nothing written for it).
    func cancelled(_ path: String) {
        state.withLock { $0.cancelled += 1 }
    }

    private func show(_ state: State, line: String) {
        if showsBar { Terminal.progressBar(done: state.done, total: total, failed: state.failures.count) } else { Terminal.error(line) }
    }

    /// Prints the summary (what was written, what failed, and when interrupted what was not
    /// done); returns the number of failures.
    func finish(elapsed: Duration, interrupted: Bool) -> Int {
        state.withLock { state in
            if showsBar { Terminal.endProgressBar() }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if interrupted {
                Terminal.error(
                    String(
                        format: "interrupted after %.2f s: %d of %d %@ written, %d failed, %d not written (no partial files left)",
                        seconds, state.written, total, noun, state.failures.count, total - state.written - state.failures.count))
            } else {
                let rate = seconds > 0 ? Double(state.written) / seconds : 0
                Terminal.error(
                    String(
                        format: "%d %@ in %.2f s (%.1f images/s), %d failed",
                        state.written, noun, seconds, rate, state.failures.count))
            }
            for (path, reason) in state.failures { Terminal.error("  \(path): \(reason)") }
            return state.failures.count
        }
    }
}
