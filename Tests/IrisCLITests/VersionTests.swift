import Foundation
import Testing
@testable import IrisCLI

/// `iris --version` prints the release the CHANGELOG names last (its "Unreleased" section, where
/// changes gather before a release, is not one).
@Suite("iris version")
struct VersionTests {
    @Test("iris --version is CHANGELOG.md's newest release")
    func versionMatchesChangelog() throws {
        let changelog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("CHANGELOG.md")
        let text = try String(contentsOf: changelog, encoding: .utf8)
        let heading = try #require(text.split(separator: "\n").first { $0.hasPrefix("## ") && !$0.hasPrefix("## Unreleased") })
        let newest = heading.dropFirst(3).split(separator: " ").first.map(String.init)
        #expect(newest == irisVersion)
        #expect(IrisCommand.configuration.version == irisVersion)
    }
}
