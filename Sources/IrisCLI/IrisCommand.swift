import ArgumentParser
import Foundation

/// The version of this release of Iris (CHANGELOG.md's newest entry; a test checks they agree).
let irisVersion = "0.1.0"

/// `iris`: inspect, convert and thumbnail images with the Iris pipeline.
@main
struct IrisCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iris",
        abstract:
            "Inspect, convert and thumbnail images (reads JPEG, PNG, WebP, GIF, AVIF, HEIC, JPEG XL; writes JPEG, PNG, WebP, AVIF, GIF).",
        version: irisVersion,
        subcommands: [
            InfoCommand.self, ConvertCommand.self, ThumbnailCommand.self, FramesCommand.self,
            SheetCommand.self, SamplesCommand.self, ServiceURLCommand.self,
        ]
    )

    /// The cores this process may use, read once: the count comes from files (the cgroup's CPU
    /// quota and CPU set), and ArgumentParser makes a command several times while parsing, each
    /// time evaluating the `--jobs` default.
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// Parses the arguments once, caps the allocator's arenas at the images the command decodes
    /// at once (its `--jobs`, by default the number of cores), then runs the command.
    static func main() async {
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        AllocatorArenas.limit(to: AllocatorArenas.count(for: command, cores: cores))
        do {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                var command = command
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
