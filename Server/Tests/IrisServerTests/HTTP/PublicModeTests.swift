import Foundation
import HTTPTypes
import HummingbirdTesting
import Iris
import IrisServer
import IrisServerCore
import Testing

/// Public mode over HTTP, against a live source server on 127.0.0.1: unsigned URLs of allowed
/// sources at ladder sizes are served; a size off the ladder, a source off the list and an option
/// the client may not set are 403s naming why; a flood of distinct sizes renders no more than the
/// ladder allows; a signed URL keeps every option; a public service without an allow-list does
/// not start.
@Suite struct PublicModeTests {
    /// Public mode over the source server's `/f/` files, with a key (signed URLs keep full power)
    /// and a result cache (a rendition asked for again is not rendered again).
    static func configuration(base: String) -> IrisServerConfiguration {
        Harness.configuration {
            $0.development = false
            $0.publicMode = true
            $0.signingKeys = [Harness.key]
            $0.sourcePolicy.allowedPrefixes = ["\(base)/f/"]
            Harness.withResultCache(&$0)
        }
    }

    static func renders(_ renderer: ImageRenderer) -> Int {
        Int(
            metricValue(renderer.metrics.exposition(load: renderer.gate.load), "iris_stage_duration_seconds_count", ["stage": "encode"])
                ?? 0)
    }

    @Test func aLadderSizeOfAnAllowedSourceIsServed() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            try await Harness.withService(Self.configuration(base: base)) { client, _ in
                let response = try await client.get("/insecure/rs:fill:128:96/g:sm/plain/\(base)/f/p.jpg@webp")
                #expect(response.status == .ok, "\(response.text)")
                #expect(response.headers[.contentType] == "image/webp")
                let image = try TestImages.decode(response.data)
                #expect(image.bitmap.width == 128 && image.bitmap.height == 96)
            }
        }
    }

    @Test func offLadderOffListAndForbiddenOptionsAre403sSayingWhy() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            try await Harness.withService(Self.configuration(base: base)) { client, renderer in
                let cases = [
                    ("/insecure/rs:fill:100:100/plain/\(base)/f/p.jpg@webp", "the size 100×100 is not on the size ladder"),
                    ("/insecure/rs:fill:128:128/plain/\(base)/gated/p.jpg@webp", "the source is not on the allow-list"),
                    ("/insecure/rs:fill:128:128/plain/http://10.0.0.1/f/p.jpg@webp", "the source is not on the allow-list"),
                    ("/insecure/rs:fill:128:128/bl:20/plain/\(base)/f/p.jpg@webp", "the option \"bl\" may not be set"),
                    ("/insecure/rs:fill:128:128/dpr:3/plain/\(base)/f/p.jpg@webp", "the option \"dpr\" may not be set"),
                    ("/insecure/rs:fill:128:128:1/plain/\(base)/f/p.jpg@webp", "resize must be rs:fit:W:H or rs:fill:W:H"),
                    ("/insecure/raw:1/plain/\(base)/f/p.jpg", "the option \"raw\" may not be set"),
                ]
                for (path, reason) in cases {
                    let response = try await client.get(path)
                    #expect(response.status == .forbidden, "\(path)")
                    #expect(response.text.contains("unsigned URL (public mode): \(reason)"), "\(path): \(response.text)")
                }
                // Refused before any source was fetched or anything rendered.
                #expect(files.count("p.jpg") == 0 && Self.renders(renderer) == 0)
            }
        }
    }

    /// Every size from 1 to 300 pixels, as fills and as fits, twice, and spelled three ways:
    /// 1,800 requests, and renders only for the ladder's sizes, once each.
    @Test func aFloodOfDistinctSizesRendersOnlyTheLadder() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            try await Harness.withService(Self.configuration(base: base)) { client, renderer in
                let ladder = Set(SizeLadder.standard.steps)
                var served = 0, refused = 0, other = 0
                for round in 0..<2 {
                    for side in 1...300 {
                        for options in [
                            "rs:fill:\(side):\(side)/g:sm", "resize:fill:\(side):\(side)/gravity:sm",
                            "rs:fit:\(side):\(side)",
                        ] {
                            let response = try await client.get("/flood\(round)/\(options)/plain/\(base)/f/p.jpg@webp")
                            switch response.status.code {
                            case 200: served += 1
                            case 403: refused += 1
                            default: other += 1
                            }
                        }
                    }
                    await renderer.resultCache?.storage.waitForPendingWrites()
                }
                let ladderSides = (1...300).filter { ladder.contains($0) }.count
                #expect(ladderSides == 8)
                #expect(served == 2 * 3 * ladderSides && refused == 2 * 3 * (300 - ladderSides) && other == 0)
                // One render per ladder size and type: a fill spelled twice is one rendition.
                #expect(Self.renders(renderer) == 2 * ladderSides)
                #expect(files.count("p.jpg") == 1)
            }
        }
    }

    /// A signed URL is not limited by public mode: a size off the ladder, a blur.
    @Test func signedURLsKeepEveryOption() async throws {
        let files = SourceFiles()
        files["p.jpg"] = try TestImages.photo()
        try await withSourceServer(files) { base in
            try await Harness.withService(Self.configuration(base: base)) { client, _ in
                let response = try await client.get(Harness.signed("/x/rs:fill:100:77/bl:1/plain/\(base)/f/p.jpg@png"))
                #expect(response.status == .ok, "\(response.text)")
                let image = try TestImages.decode(response.data)
                #expect(image.bitmap.width == 100 && image.bitmap.height == 77)
            }
        }
    }

    @Test func publicModeNeedsAnAllowListAndNoDevelopmentMode() throws {
        let noList = Harness.configuration {
            $0.development = false
            $0.publicMode = true
        }
        do {
            _ = try ImageRenderer(configuration: noList)
            Issue.record("a public service without an allow-list started")
        } catch let error as ConfigurationError {
            #expect(error.description.contains("needs an explicit source allow-list"), "\(error)")
        }
        let withDev = Harness.configuration {
            $0.publicMode = true
            $0.sourcePolicy.allowedPrefixes = ["https://img.test/"]
        }
        #expect(throws: ConfigurationError.self) { try ImageRenderer(configuration: withDev) }
        var sized = try IrisServerConfiguration().applying(environment: ["IRIS_PUBLIC": "1", "IRIS_PUBLIC_SIZES": "100, 50,200"])
        #expect(sized.publicMode && sized.publicSizes.steps == [50, 100, 200])
        sized = IrisServerConfiguration()
        #expect(!sized.publicMode && sized.publicSizes == .standard)
        #expect(throws: ConfigurationError.self) { try IrisServerConfiguration().applying(environment: ["IRIS_PUBLIC_SIZES": "64,big"]) }
    }
}
