// swift-tools-version: 6.1
import PackageDescription

// Benchmarks built on package-benchmark, kept out of the main package so the library builds
// without the benchmark toolchain. Run with `swift package benchmark` from this directory.
// (The pipeline, model and animation benchmarks are executables of the main package.)
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
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "ResamplerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
