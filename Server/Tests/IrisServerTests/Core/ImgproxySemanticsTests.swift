import Foundation
import Iris
import IrisServerCore
import Synchronization
import Testing

/// imgproxy's semantics at the parser level, from its documentation and behaviour: colours,
/// empty arguments, paths rewritten by proxies, presets, client hints and the options it
/// accepts that Iris refused before.
@Suite struct ImgproxySemanticsTests {
    let dev = ImgproxyURL(signature: nil, acceptsUnsigned: true)

    func options(_ segments: [String], presets: [String: [String]] = [:]) throws -> ProcessingOptions {
        try OptionParser(presets: presets).parse(segments)
    }

    @Test func threeDigitHexColours() throws {
        #expect(try options(["bg:fff"]).background == BackgroundColor(red: 255, green: 255, blue: 255))
        #expect(try options(["bg:0a8"]).background == BackgroundColor(red: 0, green: 0xAA, blue: 0x88))
        #expect(try options(["bg:1a2b3c"]).background == BackgroundColor(red: 0x1A, green: 0x2B, blue: 0x3C))
        #expect(try options(["bg:ff0000", "bg:"]).background == nil)
        for bad in ["bg:ff", "bg:ffff", "bg:ggg"] { #expect(throws: ServeError.self) { try options([bad]) } }
    }

    @Test func emptyArgumentsKeepTheDefault() throws {
        // Gravity: an empty offset keeps the one before (the default, 0).
        #expect(try options(["g:no::5"]).gravity == .compass(.north, xOffset: 0, yOffset: 5))
        #expect(try options(["g:ce:3:4", "g:so::"]).gravity == .compass(.south, xOffset: 3, yOffset: 4))
        #expect(try options(["g:fp:0.2:0.3", "g:fp::0.9"]).gravity == .focusPoint(x: 0.2, y: 0.9))
        // Crop: an empty side is the whole side; empty gravity offsets are the default.
        let crop = try options(["c:100::so::"]).crop
        #expect(crop == CropOption(width: 100, height: 0, gravity: .compass(.south, xOffset: 0, yOffset: 0)))
        // Extend: an empty gravity type or offset keeps the default.
        let extend = try options(["ex:1:::7"])
        #expect(extend.extend && extend.extendGravity == .compass(.center, xOffset: 0, yOffset: 7))
        #expect(try options(["rs:::100"]).height == 100)
        #expect(try options(["fl::1"]).flipVertical)
    }

    @Test func anEmptyOptionsSegmentIsNoOption() throws {
        let request = try dev.parse("/unsafe//plain/http://a.test/x.jpg")
        #expect(request.source == .remote(URL(string: "http://a.test/x.jpg")!))
        #expect(request.signedPath == "/plain/http://a.test/x.jpg")
        let base64 = try dev.parse("/unsafe//" + Base64URL.encode(Array("http://a.test/y.png".utf8)))
        #expect(base64.source == .remote(URL(string: "http://a.test/y.png")!))
    }

    /// imgproxy's own table (handlers/path_test.go): what a proxy or browser did, undone.
    @Test func pathsRewrittenByProxiesAreRepaired() {
        #expect(ImgproxyURL.repaired("/plain/http:/example.com/image.jpg") == "/plain/http://example.com/image.jpg")
        #expect(ImgproxyURL.repaired("/plain/https:/example.com/image.jpg") == "/plain/https://example.com/image.jpg")
        #expect(ImgproxyURL.repaired("/plain/local:/image.jpg") == "/plain/local:///image.jpg")
        #expect(
            ImgproxyURL.repaired("/rs:fill:300:200/plain/http:/example.com/image.jpg")
                == "/rs:fill:300:200/plain/http://example.com/image.jpg")
        #expect(ImgproxyURL.repaired("/plain/http://example.com/image.jpg") == "/plain/http://example.com/image.jpg")
        #expect(
            ImgproxyURL.repaired("/rs%3Afill%3A300%3A200/plain/https://example.com/a.jpg")
                == "/rs:fill:300:200/plain/https://example.com/a.jpg")
        #expect(ImgproxyURL.repaired("/rs%3Afill%3A300%3A200/abc/abc") == "/rs:fill:300:200/abc/abc")
        // The source keeps its own escapes.
        #expect(ImgproxyURL.repaired("/plain/http://a.test/p.jpg%3Fv%3D2@webp") == "/plain/http://a.test/p.jpg%3Fv%3D2@webp")
    }

    /// The signature is checked on the repaired path: a URL signed as built still verifies
    /// after a proxy collapsed its `//` and escaped its colons.
    @Test func theSignatureIsCheckedAfterTheRepair() throws {
        let signature = URLSignature(keys: [SignatureTests.key])
        let urls = ImgproxyURL(signature: signature, acceptsUnsigned: false)
        let path = "/rs:fill:30:20/plain/http://a.test/x.jpg@png"
        let sig = signature.sign(path)!
        for received in [path, "/rs:fill:30:20/plain/http:/a.test/x.jpg@png", "/rs%3Afill%3A30%3A20/plain/http:/a.test/x.jpg@png"] {
            let request = try urls.parse("/" + sig + received)
            #expect(request.source == .remote(URL(string: "http://a.test/x.jpg")!) && request.options.width == 30)
        }
        let empty = "/plain/http://a.test/x.jpg"
        #expect(try urls.parse("/" + signature.sign(empty)! + "/" + empty).signedPath == empty)
        #expect(throws: ServeError.forbidden("invalid signature")) {
            try urls.parse("/" + sig + "/rs:fill:31:20/plain/http:/a.test/x.jpg@png")
        }
    }

    /// An empty options segment, `/%signature//plain/…` or `/%signature//%base64`: imgproxy 4
    /// signs the path without it (`RedenormalizePath`), imgproxy 3 the path as sent (a URL
    /// builder joining no options makes it); either signature is served, as the one request
    /// with no options, under one path (one result cache entry, one ETag).
    @Test func anEmptyOptionsSegmentIsSignedWithOrWithoutIt() throws {
        let signature = URLSignature(keys: [SignatureTests.key])
        let urls = ImgproxyURL(signature: signature, acceptsUnsigned: false)
        let base64 = "/" + Base64URL.encode(Array("http://a.test/y.png".utf8))
        for (source, expected) in [("/plain/http://a.test/x.jpg", "http://a.test/x.jpg"), (base64, "http://a.test/y.png")] {
            for signed in [source, "/" + source] {
                let request = try urls.parse("/" + signature.sign(signed)! + "/" + source)
                #expect(request.source == .remote(URL(string: expected)!) && request.signedPath == source)
                #expect(request.options == ProcessingOptions())
            }
            #expect(throws: ServeError.forbidden("invalid signature")) {
                try urls.parse("/" + signature.sign("/rs:fit:9:9" + source)! + "/" + source)
            }
        }
    }

    @Test func aPresetNamingItselfIsSkippedWithAWarning() throws {
        let warnings = Mutex<[String]>([])
        let parser = OptionParser(
            presets: ["loop": ["w:10", "pr:loop", "h:20"], "a": ["pr:b", "q:50"], "b": ["pr:a", "w:7"]],
            warn: { message in warnings.withLock { $0.append(message) } })
        let looped = try parser.parse(["pr:loop"])
        #expect(looped.width == 10 && looped.height == 20)
        let mutual = try parser.parse(["pr:a"])
        #expect(mutual.width == 7 && mutual.quality == 50)
        #expect(warnings.withLock { $0.count } == 2)
        #expect(warnings.withLock { $0.first?.contains("\"loop\"") } == true)
        try parser.validatePresets()
    }

    @Test func anInvalidPresetIsFoundBeforeAnyRequest() {
        let parser = OptionParser(presets: ["ok": ["w:10"], "thumb": ["rs:fill:100:100", "g:nowhere"]])
        #expect { try parser.validatePresets() } throws: { error in
            (error as? ServeError)?.reason.contains("preset \"thumb\"") == true
        }
        #expect(throws: ServeError.self) { try OptionParser(presets: ["x": ["pr:missing"]]).validatePresets() }
    }

    @Test func clientHintsAreTheDefaults() throws {
        let hints = ClientHints(dpr: "2", width: "300")
        #expect(hints.defaults.dpr == 2 && hints.defaults.width == 150)
        #expect(ClientHints(width: "300").defaults.width == 300)
        #expect(ClientHints(dpr: "9", width: "-1").isEmpty && ClientHints(dpr: "abc", width: "1.5").isEmpty)
        // The URL's own options win over the hints.
        let request = try dev.parse("/_/w:80/plain/http://a.test/x.jpg", defaults: hints.defaults)
        #expect(request.options.width == 80 && request.options.dpr == 2)
    }

    @Test func optionsImgproxyAccepts() throws {
        let flip = try options(["fl:1:1"])
        #expect(flip.flipHorizontal && flip.flipVertical)
        #expect(try options(["flip:t"]).flipHorizontal && !(try options(["flip:t"]).flipVertical))
        #expect(try options(["skp:jpg:PNG:gif"]).skipProcessing == ["jpeg", "png", "gif"])
        #expect(throws: ServeError.self) { try options(["skp:mp3"]) }
        #expect(try options(["raw:1"]).raw)
        let exar = try options(["exar:1:so:0:10"])
        #expect(exar.extendAspectRatio && exar.extendAspectRatioGravity == .compass(.south, xOffset: 0, yOffset: 10))
        #expect(try options(["extend_ar:1"]).extendAspectRatio && (try options(["extend_aspect_ratio:1"]).extendAspectRatio))
        #expect(throws: ServeError.self) { try options(["exar:1:sm"]) }
        #expect(try options(["eth:1"]).enforceThumbnail && (try options(["ph:1"]).preserveHDR))
        let limits = try options(["msr:2.5", "msfs:1000", "maf:3", "mafr:0.5", "mrd:640"]).limits
        #expect(limits.sourcePixels == 2_500_000 && limits.sourceBytes == 1000 && limits.animationFrames == 3)
        #expect(limits.animationFramePixels == 500_000 && limits.resultDimension == 640)
        #expect(throws: ServeError.self) { try options(["maf:0"]) }
        let trim = try options(["t:10:fff:1:0"]).trim
        #expect(trim == TrimOption(threshold: 10, color: BackgroundColor(red: 255, green: 255, blue: 255), equalHorizontal: true))
        #expect(try options(["t:5", "t:"]).trim == nil)
    }

    @Test func watermarkOption() throws {
        #expect(try options(["wm:0.5"]).watermark == WatermarkOption(opacity: 0.5))
        #expect(
            try options(["wm:1:soea:10:5:0.25"]).watermark
                == WatermarkOption(opacity: 1, position: .compass(.southEast), xOffset: 10, yOffset: 5, scale: 0.25))
        #expect(try options(["watermark:1:re:4:4"]).watermark?.position == .replicate)
        #expect(try options(["wm:1:no", "wm:0.3"]).watermark == WatermarkOption(opacity: 0.3, position: .compass(.north)))
        #expect(try options(["wm:1", "wm:0"]).watermark == nil)
        for bad in ["wm:2", "wm:1:sm", "wm:1:no:x", "wm:1:no:0:0:-1"] { #expect(throws: ServeError.self, "\(bad)") { try options([bad]) } }
    }

    @Test func requestLimitsOnlyLower() {
        #expect(RequestLimits.lower(50_000_000, 1_000_000) == 1_000_000)
        #expect(RequestLimits.lower(50_000_000, 90_000_000) == 50_000_000)
        #expect(RequestLimits.lower(50_000_000, 0) == 50_000_000 && RequestLimits.lower(50_000_000, nil) == 50_000_000)
    }
}
