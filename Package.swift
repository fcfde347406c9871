// swift-tools-version:6.0
//
// The module graph, bottom to top. Each arrow is the only direction a dependency may run:
//
//   Checksums ─┬─> Inflate ──> PNG ──┐
//              └─> LogStore ─────────┴─> ImageCache ──> Benchmarks ──> ImageCacheCLI (imagecache)
//                                         └──────────────────────────> ConformanceDriver
//   Checksums holds CRC-32, Adler-32 and SHA-256; Inflate is zlib/DEFLATE decoding.
//   ConformanceRunner (conformance) depends on Foundation only: it drives any implementation.
//
// Every library folder can be vendored by copying it (and the folders below it) into an app.
// To compile several of them as one module, define IMAGECACHE_SINGLE_MODULE; the cross-module
// imports are guarded by that flag.
import PackageDescription

let package = Package(
    name: "ImageCache",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "ImageCache", targets: ["ImageCache"]),
        .library(name: "PNG", targets: ["PNG"]),
        .library(name: "LogStore", targets: ["LogStore"]),
        .executable(name: "imagecache", targets: ["ImageCacheCLI"]),
        .executable(name: "conformance", targets: ["ConformanceRunner"]),
        .executable(name: "conformance-driver", targets: ["ConformanceDriver"]),
    ],
    targets: [
        // Bottom layer: byte-level algorithms, no I/O.
        .target(name: "Checksums"),
        .target(name: "Inflate", dependencies: ["Checksums"]),
        .target(name: "PNG", dependencies: ["Checksums", "Inflate"]),
        // Storage engine.
        .target(name: "LogStore", dependencies: ["Checksums"]),
        // The cache API and its four backends.
        .target(name: "ImageCache", dependencies: ["PNG", "LogStore", "Checksums"]),
        // Measurements shared by `imagecache bench` and its tests.
        .target(name: "Benchmarks", dependencies: ["ImageCache", "PNG", "LogStore", "Checksums"]),
        // Executables on top.
        .executableTarget(
            name: "ImageCacheCLI",
            dependencies: ["ImageCache", "PNG", "LogStore", "Benchmarks"]),
        .executableTarget(name: "ConformanceRunner"),
        .executableTarget(
            name: "ConformanceDriver",
            dependencies: ["ImageCache", "PNG", "LogStore", "Checksums"]),

        .testTarget(name: "ChecksumsTests", dependencies: ["Checksums"]),
        .testTarget(name: "InflateTests", dependencies: ["Inflate", "Checksums"]),
        .testTarget(name: "PNGTests", dependencies: ["PNG", "Inflate", "Checksums"]),
        .testTarget(name: "LogStoreTests", dependencies: ["LogStore", "Checksums"]),
        .testTarget(name: "ImageCacheTests", dependencies: ["ImageCache", "PNG", "LogStore", "Checksums"]),
        .testTarget(name: "BenchmarksTests", dependencies: ["Benchmarks"]),
        // These two run the built executables, so they depend on them to be built first.
        .testTarget(name: "CLITests", dependencies: ["ImageCacheCLI", "PNG", "LogStore"]),
        .testTarget(
            name: "ConformanceTests",
            dependencies: ["ConformanceRunner", "ConformanceDriver"]),
    ],
    swiftLanguageModes: [.v6]
)
