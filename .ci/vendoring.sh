#!/usr/bin/env bash
# Proves the two ways of vendoring the README describes (issue 10): copy the folders into an
# app's own package and build them there, with nothing else from this repository.
#   1. the PNG codec as four modules: Checksums, Inflate, Platform, PNG;
#   2. the whole cache (Checksums, Inflate, PNG, Platform, LogStoreKit, ImageCacheKit) compiled
#      as ONE module with -D IMAGECACHE_SINGLE_MODULE.
# Each scratch package builds a smoke program and runs it.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

echo "-- vendoring 1: the PNG codec as four modules"
png="$scratch/png-app"
mkdir -p "$png/Sources/PNGSmoke"
for module in Checksums Inflate Platform PNG; do cp -R "$repo/Sources/$module" "$png/Sources/$module"; done
cp "$repo/.ci/vendoring/PNGSmoke.swift" "$png/Sources/PNGSmoke/main.swift"
cat > "$png/Package.swift" <<'PACKAGE'
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "PNGApp",
    targets: [
        .target(name: "Checksums"),
        .target(name: "Inflate", dependencies: ["Checksums"]),
        .target(name: "Platform"),
        .target(name: "PNG", dependencies: ["Checksums", "Inflate", "Platform"]),
        .executableTarget(name: "PNGSmoke", dependencies: ["PNG"]),
    ]
)
PACKAGE
(cd "$png" && swift build --product PNGSmoke 2>&1 | tail -1 && "$(swift build --show-bin-path)/PNGSmoke")

echo "-- vendoring 2: the whole cache as one module"
cache="$scratch/cache-app"
mkdir -p "$cache/Sources/Vendored" "$cache/Sources/CacheSmoke"
for module in Checksums Inflate PNG Platform LogStoreKit ImageCacheKit; do
    cp "$repo/Sources/$module/"*.swift "$cache/Sources/Vendored/"
done
cp "$repo/.ci/vendoring/CacheSmoke.swift" "$cache/Sources/CacheSmoke/main.swift"
cat > "$cache/Package.swift" <<'PACKAGE'
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "CacheApp",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    targets: [
        .target(name: "Vendored", swiftSettings: [.define("IMAGECACHE_SINGLE_MODULE")]),
        .executableTarget(name: "CacheSmoke", dependencies: ["Vendored"]),
    ]
)
PACKAGE
(cd "$cache" && swift build --product CacheSmoke 2>&1 | tail -1 && "$(swift build --show-bin-path)/CacheSmoke" "$scratch/caches")
echo "vendoring: both ways build and run"
