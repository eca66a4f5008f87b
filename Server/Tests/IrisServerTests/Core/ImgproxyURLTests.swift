import Foundation
import IrisServerCore
import Testing

@Suite struct ImgproxyURLTests {
    let dev = ImgproxyURL(signature: nil, acceptsUnsigned: true)

    @Test func publishedVectorPathParses() throws {
        let signed = ImgproxyURL(signature: URLSignature(keys: [SignatureTests.key]), acceptsUnsigned: false)
        let request = try signed.parse("/oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8" + SignatureTests.vectorPath)
        #expect(request.source == .remote(URL(string: "http://example.com/images/curiosity.jpg")!))
        #expect(request.options.resizingType == .fill)
        #expect(request.options.width == 300 && request.options.height == 400 && !request.options.enlarge)
        #expect(request.options.gravity == .smart)
        #expect(request.options.format == .png)
        #expect(request.signedPath == SignatureTests.vectorPath)
    }

    @Test func unsignedWrongAndTruncatedSignaturesAreRefused() {
        let signed = ImgproxyURL(signature: URLSignature(keys: [SignatureTests.key]), acceptsUnsigned: false)
        #expect(throws: ServeError.forbidden("invalid signature")) { try signed.parse("/unsafe" + SignatureTests.vectorPath) }
        #expect(throws: ServeError.forbidden("invalid signature")) { try signed.parse("/oKfUtW34Dvo" + SignatureTests.vectorPath) }
        let none = ImgproxyURL(signature: nil, acceptsUnsigned: false)
        #expect(throws: ServeError.self) { try none.parse("/unsafe/plain/http://a.test/b.jpg") }
    }

    @Test func plainSourceWithExtensionAndEscapes() throws {
        let request = try dev.parse("/_/w:100/h:50/plain/http://a.test/p.jpg%3Fv%3D2@webp")
        #expect(request.source == .remote(URL(string: "http://a.test/p.jpg?v=2")!))
        #expect(request.options.width == 100 && request.options.height == 50)
        #expect(request.options.format == .webp)
        let noExtension = try dev.parse("/_/plain/local:///dir/a.png")
        #expect(noExtension.source == .local("/dir/a.png"))
        #expect(noExtension.options.format == nil)
    }

    @Test func base64SourceSplitBySlashes() throws {
        let encoded = Base64URL.encode(Array("https://cdn.test/a/b.png".utf8))
        let split = encoded.enumerated().map { $0.offset > 0 && $0.offset % 7 == 0 ? "/\($0.element)" : "\($0.element)" }.joined()
        let request = try dev.parse("/sig/rs:fit:10:10/\(split).jpg")
        #expect(request.source == .remote(URL(string: "https://cdn.test/a/b.png")!))
        #expect(request.options.format == .jpeg)
    }

    @Test func longAndShortNamesAreTheSame() throws {
        let long = try dev.parse("/_/resize:fill:30:40:1/gravity:sm/quality:70/background:ff0000/plain/http://a.test/x.jpg")
        let short = try dev.parse("/_/rs:fill:30:40:1/g:sm/q:70/bg:255:0:0/plain/http://a.test/x.jpg")
        #expect(long.options == short.options)
        #expect(long.options.enlarge && long.options.quality == 70)
        #expect(long.options.background == BackgroundColor(red: 255, green: 0, blue: 0))
    }

    @Test func everyOptionParses() throws {
        let path =
            "/_/rt:fill-down/w:10/h:20/mw:5/mh:6/z:1.5/dpr:2/el:1/ex:1:so/g:fp:0.25:0.75/c:100:80:nowe/pd:1:2:3:4"
            + "/ar:0/rot:270/bl:2/sh:0.5/pix:4/fq:webp:60:avif:50/mb:10000/f:avif/sm:0/kcr:0/scp:0/cb:abc"
            + "/exp:4102444800/fn:my%20file/att:1/plain/http://a.test/x.jpg"
        let options = try dev.parse(path).options
        #expect(options.resizingType == .fillDown && options.width == 10 && options.height == 20)
        #expect(options.minWidth == 5 && options.minHeight == 6 && options.zoomX == 1.5 && options.zoomY == 1.5 && options.dpr == 2)
        #expect(options.enlarge && options.extend && options.extendGravity == .compass(.south, xOffset: 0, yOffset: 0))
        #expect(options.gravity == .focusPoint(x: 0.25, y: 0.75))
        #expect(options.crop == CropOption(width: 100, height: 80, gravity: .compass(.northWest, xOffset: 0, yOffset: 0)))
        #expect(options.padding == Padding(top: 1, right: 2, bottom: 3, left: 4))
        #expect(!options.autoRotate && options.rotate == 270 && options.blur == 2 && options.sharpen == 0.5 && options.pixelate == 4)
        #expect(options.formatQuality == ["webp": 60, "avif": 50] && options.maxBytes == 10000 && options.format == .avif)
        #expect(!options.stripMetadata && !options.keepCopyright && !options.stripColorProfile && options.cacheBuster == "abc")
        #expect(options.expires == 4102444800 && options.filename == "my file" && options.returnAttachment)
    }

    @Test func paddingRepeatsLikeCSS() throws {
        #expect(try dev.parse("/_/pd:5/plain/http://a.test/x").options.padding == Padding(top: 5, right: 5, bottom: 5, left: 5))
        #expect(try dev.parse("/_/pd:5:7/plain/http://a.test/x").options.padding == Padding(top: 5, right: 7, bottom: 5, left: 7))
    }

    @Test func unknownOrMalformedOptionsNameTheOption() {
        func reason(_ path: String) -> String? {
            do {
                _ = try dev.parse(path)
                return nil
            } catch { return error.status == 400 ? error.reason : "status \(error.status)" }
        }
        #expect(reason("/_/frobnicate:1/plain/http://a.test/x")?.contains("\"frobnicate\"") == true)
        #expect(reason("/_/w:abc/plain/http://a.test/x")?.contains("\"w\"") == true)
        #expect(reason("/_/rs:stretch:1:1/plain/http://a.test/x")?.contains("\"rs\"") == true)
        #expect(reason("/_/rot:45/plain/http://a.test/x")?.contains("\"rot\"") == true)
        #expect(reason("/_/g:up/plain/http://a.test/x")?.contains("\"g\"") == true)
        #expect(reason("/_/el:maybe/plain/http://a.test/x")?.contains("\"el\"") == true)
        #expect(reason("/_/q:101/plain/http://a.test/x")?.contains("\"q\"") == true)
        #expect(reason("/_/bg:zz0000/plain/http://a.test/x")?.contains("\"bg\"") == true)
        #expect(reason("/_/pr:nope/plain/http://a.test/x")?.contains("\"pr\"") == true)
        #expect(reason("/_/w:10/plain/http://a.test/x@bmp")?.contains("extension") == true)
        #expect(reason("/_/w:10/plain/ftp://a.test/x") != nil)
        #expect(reason("/_/w:10/!!!notbase64.png") != nil)
    }

    @Test func expiredURLsAreNotFound() throws {
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        #expect(throws: ServeError.notFound("the URL has expired")) {
            try dev.parse("/_/exp:1999999999/plain/http://a.test/x", now: now)
        }
        #expect(try dev.parse("/_/exp:2000000001/plain/http://a.test/x", now: now).options.expires == 2000000001)
    }

    @Test func presetsApplyInOrderAndDefaultAlways() throws {
        let parser = ImgproxyURL(
            signature: nil, acceptsUnsigned: true,
            options: OptionParser(presets: ["default": ["q:60"], "thumb": ["rs:fill:100:100", "g:sm"]]))
        let plain = try parser.parse("/_/plain/http://a.test/x").options
        #expect(plain.quality == 60)
        let thumb = try parser.parse("/_/pr:thumb/w:50/plain/http://a.test/x").options
        #expect(thumb.resizingType == .fill && thumb.width == 50 && thumb.height == 100 && thumb.gravity == .smart && thumb.quality == 60)
    }
}
