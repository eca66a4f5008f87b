// swift-tools-version: 6.2
import PackageDescription

/// Iris Server: the image service over HTTP (imgproxy-compatible signed URLs) on Iris's pipeline.
///
/// A package of its own, next to the library's: an app that depends on Iris or IrisUI resolves
/// none of the server's packages (Hummingbird, AsyncHTTPClient, swift-crypto).
let package = Package(
    name: "IrisServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "iris-server", targets: ["IrisServerTool"]),
        .library(name: "IrisServer", targets: ["IrisServer"]),
        .library(name: "IrisServerCore", targets: ["IrisServerCore"]),
        .executable(name: "iris-video-poster", targets: ["IrisVideoPoster"]),
        // For the benchmarks package (Benchmarks/ResponsiveBench).
        .library(name: "ResponsiveGrid", targets: ["ResponsiveGrid"]),
    ],
    dependencies: [
        .package(name: "Iris", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // Platform-neutral logic, testable without HTTP: the imgproxy URL, its signature, options
        // → a typed `ServeRequest`, format negotiation, the source policy.
        .target(
            name: "IrisServerCore",
            dependencies: [
                .product(name: "Iris", package: "Iris"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The HTTP service: Hummingbird routes, the source loader, rendering on the pipeline.
        .target(
            name: "IrisServer",
            dependencies: [
                "IrisServerCore",
                .product(name: "Iris", package: "Iris"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // `iris-server`: flags and IRIS_* environment variables → a running service.
        .executableTarget(
            name: "IrisServerTool",
            dependencies: [
                "IrisServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // `iris-video-poster`: a video's poster made in a process of its own (FFmpeg on bytes an
        // outsider chose), under resource limits, so that a crash costs one request.
        .executableTarget(
            name: "IrisVideoPoster",
            dependencies: [.product(name: "Iris", package: "Iris")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A grid of image cells driven as IrisUI's views drive their models, and a loader that
        // counts what they download: shared by the end-to-end test of responsive images and
        // the benchmarks package's ResponsiveBench (`Benchmarks/runners/responsive`).
        .target(
            name: "ResponsiveGrid",
            dependencies: [.product(name: "Iris", package: "Iris"), .product(name: "IrisUI", package: "Iris")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "IrisServerTests",
            dependencies: [
                "IrisServerCore", "IrisServer", "ResponsiveGrid",
                .product(name: "Iris", package: "Iris"),
                .product(name: "IrisUI", package: "Iris"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
