import ArgumentParser

/// `iris`: inspect, convert and thumbnail images with the Iris pipeline.
@main
struct IrisCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iris",
        abstract: "Inspect, convert and thumbnail images (JPEG, PNG, WebP, GIF).",
        subcommands: [InfoCommand.self, ConvertCommand.self, ThumbnailCommand.self, FramesCommand.self,
                      SheetCommand.self, SamplesCommand.self]
    )
}
