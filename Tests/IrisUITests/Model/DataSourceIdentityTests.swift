import Foundation
import IrisSamples
import IrisTestSupport
import Observation
import Testing

@testable import Iris
@testable import IrisUI

/// Data sources: reload ids and shared cache keys: the decisions behind the views, made by the model on Linux.
@MainActor
@Suite("Data sources: reload ids and shared cache keys")
struct DataSourceIdentityTests {
    @Test("equal Hashable ids at one place share the image (a row made again: no second call); other places never do")
    func placeScopedDataKeys() async throws {
        let png = try TestImages.png(width: 16, height: 16, seed: 49)
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let calls = PipelineCounter()
        let rowPlace = ViewPlace(fileID: "App/Feed.swift", line: 12, column: 9)
        let target = CGSize(width: 16, height: 16)
        func show(_ id: Int, at place: ViewPlace) -> ImageModel {
            let model = ImageModel(pipeline: pipeline)
            model.loadForView(
                model.dataRequest(id: id, targetSize: target, place: place) {
                    calls.increment()
                    return png
                })
            return model
        }
        let first = show(7, at: rowPlace)
        #expect(await modelSettled(first))
        let again = show(7, at: rowPlace)  // the row made again
        #expect(again.phase.kind == .success && calls.count == 1)
        let author = show(7, at: ViewPlace(fileID: "App/Author.swift", line: 3, column: 5))
        #expect(await modelSettled(author))
        #expect(calls.count == 2)  // another place: its own image
    }

    @Test("an Equatable-only id stays private, and its cached image goes when the id changes and when the view goes")
    func privateKeysAreRemoved() async throws {
        struct Asset: Equatable, Sendable { let name: String }
        let png = try TestImages.png(width: 16, height: 16, seed: 50)
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let cache = try #require(pipeline.configuration.memoryCache as? MemoryCache)
        let place = ViewPlace(fileID: "App/Grid.swift", line: 1, column: 1)
        var model: ImageModel? = ImageModel(pipeline: pipeline)
        model?.viewLayoutDidChange(slot: ImageSlot(width: 8, height: 8), displayScale: 2)
        model?.loadForView(model?.dataRequest(id: Asset(name: "a"), place: place) { png })
        #expect(await modelSettled(try #require(model)))
        #expect(cache.count == 1)
        model?.loadForView(model?.dataRequest(id: Asset(name: "b"), place: place) { png })
        #expect(await modelSettled(try #require(model)))
        #expect(cache.count == 1)  // a's image is gone, b's is there
        model = nil
        #expect(cache.count == 0)
    }

    @Test("equal ids of two views never share an image; a cache key shares it; another type is another id")
    func dataSourceKeys() async throws {
        func solid(_ colour: RGBA) throws -> Data {
            var bitmap = Bitmap(width: 8, height: 8, format: .rgba8)
            for y in 0..<8 { for x in 0..<8 { bitmap.setRGBA(colour, x: x, y: y) } }
            return try PNGEncoder().encode(bitmap, options: EncodeOptions())
        }
        let red = try solid(RGBA(r: 255, g: 0, b: 0))
        let blue = try solid(RGBA(r: 0, g: 0, b: 255))
        let pipeline = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))
        let target = CGSize(width: 8, height: 8)
        let post = ImageModel(pipeline: pipeline)
        let author = ImageModel(pipeline: pipeline)
        post.load(post.dataRequest(id: 7, targetSize: target) { red })
        author.load(author.dataRequest(id: 7, targetSize: target) { blue })  // post.id == author.id == 7
        #expect(await modelSettled(post))
        #expect(await modelSettled(author))
        #expect(post.phase.loadedImage?.bitmap.rgba(x: 0, y: 0).r == 255)
        #expect(author.phase.loadedImage?.bitmap.rgba(x: 0, y: 0).b == 255)

        var keys = DataSourceKeys()
        let first = keys.key(id: 7, cacheKey: nil, place: nil)
        #expect(keys.key(id: 7, cacheKey: nil, place: nil) == first)  // same id: same key, no reload
        #expect(keys.key(id: Int64(7), cacheKey: nil, place: nil) != first)  // another type: another id
        #expect(keys.key(id: 8, cacheKey: nil, place: nil) != first)
        #expect(keys.key(id: 8, cacheKey: "avatar-8", place: nil).string == "avatar-8")

        let calls = PipelineCounter()
        let one = ImageModel(pipeline: pipeline)
        let other = ImageModel(pipeline: pipeline)
        one.load(
            one.dataRequest(id: "a", cacheKey: "avatar-7", targetSize: target) {
                calls.increment()
                return red
            })
        #expect(await modelSettled(one))
        other.load(
            other.dataRequest(id: "b", cacheKey: "avatar-7", targetSize: target) {
                calls.increment()
                return blue
            })
        #expect(other.phase.kind == .success)  // shared: a memory hit
        #expect(calls.count == 1)
    }

    @Test("a class id: a new instance with another value reloads; the same value does not")
    func classIDs() {
        final class Post: Equatable, Sendable {
            let number: Int
            init(_ number: Int) { self.number = number }
            static func == (lhs: Post, rhs: Post) -> Bool { lhs.number == rhs.number }
        }
        var keys = DataSourceKeys()
        let first = keys.key(id: Post(1), cacheKey: nil, place: nil)
        #expect(keys.key(id: Post(1), cacheKey: nil, place: nil) == first)
        #expect(keys.key(id: Post(2), cacheKey: nil, place: nil) != first)
        var otherView = DataSourceKeys()
        #expect(otherView.key(id: Post(1), cacheKey: nil, place: nil) != first)  // another view: another key
    }
}
