import Foundation
import Iris
import IrisServerCore
import Testing

@Suite struct ImgproxyURLBuilderTests {
    @Test func base64URLMatchesThePublishedVector() {
        let builder = ImgproxyURLBuilder(signature: URLSignature(keys: [SignatureTests.key]))
        let options = ["rs:fill:300:400:0", "g:sm"]
        let source = "http://example.com/images/curiosity.jpg"
        #expect(builder.path(options: options, source: source, extension: "png", encoding: .base64) == SignatureTests.vectorPath)
        #expect(
            builder.url(options: options, source: source, extension: "png", encoding: .base64)
                == "/oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8" + SignatureTests.vectorPath)
    }

    @Test func withoutAKeyTheSignatureIsUnsafe() {
        let builder = ImgproxyURLBuilder(signature: nil)
        #expect(
            builder.url(options: ["w:100"], source: "local:///a/b.jpg", extension: "webp")
                == "/unsafe/w:100/plain/local:///a/b.jpg@webp")
        #expect(builder.url(options: [], source: "local:///b.jpg") == "/unsafe/plain/local:///b.jpg")
        #expect(
            ImgproxyURLBuilder(signature: URLSignature(keys: [])).url(options: [], source: "local:///b.jpg")
                == "/unsafe/plain/local:///b.jpg")
    }

    /// Sources with a query, `@`, `%`, spaces and letters beyond ASCII read back as they were,
    /// in both encodings, and a signed URL passes the signature check.
    @Test func whatItBuildsReadsBack() throws {
        let signature = URLSignature(keys: [SignatureTests.key], size: 8)
        let builder = ImgproxyURLBuilder(signature: signature)
        let reader = ImgproxyURL(signature: signature, acceptsUnsigned: false)
        let sources = ["https://cdn.test/a b/p@2x.jpg?v=1&w=%20#frag", "local:///dir/été.png", "http://a.test/x.jpg"]
        for source in sources {
            for encoding in ImgproxyURLBuilder.SourceEncoding.allCases {
                for ext in [nil, "webp"] {
                    let url = builder.url(
                        options: ["rs:fill:300:200", "g:sm", "q:70"], source: source, extension: ext,
                        encoding: encoding)
                    let request = try reader.parse(url)
                    #expect(request.source.description == (try SourceReference(parsing: source)).description, "\(url)")
                    #expect(request.options.width == 300 && request.options.height == 200 && request.options.gravity == .smart)
                    #expect(request.options.quality == 70)
                    #expect(request.options.format == ext.flatMap(OutputFormat.init(extension:)), "\(url)")
                }
            }
        }
        let plain = builder.path(options: [], source: sources[0], extension: "webp")
        #expect(plain == "/plain/https://cdn.test/a%20b/p%402x.jpg%3Fv%3D1%26w%3D%2520%23frag@webp")
    }
}
