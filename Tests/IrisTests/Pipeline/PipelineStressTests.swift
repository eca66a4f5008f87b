import Foundation
import Testing
@testable import Iris
import IrisTestSupport

extension PipelineTests {
    @Suite("Stress")
    struct Stress {
        @Test("2,000 requests over 50 keys with random cancellation finish and leave nothing in flight")
        func randomCancellation() async throws {
            let calls = PipelineCounter()
            let payloads = (0..<50).map { PipelineTestFormat.photo(width: 24, height: 16, seed: UInt64($0)) }
            let pipeline = ImagePipeline.testPipeline(loader: PipelineCountingLoader(), memoryCache: nil)
            let outcomes = PipelineOrder()
            var generator = SystemRandomNumberGenerator()
            // Half the requests are cancelled (at once or after up to 5 ms); every request for
            // keys 45–49 is, so whole shared operations are cancelled while they run.
            let plans = (0..<2000).map { _ in
                let key = Int.random(in: 0..<50, using: &generator)
                let cancels = key >= 45 || Bool.random(using: &generator)
                return (
                    key: key,
                    small: Bool.random(using: &generator),
                    priority: ImageRequest.Priority.allCases.randomElement(using: &generator)!,
                    cancelAfter: cancels ? Int.random(in: -1...5, using: &generator) : nil,
                    reprioritise: Bool.random(using: &generator)
                )
            }
            let finished = await pipelineWithTimeout(.seconds(600)) {  // a hang detector
                await withTaskGroup(of: Void.self) { group in
                    for plan in plans {
                        let payload = payloads[plan.key]
                        let request = ImageRequest(
                            source: .data(id: "stress-\(plan.key)") {
                                calls.increment()
                                try await Task.sleep(for: .milliseconds(Int.random(in: 1...5)))
                                return payload
                            },
                            targetSize: plan.small ? CGSize(width: 12, height: 12) : nil,
                            priority: plan.priority)
                        let task = pipeline.task(for: request)
                        group.addTask {
                            if plan.reprioritise { task.priority = .veryHigh }
                            if let delay = plan.cancelAfter {
                                if delay >= 0 { try? await Task.sleep(for: .milliseconds(delay)) }
                                task.cancel()
                            }
                            do throws(ImageError) {
                                let image = try await task.image
                                outcomes.append(image.bitmap.width == (plan.small ? 12 : 24) ? "ok" : "wrong size")
                            } catch {
                                outcomes.append(error == .cancelled && plan.cancelAfter != nil ? "cancelled" : "error \(error)")
                            }
                        }
                    }
                }
            }
            #expect(finished, "the stress run hung")
            let results = outcomes.items
            #expect(results.count == 2000)
            #expect(results.allSatisfy { $0 == "ok" || $0 == "cancelled" }, "\(Set(results))")
            #expect(results.filter { $0 == "ok" }.count >= 2000 - plans.filter { $0.cancelAfter != nil }.count)
            #expect(await pipelineEventually { pipeline.inFlightCount == 0 }, "left in flight: \(pipeline.inFlightCount)")
            // Coalescing kept the closures far below one call per request.
            #expect(calls.count < 2000)
        }
    }
}
