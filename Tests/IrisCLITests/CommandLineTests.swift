import Foundation
import Testing
import IrisTestSupport

/// The `iris` executable as a user runs it: name clashes stop it before it writes, and Ctrl-C
/// (SIGINT) stops a batch, leaves no partial file and says what was done.
@Suite("CLI command line")
struct CommandLineTests {
    @Test("Two inputs that would share an output stop the command before anything is written")
    func nameClash() async throws {
        let directory = try CLITestSupport.directory("clash")
        defer { try? FileManager.default.removeItem(at: directory) }
        for folder in ["x", "y"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
            try CLITestSupport.writePhoto(directory.appendingPathComponent("\(folder)/a.jpg"), width: 64, height: 48)
        }
        let first = directory.appendingPathComponent("x/a.jpg").path, second = directory.appendingPathComponent("y/a.jpg").path
        for command in ["thumbnail", "sheet"] {
            let out = directory.appendingPathComponent("out-\(command)")
            let run = try await CLITestSupport.runIris([command, "--out", out.path, first, second])
            #expect(run.status == 1)
            #expect(run.standardError.contains(first) && run.standardError.contains(second), "\(run.standardError)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    @Test("thumbnail takes a folder: its images; with -r its subfolders too, mirrored under --out; a folder without images is an error")
    func folders() async throws {
        let directory = try CLITestSupport.directory("folders")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("2024/summer"), withIntermediateDirectories: true)
        try CLITestSupport.writePhoto(photos.appendingPathComponent("a.jpg"), width: 64, height: 48)
        try CLITestSupport.writePhoto(photos.appendingPathComponent("b.png"), width: 48, height: 64, format: .png)
        try CLITestSupport.writePhoto(photos.appendingPathComponent("2024/c.jpg"), width: 64, height: 48, seed: 2)
        try CLITestSupport.writePhoto(photos.appendingPathComponent("2024/summer/d.jpg"), width: 64, height: 48, seed: 3)
        try Data("not an image".utf8).write(to: photos.appendingPathComponent("notes.txt"))
        func exists(_ path: String, under out: URL) -> Bool {
            FileManager.default.fileExists(atPath: out.appendingPathComponent(path).path)
        }

        let flat = directory.appendingPathComponent("flat")
        let run = try await CLITestSupport.runIris(["thumbnail", "--size", "32", "--out", flat.path, photos.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(exists("a.jpg", under: flat) && exists("b.jpg", under: flat))
        #expect(!exists("notes.jpg", under: flat) && !exists("2024", under: flat))
        #expect(run.standardError.contains("skipped the folder") && run.standardError.contains("2024"), "\(run.standardError)")

        let tree = directory.appendingPathComponent("tree")
        let recursive = try await CLITestSupport.runIris(["thumbnail", "-r", "--size", "32", "--out", tree.path, photos.path])
        #expect(recursive.status == 0, "\(recursive.standardError)")
        #expect(exists("a.jpg", under: tree) && exists("b.jpg", under: tree))
        #expect(exists("2024/c.jpg", under: tree) && exists("2024/summer/d.jpg", under: tree))

        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try await CLITestSupport.runIris(["thumbnail", "--out", directory.appendingPathComponent("none").path, empty.path])
        #expect(none.status == 1)
        #expect(none.standardError.contains("holds no image"), "\(none.standardError)")
    }

    @Test("service-url prints the URL a view of a slot fetches; a bad slot is a usage error")
    func serviceURL() async throws {
        let run = try await CLITestSupport.runIris([
            "service-url", "--service", "https://img.example.com", "--slot", "130x97.6",
            "--scale", "3", "--gravity", "sm", "https://cdn.example.com/a.jpg",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "https://img.example.com/insecure/rs:fill:480:320/g:sm/plain/https://cdn.example.com/a.jpg@webp\n")
        let fit = try await CLITestSupport.runIris([
            "service-url", "--service", "https://img.example.com", "--slot", "100x100",
            "--fit", "--format", "auto", "https://cdn.example.com/a.jpg",
        ])
        #expect(fit.standardOutput == "https://img.example.com/insecure/rs:fit:128:128/plain/https://cdn.example.com/a.jpg\n")
        let bad = try await CLITestSupport.runIris([
            "service-url", "--service", "https://img.example.com", "--slot", "100",
            "https://cdn.example.com/a.jpg",
        ])
        #expect(bad.status != 0 && bad.standardError.contains("--slot"))
    }

    @Test("SIGINT stops a batch: the finished thumbnail stays, no partial file, a summary")
    func interrupt() async throws {
        let directory = try CLITestSupport.directory("interrupt")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first.jpg"), last = directory.appendingPathComponent("last.jpg")
        try CLITestSupport.writePhoto(first, width: 320, height: 240)
        try CLITestSupport.writePhoto(last, width: 320, height: 240, seed: 2)
        // A named pipe nobody writes to: opening it to decode blocks until the process ends, so
        // the batch (one job) is certainly mid-way when the signal comes, whatever the speed.
        let stuck = directory.appendingPathComponent("stuck.jpg")
        #expect(mkfifo(stuck.path, 0o600) == 0)
        let out = directory.appendingPathComponent("out")
        let run = try await CLITestSupport.runIris(
            ["thumbnail", "--jobs", "1", "--size", "64", "--out", out.path, first.path, stuck.path, last.path],
            interruptAfter: "[1/3]")
        #expect(run.status == 130, "\(run.standardError)")
        #expect(run.standardError.contains("interrupted"), "\(run.standardError)")
        #expect(run.standardError.contains("1 of 3 thumbnails written"), "\(run.standardError)")
        #expect(CLITestSupport.fileNames(in: out) == ["first.jpg"])
        #expect(try CLITestSupport.decodedSize(out.appendingPathComponent("first.jpg")).width == 64)
    }
}
