// swift-tools-version: 6.1
import PackageDescription

/// System libraries are linked on Linux only; Apple platforms decode with ImageIO.
let linuxOnly = TargetDependencyCondition.when(platforms: [.linux])

/// What only this package's own tools need: the `iris` command line's argument parser and the
/// in-process HTTP test server. Off unless asked for (`--traits DevelopmentTools`, as the
/// Makefile and scripts do), so an app that adds Iris resolves no other package.
let developmentTools = TargetDependencyCondition.when(traits: ["DevelopmentTools"])

let package = Package(
    name: "Iris",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Iris", targets: ["Iris"]),
        // SwiftUI `IrisImage` and UIKit/AppKit `IrisImageView`: thin shells over `ImageModel`.
        .library(name: "IrisUI", targets: ["IrisUI"]),
        .executable(name: "iris", targets: ["IrisCLI"]),
        // The sample images, the test server and the benchmarks are targets, not products: this
        // package's tools and tests use them, an app never sees them.
    ],
    traits: [
        .trait(name: "DevelopmentTools",
               description: "The iris command-line tool and the HTTP test server (swift-argument-parser, swift-nio), for this package's demo, tests and benchmarks."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        // Little CMS 2: embedded ICC profiles converted to sRGB on Linux.
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // libavif's and libjxl's pkg-config files add -D flags SwiftPM refuses (with a warning);
        // their headers are on the standard include path, so they are found without it.
        .systemLibrary(name: "CAVIF", providers: [.apt(["libavif-dev"])]),
        .systemLibrary(name: "CHEIF", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CJXL", providers: [.apt(["libjxl-dev"])]),
        // Our own small C target: wraps the libjpeg/libpng calls that report errors with longjmp.
        .target(
            name: "CIrisShims",
            dependencies: [
                .target(name: "CJPEG", condition: linuxOnly),
                .target(name: "CPNG", condition: linuxOnly),
            ]
        ),
        .target(
            name: "Iris",
            dependencies: [
                .target(name: "CJPEG", condition: linuxOnly),
                .target(name: "CPNG", condition: linuxOnly),
                .target(name: "CWebP", condition: linuxOnly),
                .target(name: "CGIF", condition: linuxOnly),
                .target(name: "CLCMS2", condition: linuxOnly),
                .target(name: "CAVIF", condition: linuxOnly),
                .target(name: "CHEIF", condition: linuxOnly),
                .target(name: "CJXL", condition: linuxOnly),
                .target(name: "CIrisShims", condition: linuxOnly),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The views; everything in it is Apple-only (`#if canImport`), so it is empty on Linux.
        .target(name: "IrisUI", dependencies: ["Iris"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // Deterministic photo-like sample images for the demo, tests and benchmarks.
        .target(name: "IrisSamples", dependencies: ["Iris"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // The command-line tool; its folder is IrisCLI so it cannot collide with Sources/Iris on
        // a case-insensitive disk.
        .executableTarget(
            name: "IrisCLI",
            dependencies: [
                "Iris", "IrisSamples",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: developmentTools),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A scriptable HTTP/1.1 server (delays, trickled bodies, dropped connections, gates).
        .target(
            name: "IrisTestServer",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: developmentTools),
                .product(name: "NIOCore", package: "swift-nio", condition: developmentTools),
                .product(name: "NIOPosix", package: "swift-nio", condition: developmentTools),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: developmentTools),
            ],
            path: "Tests/IrisTestServer",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Benchmarks that need no benchmark framework (`swift run -c release --traits
        // DevelopmentTools PipelineBench`; see scripts/bench-*). Package-benchmark ones are in Benchmarks/.
        .executableTarget(
            name: "PipelineBench",
            dependencies: ["Iris", "IrisSamples", "IrisTestServer"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(name: "ModelBench", dependencies: ["Iris", "IrisUI", "IrisSamples"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(name: "AnimationBench", dependencies: ["Iris"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "IrisTests",
            dependencies: [
                "Iris", "IrisSamples", "IrisTestServer",
                // The views' model and its decisions (platform-neutral files of IrisUI).
                "IrisUI",
                // The CLI's own types (output naming, batches, thumbnail jobs), `@testable`; the
                // interruption and name-clash tests also run its `iris` executable.
                "IrisCLI",
                // Tests write some inputs with the C libraries directly (CMYK JPEG, every PNG
                // colour type, GIF).
                .target(name: "CJPEG", condition: linuxOnly),
                .target(name: "CPNG", condition: linuxOnly),
                .target(name: "CWebP", condition: linuxOnly),
                .target(name: "CGIF", condition: linuxOnly),
                // Tests render images to sRGB with Little CMS to compare colours.
                .target(name: "CLCMS2", condition: linuxOnly),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
