import Foundation
import Iris

/// The HTML page of `iris sheet`: one card per image, thumbnail on a checkerboard (so alpha
/// shows) above what it came from.
struct ContactSheet {
    struct Entry {
        var source: String
        var thumbnail: String
        /// The thumbnail as the pipeline gave it: its source's format, size and orientation too.
        var image: LoadedImage
        var decodeMilliseconds: Double
        var sourceBytes: Int
        var thumbnailBytes: Int
    }

    var entries: [Entry]

    var html: String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Iris contact sheet</title>
        <style>
        body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; background: #f4f4f4; color: #222; }
        h1 { font-size: 20px; }
        .grid { display: flex; flex-wrap: wrap; gap: 16px; }
        figure { margin: 0; background: #fff; border-radius: 8px; padding: 12px; width: 264px;
                 box-shadow: 0 1px 3px rgba(0,0,0,.15); }
        .frame { height: 240px; display: flex; align-items: center; justify-content: center;
                 background: repeating-conic-gradient(#ddd 0% 25%, #fff 0% 50%) 0 0 / 16px 16px; }
        figcaption { margin-top: 8px; }
        figcaption b { display: block; }
        .meta { color: #555; font-size: 12px; }
        </style></head><body>
        <h1>Iris contact sheet: \(entries.count) images, each decoded at the thumbnail size</h1>
        <div class="grid">
        \(entries.map(card).joined(separator: "\n"))
        </div></body></html>

        """
    }

    private func card(_ entry: Entry) -> String {
        let image = entry.image
        let shown = image.sourceSize
        var facts = ["\(image.format) \(shown.width)×\(shown.height)"]
        if image.orientation != .up {
            let stored = image.orientation.swapsDimensions ? shown.transposed : shown
            facts.append("EXIF orientation \(image.orientation.rawValue) (stored \(stored.width)×\(stored.height))")
        }
        if image.bitmap.format.hasAlpha { facts.append("alpha") }
        if let animation = entry.image.animation, animation.frameCount > 1 {
            let loop = (0..<animation.frameCount).reduce(0) { $0 + animation.displayDuration(at: $1) }
            facts.append(String(format: "%d frames, %.1f s", animation.frameCount, loop))
        }
        facts.append(String(format: "decoded in %.1f ms", entry.decodeMilliseconds))
        facts.append(
            "\(kilobytes(entry.sourceBytes)) → \(kilobytes(entry.thumbnailBytes)) (\(entry.image.bitmap.width)×\(entry.image.bitmap.height))"
        )
        return """
            <figure><div class="frame"><img src="\(escaped(entry.thumbnail))" alt="\(escaped(entry.source))" \
            width="\(entry.image.bitmap.width)" height="\(entry.image.bitmap.height)"></div>
            <figcaption><b>\(escaped(entry.source))</b><span class="meta">\(facts.map(escaped).joined(separator: "<br>"))</span></figcaption></figure>
            """
    }

    private func kilobytes(_ bytes: Int) -> String {
        bytes >= 1_048_576 ? String(format: "%.1f MB", Double(bytes) / 1_048_576) : String(format: "%.1f KB", Double(bytes) / 1024)
    }

    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
