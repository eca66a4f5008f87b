import Foundation

/// Keeps inputs a test made with the real encoders as fuzzing seeds: when `IRIS_KEEP_SEEDS=DIR`
/// is set (as `scripts/make-fuzz-seeds` does), `keep` writes them to `DIR`; otherwise it does
/// nothing.
enum FuzzSeeds {
    static func keep(_ data: Data, as name: String) {
        guard let directory = ProcessInfo.processInfo.environment["IRIS_KEEP_SEEDS"] else { return }
        let url = URL(fileURLWithPath: directory, isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try? data.write(to: url.appendingPathComponent(name))
    }
}
