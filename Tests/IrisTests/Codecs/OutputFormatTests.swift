import Iris
import Testing

@Suite struct OutputFormatTests {
    @Test("a format is named by its extension in any case, and knows its media type, extension and animations")
    func namesAndTypes() {
        #expect(OutputFormat(extension: "JPG") == .jpeg && OutputFormat(extension: "jpeg") == .jpeg)
        #expect(OutputFormat(extension: "WebP") == .webp && OutputFormat(extension: "bmp") == nil)
        #expect(OutputFormat.allCases.map(\.mimeType) == ["image/jpeg", "image/png", "image/webp", "image/avif", "image/gif"])
        #expect(OutputFormat.allCases.map(\.fileExtension) == ["jpg", "png", "webp", "avif", "gif"])
        #expect(OutputFormat.allCases.filter(\.writesAnimations) == [.webp, .gif])
        #expect(OutputFormat.allCases.allSatisfy { OutputFormat(extension: $0.imageFormat.rawValue) == $0 })
    }
}
