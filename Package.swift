// swift-tools-version:6.0
//
// The module graph, bottom to top. Each arrow is the only direction a dependency may run:
//
//   Checksums ─┬─> Inflate ──> PNG ──────┐
//              └─> LogStoreKit ──────────┴─> ImageCacheKit ──> Benchmarks ──> BenchmarkReporting ──> ImageCacheCLI
//   Platform ──────┴──────────> PNG        │     └──────────────────────────────────────────────> ConformanceDriver
//       └──────────────────────────────────┘
//   Checksums holds CRC-32, Adler-32, SHA-256 and XXH3-64; Inflate is zlib/DEFLATE decoding;
//   Platform holds every operating-system call (files, folders, locks, clocks, memory, the
//   process and its standard streams), with typed options and errors, so no other module
//   imports the C library. The PNG codec takes only its memory advice from it.
//   Benchmarks measures; BenchmarkReporting renders what a run measured for people (Markdown, the
//   SVG chart, the targets). ImageCacheCLI is the `imagecache` tool.
//   ConformanceRunner (conformance) depends on Foundation only: it drives any implementation,
//   and its few C-library calls are its own (RunnerSystem.swift).
//   imagecache-bench-probe (Sources/BenchProbe) and imagecache-bench-sharer (Sources/BenchSharer)
//   are the bench's child processes, over ImageCacheKit;
//   the crash tests' children live under Tests/, so the imagecache binary holds no test code.
//
// No module declares a type with its own name, so every public type can be written with its
// module qualifier (`ImageCacheKit.Backend`, `LogStoreKit.EntryMetadata`, `PNG.Bitmap`).
//
// Every library folder can be vendored by copying it (and the folders below it) into an app.
// To compile several of them as one module, define IMAGECACHE_SINGLE_MODULE; the cross-module
// imports are guarded by that flag.
import PackageDescription

let package = Package(
    name: "ImageCache",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "ImageCacheKit", targets: ["ImageCacheKit"]),
        .library(name: "PNG", targets: ["PNG"]),
        .library(name: "LogStoreKit", targets: ["LogStoreKit"]),
        .executable(name: "imagecache", targets: ["ImageCacheCLI"]),
        .executable(name: "conformance", targets: ["ConformanceRunner"]),
        .executable(name: "conformance-driver", targets: ["ConformanceDriver"]),
    ],
    targets: [
        // Bottom layer: byte-level algorithms, no I/O.
        .target(name: "Checksums"),
        // Every operating-system call (files, locks) in one place. Debug builds also carry the
        // test hooks (fault injection, the power-loss recorder); release builds do not.
        .target(
            name: "Platform",
            swiftSettings: [.define("IMAGECACHE_TEST_HOOKS", .when(configuration: .debug))]),
        .target(name: "Inflate", dependencies: ["Checksums"]),
        .target(name: "PNG", dependencies: ["Checksums", "Inflate", "Platform"]),
        // Storage engine.
        .target(
            name: "LogStoreKit", dependencies: ["Checksums", "Platform"],
            swiftSettings: [.define("IMAGECACHE_TEST_HOOKS", .when(configuration: .debug))]),
        // The cache API and its four backends.
        .target(
            name: "ImageCacheKit", dependencies: ["PNG", "LogStoreKit", "Checksums", "Platform"],
            swiftSettings: [.define("IMAGECACHE_TEST_HOOKS", .when(configuration: .debug))]),
        // Measurements shared by `imagecache bench` and its tests.
        .target(
            name: "Benchmarks",
            dependencies: ["ImageCacheKit", "PNG", "Inflate", "LogStoreKit", "Checksums", "Platform"]),
        // What a run measured, for people: the Markdown report, the SVG chart, the targets.
        .target(name: "BenchmarkReporting", dependencies: ["Benchmarks"]),
        // The child process of `imagecache bench open-memory`: one open, measured alone. It is
        // built beside `imagecache`, where the bench finds it.
        .executableTarget(
            name: "imagecache-bench-probe", dependencies: ["ImageCacheKit", "LogStoreKit", "Platform"],
            path: "Sources/BenchProbe"),
        // The other process of `imagecache bench shared`, built beside `imagecache` too.
        .executableTarget(
            name: "imagecache-bench-sharer", dependencies: ["ImageCacheKit", "Platform"],
            path: "Sources/BenchSharer"),
        // Executables on top. `imagecache` depends on the probe only so that building the tool
        // builds it too; no code of the probe is linked into it.
        .executableTarget(
            name: "ImageCacheCLI",
            dependencies: [
                "ImageCacheKit", "PNG", "LogStoreKit", "Benchmarks", "BenchmarkReporting", "Platform",
                "imagecache-bench-probe", "imagecache-bench-sharer",
            ]),
        .executableTarget(name: "ConformanceRunner"),
        .executableTarget(
            name: "ConformanceDriver",
            dependencies: ["ImageCacheKit", "PNG", "LogStoreKit", "Checksums"]),

        .testTarget(name: "ChecksumsTests", dependencies: ["Checksums"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "TestSupport"]),
        .testTarget(name: "InflateTests", dependencies: ["Inflate", "Checksums"]),
        .testTarget(name: "PNGTests", dependencies: ["PNG", "Inflate", "Checksums"]),
        // Helpers several test targets share: a temporary folder per test, format-1 stores.
        .target(name: "TestSupport", dependencies: ["LogStoreKit", "Checksums"], path: "Tests/TestSupport"),
        .testTarget(
            name: "LogStoreTests", dependencies: ["LogStoreKit", "Checksums", "Platform", "TestSupport"]),
        .testTarget(
            name: "ImageCacheTests",
            dependencies: [
                "ImageCacheKit", "PNG", "LogStoreKit", "Checksums", "Platform", "Inflate", "TestSupport",
            ]),
        // The open-memory suite runs the probe executable, so it must be built.
        .testTarget(
            name: "BenchmarksTests",
            dependencies: [
                "Benchmarks", "BenchmarkReporting", "imagecache-bench-probe", "imagecache-bench-sharer",
                "TestSupport",
            ]),
        // These two run the built executables, so they depend on them to be built first.
        .testTarget(
            name: "CLITests",
            dependencies: [
                "ImageCacheCLI", "ImageCacheKit", "PNG", "LogStoreKit", "Checksums", "TestSupport",
            ]),
        .testTarget(
            name: "ConformanceTests",
            dependencies: ["ConformanceRunner", "ConformanceDriver"]),
        // Crash tests with real processes: a child runs a workload and is killed (SIGKILL).
        .target(name: "TortureWorkload", path: "Tests/TortureWorkload"),
        .executableTarget(
            name: "cache-torture-child", dependencies: ["ImageCacheKit", "TortureWorkload"],
            path: "Tests/CacheTortureChild"),
        .executableTarget(
            name: "store-torture-child", dependencies: ["LogStoreKit", "TortureWorkload"],
            path: "Tests/StoreTortureChild"),
        // A process that shares a cache folder with others, for the multi-process tests.
        .executableTarget(name: "sharing-child", dependencies: ["ImageCacheKit"], path: "Tests/SharingChild"),
        .testTarget(
            name: "CrashTests",
            dependencies: [
                "ImageCacheKit", "LogStoreKit", "TortureWorkload", "cache-torture-child",
                "store-torture-child", "sharing-child", "TestSupport",
            ]),
        // Power cuts: every call of a workload is recorded, and every disk state a power cut
        // could leave is rebuilt and opened (Spec/backends.md §8).
        .testTarget(
            name: "PowerLossTests",
            dependencies: ["ImageCacheKit", "LogStoreKit", "Platform", "PNG", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
