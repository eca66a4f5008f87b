#if DevelopmentTools
import ArgumentParser

/// `iris`: inspect, convert and thumbnail images with the Iris pipeline.
@main
struct IrisCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iris",
        abstract: "Inspect, convert and thumbnail images (reads JPEG, PNG, WebP, GIF, AVIF, HEIC, JPEG XL; writes JPEG, PNG, WebP, AVIF).",
        subcommands: [InfoCommand.self, ConvertCommand.self, ThumbnailCommand.self, FramesCommand.self,
                      SheetCommand.self, SamplesCommand.self]
    )
}
#else
import Foundation

/// Without the DevelopmentTools trait there is no argument parser: say how to build the tool.
@main
enum IrisCommand {
    static func main() {
        FileHandle.standardError.write(Data("iris: build with `--traits DevelopmentTools` (the Makefile does)\n".utf8))
        exit(2)
    }
}
#endif
