import Foundation

/// Runs the server's response tasks on a serial queue of their own, off Swift's cooperative
/// pool: on two cores the tests' CPU-bound work can hold both of the pool's threads for seconds,
/// and the server must answer (and release held pieces) meanwhile.
final class TestHTTPExecutor: TaskExecutor {
    static let shared = TestHTTPExecutor()

    private let queue = DispatchQueue(label: "IrisTestSupport.TestHTTPServer.responses")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
