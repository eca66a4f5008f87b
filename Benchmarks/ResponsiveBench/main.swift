import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Iris
import IrisUI
import ResponsiveGrid

// The client of `Benchmarks/runners/responsive`: a grid of photos shown as IrisUI's views show them,
// from their originals or through an imgproxy-compatible service, and what it cost.
//
//   ResponsiveBench --urls FILE [--service BASE_URL] [--screen phone|pad] [--deadline SECONDS]
//
// FILE lists the photos' URLs, one a line. With --service, the pipeline's image service is an
// ImgproxyService at BASE_URL (unsigned: public mode). Prints one JSON line: seconds until every
// cell had its final image, body bytes received, requests, distinct URLs, cells that failed or
// do not cover their slot, cells that fell back to the original.

func argument(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

guard let listPath = argument("--urls"), let list = try? String(contentsOfFile: listPath, encoding: .utf8) else {
    FileHandle.standardError.write(Data("usage: ResponsiveBench --urls FILE [--service BASE_URL] [--screen phone|pad]\n".utf8))
    exit(2)
}
let urls = list.split(separator: "\n").compactMap { URL(string: String($0).trimmingCharacters(in: .whitespaces)) }
let screen: GridScreen = argument("--screen") == "pad" ? .pad : .phone
let deadline = Duration.seconds(Int(argument("--deadline") ?? "") ?? 900)
let loader = CountingDataLoader(URLSessionDataLoader(timeout: 300))
var configuration = ImagePipeline.Configuration(dataLoader: loader, dataCache: nil, memoryCache: MemoryCache(), resumableData: nil)
if let service = argument("--service").flatMap(URL.init(string:)) {
    configuration.imageService = ImgproxyService(baseURL: service)
}
let pipeline = ImagePipeline(configuration: configuration)

let clock = ContinuousClock()
let started = clock.now
let grid = ImageGrid(pipeline: pipeline, urls: urls)
grid.layOut(on: screen)
let settled = await grid.settle(deadline: deadline)
let elapsed = clock.now - started
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
let tally = loader.tally
// Through a service, a cell showing its original (no rendition) fell back to it.
let fallbacks =
    configuration.imageService == nil ? 0 : grid.models.filter { $0.phase.loadedImage.map { $0.rendition == nil } ?? false }.count
let report: [String: Any] = [
    "screen": screen.description, "cells": urls.count, "settled": settled, "seconds": seconds, "bytes": tally.bytes,
    "requests": tally.requestCount, "distinct_urls": tally.requests.count, "not_covering": grid.cellsNotCovering(screen).count,
    "fallbacks": fallbacks,
]
let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
exit(settled ? 0 : 1)
