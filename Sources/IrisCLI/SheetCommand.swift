#if DevelopmentTools
import ArgumentParser
import Foundation
import Iris

/// `iris sheet`: a contact sheet (index.html) of thumbnails, each beside its source's size,
/// format, frames, decode time and bytes. Animations stay animated (WebP), alpha stays (PNG).
struct SheetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sheet",
        abstract: "Thumbnail images into DIR/thumbs and write DIR/index.html, a contact sheet of them."
    )

    @Option(name: .long, help: "Thumbnail box: W or WxH.")
    var size = ThumbnailSize(width: 240, height: 240)

    @Option(name: .long, help: "Output directory.")
    var out = "sheet"

    @Argument(help: "Image files.")
    var files: [String]

    func run() async throws {
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        let thumbs = directory.appendingPathComponent("thumbs", isDirectory: true)
        try FileManager.default.createDirectory(at: thumbs, withIntermediateDirectories: true)
        var entries: [ContactSheet.Entry] = []
        var failed = false
        for path in files {
            do {
                entries.append(try await thumbnail(path, into: thumbs))
            } catch {
                failed = true
                Terminal.error("\(path): \(readable(error))")
            }
        }
        let page = directory.appendingPathComponent("index.html")
        try Data(ContactSheet(entries: entries).html.utf8).write(to: page, options: .atomic)
        Terminal.error("wrote \(page.path) (\(entries.count) images)")
        if failed { throw ExitCode.failure }
    }

    private func thumbnail(_ path: String, into thumbs: URL) async throws -> ContactSheet.Entry {
        let input = URL(fileURLWithPath: path)
        let data = try Data(contentsOf: input)
        let header = try ImageDecoderRegistry.standard.header(of: data)
        let clock = ContinuousClock()
        let start = clock.now
        let image = try ImageDecoderRegistry.standard.decode(
            data, options: DecodeOptions(target: DecodeTarget(width: size.width, height: size.height)))
        let decodeTime = clock.now - start
        // Animations as animated WebP, alpha as PNG, the rest as JPEG.
        let output = ImageOutput(format: image.bitmap.format.hasAlpha ? .png : .jpeg, options: EncodeOptions(quality: 85),
                                 keepsAnimation: true, background: RGBA(r: 255, g: 255, b: 255))
        let (encoded, fileExtension) = try await output.encode(image)
        let name = input.deletingPathExtension().lastPathComponent + "." + fileExtension
        try encoded.write(to: thumbs.appendingPathComponent(name), options: .atomic)
        return ContactSheet.Entry(source: input.lastPathComponent, thumbnail: "thumbs/" + name, header: header,
                                  image: image, decodeMilliseconds: Double(decodeTime.components.attoseconds) / 1e15
                                      + Double(decodeTime.components.seconds) * 1000,
                                  sourceBytes: data.count, thumbnailBytes: encoded.count)
    }
}
#endif
