// swift-tools-version: 6.1
import PackageDescription

// Every benchmark of Iris, in one package kept out of the main one (the library builds without
// a benchmark framework): the executables the runners in `runners/` build and start, and the
// package-benchmark targets (`swift package benchmark` from this directory). The runners and the
// Python harnesses they run (`harness/`) measure Iris against the reference tools; see
// docs/BENCHMARKS.md.
let package = Package(
    name: "IrisBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "Iris", path: ".."),
        .package(name: "IrisServer", path: "../Server"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The pipeline next to the caches, decoder and loader called directly (`runners/pipeline`).
        .executableTarget(
            name: "PipelineBench",
            dependencies: [
                .product(name: "Iris", package: "Iris"), .product(name: "IrisSamples", package: "Iris"),
                .product(name: "IrisTestSupport", package: "Iris"),
            ],
            path: "PipelineBench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // ImageModel's main-actor cost per load and per memory hit, and its render rate (`runners/model`).
        .executableTarget(
            name: "ModelBench",
            dependencies: [
                .product(name: "Iris", package: "Iris"), .product(name: "IrisUI", package: "Iris"),
                .product(name: "IrisSamples", package: "Iris"), .product(name: "IrisTestSupport", package: "Iris"),
            ],
            path: "ModelBench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Animated images' decode and playback cost (`runners/animation`).
        .executableTarget(
            name: "AnimationBench",
            dependencies: [.product(name: "Iris", package: "Iris")],
            path: "AnimationBench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A grid of photos from the originals and through iris-server (`runners/responsive`).
        .executableTarget(
            name: "ResponsiveBench",
            dependencies: [
                .product(name: "Iris", package: "Iris"), .product(name: "IrisUI", package: "Iris"),
                .product(name: "ResponsiveGrid", package: "IrisServer"),
            ],
            path: "ResponsiveBench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The resampler, on package-benchmark (`swift package benchmark`).
        .executableTarget(
            name: "ResamplerBenchmarks",
            dependencies: [
                .product(name: "Iris", package: "Iris"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "ResamplerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
