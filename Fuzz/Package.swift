// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for Iris's own parsing code, kept out of the main package so normal builds
// never compile them. Build and run with `make fuzz` / `make fuzz-replay` from the project root
// (`-sanitize=fuzzer,address`, linked with lld).
let targets = [
    "FuzzDecode", "FuzzDecodeAtTarget", "FuzzHeader", "FuzzDataCacheEntry", "FuzzProgressivePrefix",
    "FuzzAnimation", "FuzzAPNG",
    // AVIF, HEIF and JPEG XL through libavif, libheif and libjxl (their seeds: scripts/make-fuzz-seeds).
    "FuzzAVIF", "FuzzHEIF", "FuzzJXL",
    // Videos through FFmpeg (their seeds: scripts/make-fuzz-seeds).
    "FuzzVideo",
]

let package = Package(
    name: "IrisFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Iris", path: "..")],
    targets: [
        // Hands control to libFuzzer and gives each target the same limits.
        .target(name: "FuzzDriver", dependencies: [.product(name: "Iris", package: "Iris")],
                swiftSettings: [.swiftLanguageMode(.v6)]),
    ] + targets.map { name in
        .executableTarget(name: name, dependencies: ["FuzzDriver", .product(name: "Iris", package: "Iris")],
                          swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-parse-as-library"])])
    }
)
