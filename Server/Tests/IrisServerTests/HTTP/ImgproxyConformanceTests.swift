import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import Iris
import IrisServer
import IrisServerCore
import Testing

/// imgproxy's behaviour, end to end over a loopback source server, on real images made by
/// Iris's encoders: what an imgproxy user relies on when they "change the hostname".
@Suite struct ImgproxyConformanceTests {
    func get(
        _ path: @escaping @Sendable (String) -> String, files: [String: Data], headers: HTTPFields = [:],
        config: IrisServerConfiguration = Harness.configuration()
    ) async throws -> TestResponse {
        let sources = SourceFiles()
        for (name, data) in files { sources[name] = data }
        return try await withSourceServer(sources) { base in
            try await Harness.withService(config) { client, _ in try await client.get(path(base), headers: headers) }
        }
    }

    func image(_ response: TestResponse) throws -> LoadedImage {
        #expect(response.status == .ok, "\(response.text)")
        return try TestImages.decode(response.data)
    }

    static func digest(_ data: Data) -> String { Base64URL.encode(Array(SHA256.hash(data: data))) }

    /// 64×48 grey gradient, stored as a grey PNG.
    static func greyPNG() throws -> Data {
        let bitmap = TestImages.bitmap(width: 64, height: 48) { x, _ in
            let v = UInt8(x * 4)
            return RGBA(r: v, g: v, b: v)
        }.converted(to: .gray8)
        return try TestImages.encode(bitmap, as: .png)
    }

    /// An animated GIF of `frames` 40×30 frames of different colours.
    static func animatedGIF(frames: Int = 3) async throws -> Data {
        let bitmaps = (0..<frames).map { index in
            TestImages.bitmap(width: 40, height: 30) { _, _ in RGBA(r: UInt8(index * 80), g: 40, b: 200) }
        }
        let animation = Animation(frames: bitmaps, durations: Array(repeating: 0.1, count: frames), loopCount: 0)
        return try await ImageEncoders.animationEncoder(for: .gif)!.encode(animation, options: EncodeOptions(quality: 90))
    }

    @Test func noExtensionAndNoAcceptKeepsTheSourceFormat() async throws {
        let png = try await get({ Harness.path(["w:100"], source: "\($0)/f/h.png") }, files: ["h.png": try TestImages.halves()])
        #expect(png.headers[.contentType] == "image/png" && png.headers[.vary] == "Accept")
        let star = try await get(
            { Harness.path(["w:100"], source: "\($0)/f/h.png") }, files: ["h.png": try TestImages.halves()],
            headers: [.accept: "*/*"])
        #expect(star.headers[.contentType] == "image/png")
        let jpeg = try await get({ Harness.path(["w:100"], source: "\($0)/f/p.jpg") }, files: ["p.jpg": try TestImages.photo()])
        #expect(jpeg.headers[.contentType] == "image/jpeg")
        let gif = try await get({ Harness.path(["w:20"], source: "\($0)/f/a.gif") }, files: ["a.gif": try await Self.animatedGIF()])
        #expect(gif.headers[.contentType] == "image/gif")
        let frames = try image(gif)
        #expect(frames.animation?.frameCount == 3 && frames.bitmap.size == PixelSize(width: 20, height: 15))
        // Another animated source (WebP) with no Accept: an animated GIF too, not a still JPEG.
        let webp = try await get(
            { Harness.path(["w:32"], source: "\($0)/f/a.webp") },
            files: ["a.webp": try await TestImages.animatedWebP(frames: 4)])
        #expect(try webp.headers[.contentType] == "image/gif" && image(webp).animation?.frameCount == 4)
        // A client that takes WebP still gets it.
        let modern = try await get(
            { Harness.path(["w:100"], source: "\($0)/f/h.png") }, files: ["h.png": try TestImages.halves()],
            headers: [.accept: "image/webp,*/*"])
        #expect(modern.headers[.contentType] == "image/webp")
    }

    @Test func greySourcesStayGreyInPNG() async throws {
        let grey = try await get(
            { Harness.path(["w:32"], source: "\($0)/f/g.png", extension: "png") }, files: ["g.png": try Self.greyPNG()])
        #expect(grey.status == .ok && grey.data.count > 26)
        #expect(grey.data[25] == 0, "PNG colour type \(grey.data[25]), 0 is grey")
        let result = try image(grey)
        #expect(result.bitmap.size == PixelSize(width: 32, height: 24))
        let pixel = result.bitmap.rgba(x: 30, y: 10)
        #expect(pixel.r == pixel.g && pixel.g == pixel.b && pixel.r > 200)
        let colour = try await get(
            { Harness.path(["w:32"], source: "\($0)/f/h.png", extension: "png") }, files: ["h.png": try TestImages.halves()])
        #expect(colour.data[25] == 2, "PNG colour type \(colour.data[25]), 2 is RGB")
    }

    @Test func clientHintsWidthAndDPR() async throws {
        let config = Harness.configuration { $0.clientHints = true }
        let photo = ["p.jpg": try TestImages.photo()]
        let both = try await get(
            { Harness.path([], source: "\($0)/f/p.jpg", extension: "png") }, files: photo,
            headers: [.init("Sec-CH-Width")!: "300", .init("Sec-CH-DPR")!: "2"], config: config)
        #expect(try image(both).bitmap.width == 300)
        #expect(both.headers[.vary] == "Sec-CH-DPR, DPR, Sec-CH-Width, Width")
        let width = try await get(
            { Harness.path([], source: "\($0)/f/p.jpg", extension: "png") }, files: photo,
            headers: [.init("Width")!: "200"], config: config)
        #expect(try image(width).bitmap.width == 200)
        let explicit = try await get(
            { Harness.path(["w:50"], source: "\($0)/f/p.jpg", extension: "png") }, files: photo,
            headers: [.init("Width")!: "200"], config: config)
        #expect(try image(explicit).bitmap.width == 50)
    }

    @Test func colourShortHexAndDPROnASmallSource() async throws {
        let white = try image(
            await get(
                { Harness.path(["bg:fff"], source: "\($0)/f/t.png", extension: "png") },
                files: ["t.png": try TestImages.transparentLeft()]))
        #expect(white.bitmap.rgba(x: 10, y: 50) == RGBA(r: 255, g: 255, b: 255))
        let small = try TestImages.encode(TestImages.bitmap(width: 100, height: 100) { _, _ in RGBA(r: 9, g: 9, b: 9) }, as: .png)
        let fill = try image(
            await get(
                { Harness.path(["rs:fill:80:40", "dpr:2"], source: "\($0)/f/s.png", extension: "png") },
                files: ["s.png": small]))
        #expect(fill.bitmap.size == PixelSize(width: 100, height: 50))
        let extend = try image(
            await get(
                { Harness.path(["rs:fit:200:200", "ex:1", "dpr:2"], source: "\($0)/f/s.png", extension: "png") },
                files: ["s.png": small]))
        #expect(extend.bitmap.size == PixelSize(width: 200, height: 200))
    }

    @Test func flipAndExtendAspectRatio() async throws {
        let flipped = try image(
            await get(
                { Harness.path(["fl:0:1"], source: "\($0)/f/h.png", extension: "png") },
                files: ["h.png": try TestImages.halves()]))
        #expect(flipped.bitmap.rgba(x: 10, y: 10).b > 200 && flipped.bitmap.rgba(x: 10, y: 290).r > 200)
        let exar = try image(
            await get(
                { Harness.path(["rs:fit:1000:500", "exar:1", "bg:0f0"], source: "\($0)/f/p.jpg", extension: "png") },
                files: ["p.jpg": try TestImages.photo()]))
        #expect(exar.bitmap.size == PixelSize(width: 960, height: 480))
        #expect(exar.bitmap.rgba(x: 5, y: 240) == RGBA(r: 0, g: 255, b: 0))
    }

    @Test func skipProcessingAndRawServeTheSourceAsItIs() async throws {
        let source = try TestImages.halves()
        for ext in [nil, "png"] as [String?] {
            let skipped = try await get(
                { Harness.path(["w:50", "skp:jpg:png"], source: "\($0)/f/h.png", extension: ext) }, files: ["h.png": source])
            #expect(skipped.status == .ok && skipped.headers[.contentType] == "image/png")
            #expect(skipped.data.count == source.count && Self.digest(skipped.data) == Self.digest(source))
        }
        // Another output format asked for: processed, as imgproxy does.
        let converted = try await get(
            { Harness.path(["w:50", "skp:png"], source: "\($0)/f/h.png", extension: "webp") }, files: ["h.png": source])
        #expect(try converted.headers[.contentType] == "image/webp" && image(converted).bitmap.width == 50)
        let processed = try await get(
            { Harness.path(["w:50", "skp:jpg"], source: "\($0)/f/h.png", extension: "png") }, files: ["h.png": source])
        #expect(try image(processed).bitmap.width == 50)
        let raw = try await get({ Harness.path(["w:50", "raw:1"], source: "\($0)/f/h.png", extension: "webp") }, files: ["h.png": source])
        #expect(raw.headers[.contentType] == "image/png" && Self.digest(raw.data) == Self.digest(source))
        #expect(raw.headers[.contentDisposition]?.contains("h.png") == true)
    }

    @Test func trimCutsTheBorder() async throws {
        let framed = try TestImages.encode(TrimAndFlipTests.framed, as: .png)
        let trimmed = try image(await get({ Harness.path(["t:10"], source: "\($0)/f/f.png", extension: "png") }, files: ["f.png": framed]))
        #expect(trimmed.bitmap.size == PixelSize(width: 40, height: 20) && trimmed.bitmap.rgba(x: 20, y: 10).r == 220)
        let fitted = try image(
            await get({ Harness.path(["t:10", "w:20"], source: "\($0)/f/f.png", extension: "png") }, files: ["f.png": framed]))
        #expect(fitted.bitmap.size == PixelSize(width: 20, height: 10))
    }

    /// Each per-request limit only lowers the configured one.
    @Test func perRequestLimitsOnlyLower() async throws {
        let photo = ["p.jpg": try TestImages.photo()]  // 640×480: 0.31 MP
        func status(_ options: [String], _ config: IrisServerConfiguration = Harness.configuration()) async throws -> Int {
            try await get({ Harness.path(options, source: "\($0)/f/p.jpg", extension: "png") }, files: photo, config: config).status.code
        }
        #expect(try await status(["msr:0.1"]) == 422)  // over the resolution limit: 422, as imgproxy
        #expect(try await status(["msr:1"]) == 200)
        #expect(try await status(["msr:1"], Harness.configuration { $0.maxSourcePixels = 100_000 }) == 422)
        #expect(try await status(["msfs:100"]) == 413)
        #expect(try await status(["msfs:100000000"], Harness.configuration { $0.maxSourceBytes = 100 }) == 413)
        let animated = ["a.webp": try await TestImages.animatedWebP(frames: 4)]
        for (options, code) in [(["maf:2"], 413), (["maf:10"], 200), (["mafr:0.001"], 422), (["mafr:1"], 200)] {
            let response = try await get({ Harness.path(options, source: "\($0)/f/a.webp", extension: "webp") }, files: animated)
            #expect(response.status.code == code, "\(options): \(response.text)")
        }
        let bounded = try image(await get({ Harness.path(["mrd:100"], source: "\($0)/f/p.jpg", extension: "png") }, files: photo))
        #expect(bounded.bitmap.size == PixelSize(width: 100, height: 75))
    }

    /// Proxies that collapse `//` and escape `:`: the signed URL is still served.
    @Test func rewrittenPathsAreRepairedBeforeTheSignature() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            let config = Harness.configuration {
                $0.development = false
                $0.signingKeys = [Harness.key]
            }
            try await Harness.withService(config) { client, _ in
                let path = "/rs:fit:64:64/plain/\(base)/f/p.jpg@png"
                let sig = URLSignature(keys: [Harness.key]).sign(path)!
                // Colons escaped in the options, the source's `//` collapsed.
                let collapsed = "/rs%3Afit%3A64%3A64/plain/" + "\(base)/f/p.jpg@png".replacingOccurrences(of: "http://", with: "http:/")
                for received in [path, path.replacingOccurrences(of: "http://", with: "http:/"), collapsed] {
                    let response = try await client.get("/" + sig + received)
                    #expect(response.status == .ok, "\(received): \(response.text)")
                }
                let bare = "/plain/\(base)/f/p.jpg@png"
                let empty = try await client.get("/" + URLSignature(keys: [Harness.key]).sign(bare)! + "/" + bare)
                #expect(empty.status == .ok, "\(empty.text)")
            }
        }
    }

    @Test func presetsAreCheckedAtStart() throws {
        var config = Harness.configuration()
        config.presets = ["thumb": ["rs:fill:100:100", "g:nowhere"]]
        #expect(throws: ConfigurationError.self) { try ImageRenderer(configuration: config) }
        config.presets = ["loop": ["w:10", "pr:loop"]]
        _ = try ImageRenderer(configuration: config)
        let blank = try IrisServerConfiguration().applying(environment: ["IRIS_PRESETS": ""])
        #expect(blank.presets.isEmpty)
        let commented = try IrisServerConfiguration().applying(environment: ["IRIS_PRESETS": " ;# old=w:1; thumb = w:10/h:10 ;"])
        #expect(commented.presets == ["thumb": ["w:10", "h:10"]])
        #expect(throws: ConfigurationError.self) { try IrisServerConfiguration().applying(environment: ["IRIS_PRESETS": "thumb="]) }
        #expect(throws: ConfigurationError.self) {
            try IrisServerConfiguration().applying(environment: ["IRIS_PRESETS": "thumb=notanoption"])
        }
    }
    /// The configured watermark: placed, scaled, tiled and faded as `wm` says; without one
    /// configured the option has no effect.
    @Test func watermarkFromTheConfiguration() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iris-watermark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let markFile = folder.appendingPathComponent("mark.png")
        try TestImages.encode(TestImages.bitmap(width: 20, height: 20) { _, _ in RGBA(r: 255, g: 0, b: 0) }, as: .png).write(to: markFile)
        let white = try TestImages.encode(TestImages.bitmap(width: 200, height: 100) { _, _ in RGBA(r: 255, g: 255, b: 255) }, as: .png)
        let config = Harness.configuration { $0.watermarkPath = markFile.path }
        func render(_ options: [String], _ config: IrisServerConfiguration) async throws -> Bitmap {
            try image(
                await get({ Harness.path(options, source: "\($0)/f/w.png", extension: "png") }, files: ["w.png": white], config: config)
            ).bitmap
        }
        let corner = try await render(["wm:1:soea"], config)
        #expect(corner.rgba(x: 190, y: 90) == RGBA(r: 255, g: 0, b: 0) && corner.rgba(x: 170, y: 90) == RGBA(r: 255, g: 255, b: 255))
        let offset = try await render(["wm:1:nowe:10:10"], config)
        #expect(offset.rgba(x: 5, y: 5) == RGBA(r: 255, g: 255, b: 255) && offset.rgba(x: 15, y: 15) == RGBA(r: 255, g: 0, b: 0))
        let faded = try await render(["wm:0.5"], config).rgba(x: 100, y: 50)
        #expect(faded.r == 255 && abs(Int(faded.g) - 128) <= 2 && abs(Int(faded.b) - 128) <= 2, "\(faded)")
        let scaled = try await render(["wm:1:nowe:0:0:0.5"], config)
        #expect(scaled.rgba(x: 45, y: 45) == RGBA(r: 255, g: 0, b: 0) && scaled.rgba(x: 55, y: 5) == RGBA(r: 255, g: 255, b: 255))
        let tiled = try await render(["wm:1:re:20:20"], config)
        #expect(tiled.rgba(x: 15, y: 15) == RGBA(r: 255, g: 0, b: 0) && tiled.rgba(x: 35, y: 15) == RGBA(r: 255, g: 255, b: 255))
        #expect(tiled.rgba(x: 55, y: 55) == RGBA(r: 255, g: 0, b: 0) && tiled.rgba(x: 175, y: 55) == RGBA(r: 255, g: 0, b: 0))
        // With the configured opacity halved, a full-opacity option is half too.
        let base = try await render(
            ["wm:1"],
            Harness.configuration {
                $0.watermarkPath = markFile.path
                $0.watermarkOpacity = 0.5
            })
        #expect(abs(Int(base.rgba(x: 100, y: 50).g) - 128) <= 2)
        // No watermark configured: nothing laid.
        #expect(try await render(["wm:1:soea"], Harness.configuration()).rgba(x: 190, y: 90) == RGBA(r: 255, g: 255, b: 255))
        // A watermark that is not an image stops the service from starting.
        let bad = folder.appendingPathComponent("bad.png")
        try Data("not an image".utf8).write(to: bad)
        #expect(throws: ConfigurationError.self) { try ImageRenderer(configuration: Harness.configuration { $0.watermarkPath = bad.path }) }
    }

    /// imgproxy's ETag mode (its `TestETagDataMatch`): a client revalidating with the source's
    /// ETag (which imgproxy gives out) has its `If-None-Match` sent on to the origin, and the
    /// origin's 304 is the answer, with the origin's ETag, nothing downloaded or rendered. A
    /// validator the origin does not know is a 200 with the service's own ETag; the service's
    /// own ETag is answered here (304) without asking the origin.
    @Test func theSourcesETagIsPassedThroughWhenTheOriginSays304() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration()) { client, _ in
                let path = Harness.path(["rs:fit:20:20"], source: "\(base)/etag/p.jpg", extension: "png")
                let current = try await client.get(path, headers: [.ifNoneMatch: "\"p.jpg-v1\""])
                #expect(current.status == .notModified && current.body.readableBytes == 0)
                #expect(current.headers[.eTag] == "\"p.jpg-v1\"")
                #expect(files.count("p.jpg") == 1)  // the conditional request alone

                let stale = try await client.get(path, headers: [.ifNoneMatch: "\"p.jpg-v0\""])
                #expect(stale.status == .ok)
                let etag = try #require(stale.headers[.eTag])
                #expect(etag != "\"p.jpg-v1\"")  // the rendition's own
                #expect(files.count("p.jpg") == 3)  // asked (200, not read), then downloaded

                let ours = try await client.get(path, headers: [.ifNoneMatch: etag])
                #expect(ours.status == .notModified && ours.headers[.eTag] == etag)
                #expect(files.count("p.jpg") == 3)  // from the source cache, the origin not asked
            }
        }
    }
}
