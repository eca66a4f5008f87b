import Foundation

/// Inputs the tests make with the real encoders, kept as files when an environment variable
/// names a directory: `IRIS_KEEP_SEEDS` (fuzzing seeds, as `scripts/make-fuzz-seeds` sets) and
/// `IRIS_KEEP_CORPUS` (the bad-input corpus, as `make bad-input-corpus` sets). Without the
/// variable, nothing is written.
enum KeptInputs {
    static let seedsVariable = "IRIS_KEEP_SEEDS"
    static let corpusVariable = "IRIS_KEEP_CORPUS"

    /// Writes `data` as `name` into the directory `variable` names, if it names one.
    static func keep(_ data: Data, as name: String, in variable: String = seedsVariable) throws {
        guard let directory = ProcessInfo.processInfo.environment[variable] else { return }
        let url = URL(fileURLWithPath: directory, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try data.write(to: url.appendingPathComponent(name))
    }
}
