// swift-tools-version: 6.2
import PackageDescription

/// System libraries are linked on Linux only; Apple platforms decode with ImageIO.
let linuxOnly = TargetDependencyCondition.when(platforms: [.linux])

// Swift 6.2 at least (Xcode 26): the library uses `isolated deinit`, `nonisolated(nonsending)`
// and `weak let`, which Swift 6.1 does not have; an older toolchain says so when it resolves.
let package = Package(
    name: "Iris",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Iris", targets: ["Iris"]),
        // SwiftUI `IrisImage` and UIKit/AppKit `IrisImageView`: thin shells over `ImageModel`.
        .library(name: "IrisUI", targets: ["IrisUI"]),
        // For the benchmarks package (Benchmarks/): the sample images, and the test support with
        // the scriptable HTTP server the benchmarks load from. An app that adds Iris resolves only
        // the packages the products it uses need: Iris and IrisUI need none.
        .library(name: "IrisSamples", targets: ["IrisSamples"]),
        .library(name: "IrisTestSupport", targets: ["IrisTestSupport"]),
        // The `iris` tool (`swift run -c release IrisCLI`, `make install`) is a target, not a
        // product: an executable *product* would make every app resolve swift-argument-parser
        // (SwiftPM keeps a dependency's executables, for plugins).
    ],
    dependencies: [
        // Used only by the IrisCLI executable and the test support's HTTP server: never by Iris or IrisUI.
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
        // These three are not linked (their module maps name no library): with what they pull
        // in they are ~40 shared libraries, loaded on first use instead, not at every start
        // (CIrisShims/lazy_codecs.c, written by scripts/make-lazy-codec-stubs).
        .systemLibrary(name: "CAVIF", providers: [.apt(["libavif-dev"])]),
        .systemLibrary(name: "CHEIF", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CJXL", providers: [.apt(["libjxl-dev"])]),
        // FFmpeg (libavformat, libavcodec, libswscale, libavutil): video posters and frames.
        // Not linked either: libavcodec alone brings in some 60 codec libraries.
        .systemLibrary(name: "CFFmpeg", providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev"])]),
        // libtiff (TIFF) and gdk-pixbuf (BMP and ICO): not linked either, opened on first use.
        // CGdkPixbuf declares the few functions Iris calls (their headers need pkg-config's
        // flags, which would link GLib, GObject and GIO); the stub script checks them.
        .systemLibrary(name: "CTIFF", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CGdkPixbuf", providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        // librsvg and cairo (SVG), declared the same way: opened on first use.
        .systemLibrary(name: "CRsvg", providers: [.apt(["librsvg2-dev"])]),
        // Our own small C target: wraps the libjpeg/libpng calls that report errors with longjmp,
        // and opens libavif, libheif and libjxl on first use (dlopen).
        .target(
            name: "CIrisShims",
            dependencies: [
                .target(name: "CJPEG", condition: linuxOnly),
                .target(name: "CPNG", condition: linuxOnly),
            ],
            // libdeflate (libdeflate-dev) inflates PNG image data that fits the decoder's budget.
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux])), .linkedLibrary("deflate", .when(platforms: [.linux]))]
        ),
        // libcurl opened on first use, for the command-line tool only (FoundationNetworking calls
        // it; the tool reads files): its start loads 29 fewer libraries when linked with
        // --as-needed (the Makefile's TOOL_BUILD). See scripts/make-lazy-codec-stubs.
        .target(name: "CIrisCurlOnDemand", dependencies: ["CIrisShims"]),
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
                .target(name: "CFFmpeg", condition: linuxOnly),
                .target(name: "CTIFF", condition: linuxOnly),
                .target(name: "CGdkPixbuf", condition: linuxOnly),
                .target(name: "CRsvg", condition: linuxOnly),
                .target(name: "CIrisShims", condition: linuxOnly),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The views (Apple-only files, `#if canImport`) over their model (platform-neutral:
        // built and tested on Linux too).
        .target(name: "IrisUI", dependencies: ["Iris"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // Deterministic photo-like sample images for the demo, tests and benchmarks.
        .target(name: "IrisSamples", dependencies: ["Iris"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // The command-line tool, `iris` (its module is IrisCLI, so it cannot collide with Iris on
        // a case-insensitive disk; `make install` installs it as `iris`).
        .executableTarget(
            name: "IrisCLI",
            dependencies: [
                "Iris", "IrisSamples",
                .target(name: "CIrisCurlOnDemand", condition: linuxOnly),
                .target(name: "CIrisShims", condition: linuxOnly),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // What the test targets share, in one module: byte comparisons, a virtual clock, counting
        // loaders and decoders, test image makers and writers, and a scriptable HTTP/1.1 server
        // (TestServer/: delays, trickled bodies, dropped connections, gates) with its helpers.
        // The benchmarks package builds it in release, where Iris is not built for testing: the
        // files that read Iris's internals (`@testable import`) or use swift-testing are inside
        // `#if IRIS_TESTABLE`, defined in debug builds (the tests'); the server and TestImages
        // are plain Swift over public API, built in both.
        .target(
            name: "IrisTestSupport",
            dependencies: [
                "Iris", "IrisSamples",
                .target(name: "CPNG", condition: linuxOnly),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/IrisTestSupport",
            swiftSettings: [.swiftLanguageMode(.v6), .define("IRIS_TESTABLE", .when(configuration: .debug))]
        ),
        // One test target per module.
        .testTarget(
            name: "IrisTests",
            dependencies: [
                "Iris", "IrisSamples", "IrisTestSupport",
                // The codec conformance tests that read `iris info --json` and `iris frames` run
                // the tool's executable (built with this dependency).
                "IrisCLI",
                // Tests write some inputs with the C libraries directly (CMYK JPEG, every PNG
                // colour type, GIF).
                .target(name: "CJPEG", condition: linuxOnly),
                .target(name: "CPNG", condition: linuxOnly),
                .target(name: "CWebP", condition: linuxOnly),
                .target(name: "CGIF", condition: linuxOnly),
                // Tests render images to sRGB with Little CMS to compare colours.
                .target(name: "CLCMS2", condition: linuxOnly),
                // Four-colour and exhaustively progressive JPEGs, written through the encoder's shim.
                .target(name: "CIrisShims", condition: linuxOnly),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The views' model and its decisions (the platform-neutral files of IrisUI).
        .testTarget(
            name: "IrisUITests",
            dependencies: ["Iris", "IrisUI", "IrisSamples", "IrisTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The CLI's own types (output naming, batches, thumbnail jobs), `@testable`, and its
        // `iris` executable run as a child process.
        .testTarget(
            name: "IrisCLITests",
            dependencies: ["Iris", "IrisCLI", "IrisSamples", "IrisTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
