import Foundation
import Logging
import Synchronization

/// A log handler that keeps every line, for the tests to read.
final class CapturedLog: Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let lines = Mutex<[Line]>([])

    var all: [Line] { lines.withLock { $0 } }

    func append(_ line: Line) { lines.withLock { $0.append(line) } }

    var logger: Logger { Logger(label: "captured") { _ in Handler(log: self) } }

    struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            log.append(
                Line(
                    level: event.level, message: event.message.description,
                    metadata: merged.mapValues { $0.description }))
        }
    }
}

/// The value of one series in a Prometheus text exposition: the line for `name` whose labels
/// include every pair of `labels`.
func metricValue(_ exposition: String, _ name: String, _ labels: [String: String] = [:]) -> Double? {
    for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
        let text = String(line)
        guard text.hasPrefix(name + "{") || text.hasPrefix(name + " ") else { continue }
        guard labels.allSatisfy({ text.contains("\($0.key)=\"\($0.value)\"") }) else { continue }
        return text.split(separator: " ").last.flatMap { Double($0) }
    }
    return nil
}
