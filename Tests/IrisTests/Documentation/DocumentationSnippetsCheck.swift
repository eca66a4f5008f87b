import Foundation
import Testing

/// Every ```swift block of the DocC articles is code that is built: it appears, whitespace
/// aside, in `DocumentationSnippets.swift` (built and run here, on Linux) or in
/// `Examples/IrisExamples.swift` (type-checked for iOS and macOS by `scripts/typecheck-apple`).
@Suite("Documentation snippets are built")
struct DocumentationSnippetsCheck {
    /// The package's root: three folders up from this file (Tests/IrisTests/Documentation).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The files whose code is built, where the articles' blocks must appear.
    static let builtFiles = [
        "Tests/IrisTests/Documentation/DocumentationSnippets.swift",
        "Examples/IrisExamples.swift",
        // The codec plug-in example ("Adding a codec"), built and tested whole.
        "Tests/IrisTests/Codecs/CodecPlugInTests.swift",
    ]

    @Test("every swift block of every article appears in a built file")
    func everyBlockIsBuilt() throws {
        let articles = try Self.articles()
        #expect(articles.contains { $0.lastPathComponent == "GettingStarted.md" }, "articles found: \(articles.map(\.lastPathComponent))")
        let built = try Self.builtFiles.map {
            try SnippetText.normalised(String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8))
        }
        var blockCount = 0
        for article in articles {
            let blocks = SnippetText.swiftBlocks(in: try String(contentsOf: article, encoding: .utf8))
            blockCount += blocks.count
            for block in blocks where !built.contains(where: { $0.contains(SnippetText.normalised(block.code)) }) {
                Issue.record(
                    """
                    \(article.lastPathComponent):\(block.line): this swift block is in neither \(Self.builtFiles.joined(separator: " nor ")):
                    \(block.code)
                    """)
            }
        }
        #expect(blockCount > 0, "no swift blocks found in \(articles.count) articles")
    }

    @Test("the block parser finds fenced swift blocks with their lines, and nothing else")
    func parser() {
        let article = """
            # Title

            ```swift
            let a = 1
              let b = a
            ```

            ```sh
            iris info x.jpg
            ```

            ```
            .package(url: "x")
            ```

               ```swift
               print( a )
               ```
            """
        let blocks = SnippetText.swiftBlocks(in: article)
        #expect(blocks.map(\.code) == ["let a = 1\n  let b = a", "print( a )"])
        #expect(blocks.map(\.line) == [3, 16])
    }

    @Test("the match ignores whitespace but not a changed token")
    func matching() {
        let built = SnippetText.normalised("func f() {\n    let image = try await pipeline.image(for: request)\n}\n")
        #expect(built.contains(SnippetText.normalised("let image =\ttry await pipeline.image(for: request)")))
        #expect(!built.contains(SnippetText.normalised("let image = try await pipeline.image(for: other)")))
        #expect(!built.contains(SnippetText.normalised("let images = try await pipeline.image(for: request)")))
    }

    /// The articles of every DocC catalog under Sources/.
    static func articles() throws -> [URL] {
        let sources = root.appendingPathComponent("Sources")
        var found: [URL] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: catalog.path) else { continue }
            found += files.filter { $0.hasSuffix(".md") }.sorted().map { catalog.appendingPathComponent($0) }
        }
        return found
    }
}

/// Reads fenced code blocks and compares code whitespace aside.
enum SnippetText {
    struct Block: Equatable {
        /// The line of the opening fence, from 1.
        var line: Int
        var code: String
    }

    /// The ```swift blocks of a Markdown text, each without its fences and with the fence's
    /// indentation removed.
    static func swiftBlocks(in markdown: String) -> [Block] {
        enum State {
            case prose
            /// Inside a fence of another language (or none): skipped to its closing fence.
            case otherBlock
            /// Inside a swift block opened at `line`, its fence indented by `indent`.
            case swiftBlock(line: Int, indent: Int, lines: [Substring])
        }
        var blocks: [Block] = []
        var state = State.prose
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let indent = line.prefix { $0 == " " }.count
            let trimmed = line.dropFirst(indent)
            let isFence = trimmed.hasPrefix("```")
            switch state {
            case .prose:
                guard isFence else { continue }
                let language = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
                state = language == "swift" ? .swiftBlock(line: index + 1, indent: indent, lines: []) : .otherBlock
            case .otherBlock:
                if isFence { state = .prose }
            case .swiftBlock(let opened, let fenceIndent, var lines):
                if isFence {
                    blocks.append(Block(line: opened, code: lines.joined(separator: "\n")))
                    state = .prose
                } else {
                    lines.append(line.dropFirst(min(fenceIndent, indent)))
                    state = .swiftBlock(line: opened, indent: fenceIndent, lines: lines)
                }
            }
        }
        return blocks
    }

    /// `text` with every run of whitespace made one space, and none at either end.
    static func normalised(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
