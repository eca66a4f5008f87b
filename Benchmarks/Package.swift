// swift-tools-version: 6.1
import PackageDescription

// Benchmarks for Iris, kept out of the main package so the library builds without the
// benchmark toolchain. Run with `swift package benchmark` from this directory.
let package = Package(
    name: "IrisBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Iris", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "ResamplerBenchmarks",
            dependencies: [
                .product(name: "Iris", package: "Iris"),
                .product(name: "IrisSamples", package: "Iris"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "ResamplerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The pipeline against the caches, decoder and loader called directly; prints ratios.
        .executableTarget(
            name: "PipelineBench",
            dependencies: [
                .product(name: "Iris", package: "Iris"),
                .product(name: "IrisSamples", package: "Iris"),
                .product(name: "IrisTestServer", package: "Iris"),
            ],
            path: "PipelineBench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Decoding every frame of an animation at a target, and the memory of playing one.
        .executableTarget(
            name: "AnimationBench",
            dependencies: [.product(name: "Iris", package: "Iris")],
            path: "AnimationBench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // What ImageModel costs the main actor, next to a minimal hand-written model.
        .executableTarget(
            name: "ModelBench",
            dependencies: [
                .product(name: "Iris", package: "Iris"),
                .product(name: "IrisSamples", package: "Iris"),
            ],
            path: "ModelBench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
