import Foundation
import Iris
import IrisServerCore
import Testing

/// Public mode as plain values: which unsigned URLs ``ImgproxyURL`` takes, the canonical path
/// each rendition is known by, and that a signed URL keeps every option.
@Suite struct PublicAccessTests {
    let access = PublicAccess(ladder: .standard, allowedSources: ["https://img.test/photos/", "local:///public/"])
    var reader: ImgproxyURL {
        ImgproxyURL(signature: URLSignature(keys: [SignatureTests.key]), acceptsUnsigned: false, publicAccess: access)
    }

    @Test func ladderSizesFromAllowedSourcesAreTaken() throws {
        let request = try reader.parse("/insecure/rs:fill:640:480/g:sm/plain/https://img.test/photos/a.jpg@webp")
        #expect(request.options.resizingType == .fill && request.options.width == 640 && request.options.height == 480)
        #expect(request.options.gravity == .smart && request.options.format == .webp)
        #expect(request.source == .remote(URL(string: "https://img.test/photos/a.jpg")!))
        let local = try reader.parse("/_/resize:fit:32:3840/plain/local:///public/b.png")
        #expect(local.options.resizingType == .fit && local.options.width == 32 && local.options.height == 3840)
    }

    /// However a rendition is spelled (long names, a fit's gravity, the base64 source, `jpeg`
    /// for `jpg`), it has one path: one result cache entry, one ETag.
    @Test func everySpellingOfARenditionHasOnePath() throws {
        let base64 = Base64URL.encode(Array("https://img.test/photos/a.jpg".utf8))
        let fills = try [
            "/x/rs:fill:96:128/g:no/plain/https://img.test/photos/a.jpg@jpg",
            "/y/resize:fill:96:128/gravity:no/plain/https://img.test/photos/a.jpg@jpeg",
            "/insecure/g:no/rs:fill:96:128/\(base64).jpg",
        ].map { try reader.parse($0).signedPath }
        #expect(Set(fills) == ["/rs:fill:96:128/g:no/plain/https://img.test/photos/a.jpg@jpg"])
        let fits = try [
            "/x/rs:fit:96:128/g:sm/plain/https://img.test/photos/a.jpg", "/x/rs:fit:96:128/plain/https://img.test/photos/a.jpg",
        ]
        .map { try reader.parse($0).signedPath }
        #expect(Set(fits) == ["/rs:fit:96:128/plain/https://img.test/photos/a.jpg"])
    }

    @Test func sizesOffTheLadderAreRefused() {
        for options in ["rs:fill:100:100", "rs:fill:64:65", "rs:fit:0:64", "rs:fit:064:64", "rs:fill:4000:4000", "rs:fill:64"] {
            #expect(throws: ServeError.self, "\(options)") {
                try reader.parse("/insecure/\(options)/plain/https://img.test/photos/a.jpg@webp")
            }
        }
        do throws(ServeError) {
            _ = try reader.parse("/insecure/rs:fill:100:100/plain/https://img.test/photos/a.jpg")
            Issue.record("an off-ladder size was taken")
        } catch {
            #expect(error.status == 403 && error.reason.contains("100×100 is not on the size ladder"), "\(error)")
        }
    }

    @Test func optionsTheClientMayNotSetAreRefusedByName() {
        let refused = [
            "w:64", "rs:fill:64:64:1", "rs:force:64:64", "rs:fill-down:64:64", "dpr:2", "q:100", "bl:5", "pr:thumb",
            "raw:1", "g:ce:10:10", "g:fp:0.5:0.5", "c:10:10", "pd:5", "exp:4102444800", "mrd:10", "wm:1", "cb:x",
        ]
        for option in refused {
            let options = option.hasPrefix("rs:") ? option : "rs:fill:64:64/" + option
            do throws(ServeError) {
                _ = try reader.parse("/insecure/\(options)/plain/https://img.test/photos/a.jpg@webp")
                Issue.record("\(option) was taken")
            } catch {
                #expect(error.status == 403 && error.reason.hasPrefix("unsigned URL (public mode): "), "\(option): \(error)")
            }
        }
        #expect(throws: ServeError.self) { try reader.parse("/insecure/plain/https://img.test/photos/a.jpg@webp") }
        #expect(throws: ServeError.self) { try reader.parse("/insecure/rs:fill:64:64/rs:fill:96:96/plain/https://img.test/photos/a.jpg") }
    }

    @Test func sourcesOffTheListAreRefused() {
        for source in [
            "https://img.test/private/a.jpg", "https://evil.test/photos/a.jpg", "http://img.test/photos/a.jpg",
            "local:///secret/a.png",
        ] {
            do throws(ServeError) {
                _ = try reader.parse("/insecure/rs:fill:64:64/plain/\(source)@webp")
                Issue.record("\(source) was taken")
            } catch {
                #expect(error == .forbidden("unsigned URL (public mode): the source is not on the allow-list"), "\(source)")
            }
        }
    }

    /// A valid signature keeps every option, off the ladder and off the list included.
    @Test func signedURLsKeepFullPower() throws {
        let path = "/rs:fill:100:77:1/dpr:2/bl:1/plain/https://elsewhere.test/a.jpg@png"
        let signature = try #require(URLSignature(keys: [SignatureTests.key]).sign(path))
        let request = try reader.parse("/" + signature + path)
        #expect(request.options.width == 100 && request.options.dpr == 2 && request.options.blur == 1)
        #expect(request.signedPath == path)
    }

    /// Client hints shape only signed URLs: a public URL's size is the ladder's alone.
    @Test func clientHintsDoNotResizePublicURLs() throws {
        var hinted = ProcessingOptions()
        hinted.dpr = 3
        let request = try reader.parse("/insecure/rs:fill:64:64/plain/https://img.test/photos/a.jpg@webp", defaults: hinted)
        #expect(request.options.dpr == 1)
    }
}
