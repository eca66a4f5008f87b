import Foundation
import HTTPTypes
import HummingbirdTesting
import Iris
import IrisServer
import IrisServerCore
import Testing

/// Every option on real images made by Iris's encoders, served by a loopback source server.
@Suite struct RenderingTests {
    func render(
        _ options: [String], file: String, data: Data, ext: String? = "png", accept: String? = nil,
        config: IrisServerConfiguration = Harness.configuration()
    ) async throws -> TestResponse {
        let files = SourceFiles()
        files[file] = data
        return try await withSourceServer(files) { base in
            try await Harness.withService(config) { client, _ in
                var headers = HTTPFields()
                if let accept { headers[.accept] = accept }
                return try await client.get(Harness.path(options, source: "\(base)/f/\(file)", extension: ext), headers: headers)
            }
        }
    }

    func image(_ response: TestResponse) throws -> LoadedImage {
        #expect(response.status == .ok, "\(response.text)")
        return try TestImages.decode(response.data)
    }

    @Test func fitFillForceAndSize() async throws {
        let photo = try TestImages.photo()
        var result = try image(await render(["rs:fit:160:160"], file: "p.jpg", data: photo))
        #expect(result.bitmap.size == PixelSize(width: 160, height: 120))
        result = try image(await render(["rs:fill:100:100"], file: "p.jpg", data: photo))
        #expect(result.bitmap.size == PixelSize(width: 100, height: 100))
        result = try image(await render(["rs:force:100:30"], file: "p.jpg", data: photo))
        #expect(result.bitmap.size == PixelSize(width: 100, height: 30))
        result = try image(await render(["s:64:0"], file: "p.jpg", data: photo))
        #expect(result.bitmap.size == PixelSize(width: 64, height: 48))
        result = try image(await render(["w:100", "h:100", "rt:fill-down", "dpr:2"], file: "p.jpg", data: photo))
        #expect(result.bitmap.size == PixelSize(width: 200, height: 200))
        result = try image(await render(["rs:fit:2000:2000:1"], file: "p.jpg", data: photo, config: Harness.configuration()))
        #expect(result.bitmap.size == PixelSize(width: 2000, height: 1500))
    }

    @Test func gravityPicksTheHalf() async throws {
        let halves = try TestImages.halves()
        let north = try image(await render(["rs:fill:100:40", "g:no"], file: "h.png", data: halves))
        #expect(north.bitmap.size == PixelSize(width: 100, height: 40))
        #expect(north.bitmap.rgba(x: 50, y: 20).r > 200 && north.bitmap.rgba(x: 50, y: 20).b < 40)
        let south = try image(await render(["rs:fill:100:40", "g:so"], file: "h.png", data: halves))
        #expect(south.bitmap.rgba(x: 50, y: 20).b > 200 && south.bitmap.rgba(x: 50, y: 20).r < 40)
        let point = try image(await render(["rs:fill:100:40", "g:fp:0.5:0.9"], file: "h.png", data: halves))
        #expect(point.bitmap.rgba(x: 50, y: 20).b > 200)
    }

    @Test func smartCropFindsTheOffCentreSubject() async throws {
        let data = try TestImages.offCentreSubject()
        let smart = try image(await render(["rs:fill:150:150", "g:sm"], file: "s.png", data: data))
        #expect(smart.bitmap.size == PixelSize(width: 150, height: 150))
        // The subject, 100×100 at x 430…530 of 600, is 50×50 of the 300×150 scaled image: all of
        // it in the 150×150 crop is 11 %; the centre crop (x 75…225) holds a sliver of it.
        #expect(Self.saturatedFraction(smart.bitmap) > 0.10)
        let centre = try image(await render(["rs:fill:150:150", "g:ce"], file: "s.png", data: data))
        #expect(Self.saturatedFraction(centre.bitmap) < 0.05)
    }

    static func saturatedFraction(_ bitmap: Bitmap) -> Double {
        var count = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap.rgba(x: x, y: y)
                if max(p.r, p.g, p.b) - min(p.r, p.g, p.b) > 80 { count += 1 }
            }
        }
        return Double(count) / Double(bitmap.width * bitmap.height)
    }

    @Test func cropBeforeResize() async throws {
        let halves = try TestImages.halves()
        let bottom = try image(await render(["c:400:100:so"], file: "h.png", data: halves))
        #expect(bottom.bitmap.size == PixelSize(width: 400, height: 100))
        #expect(bottom.bitmap.rgba(x: 200, y: 50).b > 200)
    }

    @Test func paddingAndExtendUseTheBackground() async throws {
        let photo = try TestImages.photo()
        let padded = try image(await render(["rs:fit:100:100", "pd:10", "bg:00ff00"], file: "p.jpg", data: photo))
        #expect(padded.bitmap.size == PixelSize(width: 120, height: 95))
        let corner = padded.bitmap.rgba(x: 2, y: 2)
        #expect(corner.g > 240 && corner.r < 15 && corner.b < 15)
        let extended = try image(await render(["rs:fit:100:100", "ex:1:no", "bg:255:0:255"], file: "p.jpg", data: photo))
        #expect(extended.bitmap.size == PixelSize(width: 100, height: 100))
        let bottom = extended.bitmap.rgba(x: 50, y: 95)
        #expect(bottom.r > 240 && bottom.g < 15 && bottom.b > 240)
    }

    @Test func backgroundFlattensAlphaAndJPEGIsWhiteUnderIt() async throws {
        let data = try TestImages.transparentLeft()
        let flat = try image(await render(["bg:ff0000"], file: "t.png", data: data, ext: "png"))
        #expect(flat.bitmap.rgba(x: 10, y: 50) == RGBA(r: 255, g: 0, b: 0))
        let jpeg = try image(await render([], file: "t.png", data: data, ext: "jpg"))
        let left = jpeg.bitmap.rgba(x: 10, y: 50)
        #expect(left.r > 240 && left.g > 240 && left.b > 240)
        let kept = try image(await render([], file: "t.png", data: data, ext: "png"))
        #expect(kept.bitmap.rgba(x: 10, y: 50).a == 0 && kept.bitmap.rgba(x: 150, y: 50).a == 255)
    }

    @Test func rotateAndEffectsKeepOrTurnTheSize() async throws {
        let photo = try TestImages.photo()
        let turned = try image(await render(["rs:fit:100:100", "rot:90"], file: "p.jpg", data: photo))
        #expect(turned.bitmap.size == PixelSize(width: 75, height: 100))
        for effect in ["bl:2", "sh:1", "pix:8"] {
            let result = try image(await render(["rs:fit:160:160", effect], file: "p.jpg", data: photo, ext: "png"))
            #expect(result.bitmap.size == PixelSize(width: 160, height: 120), "\(effect)")
        }
        let blocks = try image(await render(["rs:fit:160:160", "pix:8"], file: "p.jpg", data: photo, ext: "png"))
        #expect(blocks.bitmap.rgba(x: 0, y: 0) == blocks.bitmap.rgba(x: 7, y: 7))
    }

    @Test func formatsQualityAndMaxBytes() async throws {
        let photo = try TestImages.photo()
        for (ext, format) in [("webp", ImageFormat.webp), ("avif", .avif), ("png", .png), ("jpg", .jpeg)] {
            let response = try await render(["rs:fit:120:120"], file: "p.jpg", data: photo, ext: ext)
            #expect(response.headers[.contentType] == OutputFormat(extension: ext)!.mimeType)
            #expect(try image(response).format == format)
        }
        let low = try await render(["q:10"], file: "p.jpg", data: photo, ext: "jpg").data.count
        let high = try await render(["q:95"], file: "p.jpg", data: photo, ext: "jpg").data.count
        #expect(low < high)
        let fq = try await render(["q:95", "fq:jpg:10"], file: "p.jpg", data: photo, ext: "jpg").data.count
        #expect(fq == low)
        let bounded = try await render(["q:95", "mb:\(low + 500)"], file: "p.jpg", data: photo, ext: "jpg")
        #expect(bounded.data.count <= low + 500)
        let viaOption = try await render(["f:webp"], file: "p.jpg", data: photo, ext: nil)
        #expect(viaOption.headers[.contentType] == "image/webp")
        #expect(viaOption.headers[.vary] == nil)
    }

    @Test func animatedWebPStaysAnimated() async throws {
        let data = try await TestImages.animatedWebP(frames: 4)
        let response = try await render(["rs:fit:32:32"], file: "a.webp", data: data, ext: "webp")
        let result = try image(response)
        #expect(result.bitmap.size == PixelSize(width: 32, height: 32))
        #expect(result.animation?.frameCount == 4)
        // Smart gravity on an animation: every frame cut at the same (centre) place, still animated.
        let smart = try image(await render(["rs:fill:32:16", "g:sm"], file: "a.webp", data: data, ext: "webp"))
        #expect(smart.bitmap.size == PixelSize(width: 32, height: 16) && smart.animation?.frameCount == 4)
        // Over the frame limit: refused from the header, before any frame is decoded.
        let limited = try await render(
            ["rs:fit:32:32"], file: "a.webp", data: data, ext: "webp",
            config: Harness.configuration { $0.maxAnimationFrames = 3 })
        #expect(limited.status.code == 413 && limited.text.contains("4 frames"), "\(limited.text)")
    }

    @Test func gifOutputIsServedWhenAsked() async throws {
        let photo = try TestImages.photo()
        // By extension and by option (`format`, `f`): image/gif, the size asked for, close colours.
        for (options, ext) in [([String](), "gif"), (["format:gif"], nil), (["f:gif"], nil)] as [([String], String?)] {
            let response = try await render(["rs:fit:160:160"] + options, file: "p.jpg", data: photo, ext: ext)
            #expect(response.headers[.contentType] == "image/gif", "\(options)")
            let result = try image(response)
            #expect(result.format == .gif && result.bitmap.size == PixelSize(width: 160, height: 120) && result.animation == nil)
            // The photo's gradient: red follows x, green y, blue 90 (GIF keeps 256 colours).
            let pixel = result.bitmap.rgba(x: 80, y: 60)
            #expect(abs(Int(pixel.r) - 128) < 12 && abs(Int(pixel.g) - 128) < 12 && abs(Int(pixel.b) - 90) < 12, "\(pixel)")
        }
        // Never negotiated, even for a client that names GIF first.
        let negotiated = try await render(["w:50"], file: "p.jpg", data: photo, ext: nil, accept: "image/gif,*/*")
        #expect(negotiated.headers[.contentType] == "image/jpeg")
        // Transparency stays: the left half transparent, the right opaque green.
        let transparent = try image(await render(["w:100"], file: "t.png", data: try TestImages.transparentLeft(), ext: "gif"))
        #expect(transparent.bitmap.rgba(x: 10, y: 25).a == 0 && transparent.bitmap.rgba(x: 90, y: 25) == RGBA(r: 0, g: 200, b: 0))
        // GIF has no quality: a byte limit it cannot meet still answers with the GIF, once.
        let bounded = try await render(["mb:100"], file: "p.jpg", data: photo, ext: "gif")
        #expect(bounded.status == .ok && bounded.headers[.contentType] == "image/gif")
    }

    @Test func animatedSourceStaysAnimatedAsGIF() async throws {
        let data = try await TestImages.animatedWebP(frames: 4)
        let response = try await render(["rs:fit:32:32"], file: "a.webp", data: data, ext: "gif")
        #expect(response.headers[.contentType] == "image/gif")
        let result = try image(response)
        #expect(result.format == .gif && result.bitmap.size == PixelSize(width: 32, height: 32))
        let animation = try #require(result.animation)
        #expect(animation.frameCount == 4 && animation.loopCount == 0)
        #expect((0..<4).map { animation.duration(at: $0) } == [0.1, 0.1, 0.1, 0.1])
        // Each frame keeps its own flat colour (red steps by 60, blue falls by 60; lossy WebP in).
        for index in 0..<4 {
            let pixel = try await animation.frame(at: index).rgba(x: 16, y: 16)
            let expected = [index * 60, 100, 255 - index * 60]
            #expect(
                zip([pixel.r, pixel.g, pixel.b], expected).allSatisfy { abs(Int($0) - $1) <= 6 } && pixel.a == 255,
                "frame \(index): \(pixel)")
        }
        // The frame limit holds for GIF output too.
        let limited = try await render(
            ["rs:fit:32:32"], file: "a.webp", data: data, ext: "gif",
            config: Harness.configuration { $0.maxAnimationFrames = 3 })
        #expect(limited.status.code == 413, "\(limited.text)")
    }

    @Test func acceptNegotiationAndVary() async throws {
        let photo = try TestImages.photo()
        let avif = try await render(["w:50"], file: "p.jpg", data: photo, ext: nil, accept: "image/avif,image/webp,*/*")
        #expect(avif.headers[.contentType] == "image/avif" && avif.headers[.vary] == "Accept")
        let webp = try await render(["w:50"], file: "p.jpg", data: photo, ext: nil, accept: "image/webp,*/*")
        #expect(webp.headers[.contentType] == "image/webp")
        let jpeg = try await render(["w:50"], file: "p.jpg", data: photo, ext: nil, accept: "*/*")
        #expect(jpeg.headers[.contentType] == "image/jpeg" && jpeg.headers[.vary] == "Accept")
        let png = try await render(["w:50"], file: "t.png", data: try TestImages.transparentLeft(), ext: nil)
        #expect(png.headers[.contentType] == "image/png")
        let named = try await render(["w:50"], file: "p.jpg", data: photo, ext: "png", accept: "image/avif")
        #expect(named.headers[.contentType] == "image/png" && named.headers[.vary] == nil)
    }

    /// One render path: the service's pipeline fetches sources and has no decoder, so nothing is
    /// rendered through its decode stages; every render is the service's, from the bytes fetched.
    @Test func thePipelineFetchesAndRendersNothing() async throws {
        let photo = try TestImages.photo()
        let files = SourceFiles()
        files["p.jpg"] = photo
        try await withSourceServer(files) { base in
            try await Harness.withService(Harness.configuration()) { client, renderer in
                let source = ImageRequest(url: try #require(URL(string: "\(base)/f/p.jpg")))
                #expect(try await renderer.pipeline.fetch(source).data == photo)
                await #expect(throws: ImageError.unsupportedFormat(.jpeg)) { try await renderer.pipeline.image(for: source) }
                let served = try await client.get(Harness.path(["w:40"], source: "\(base)/f/p.jpg", extension: "png"))
                #expect(try image(served).bitmap.size == PixelSize(width: 40, height: 30))
            }
        }
    }
}
