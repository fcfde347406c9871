#!/usr/bin/env bash
# Compiles and runs every ```swift block of README.md as its own program, against this
# package as a client would use it (a path dependency), so the README's code cannot drift
# from the API (issue 10). Each block must be a complete program. They run in a scratch
# folder, with HOME and XDG_CACHE_HOME pointing there.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
package="$scratch/readme-examples"
# SwiftPM names a path dependency after its folder, so the clone can live under any name.
identity="$(basename "$repo" | tr '[:upper:]' '[:lower:]')"
mkdir -p "$package/Sources"
count=$(awk -v out="$package/Sources" '
    /^```swift[[:space:]]*$/ { n++; dir = out "/Example" n; system("mkdir -p " dir); file = dir "/main.swift"; inside = 1; next }
    /^```[[:space:]]*$/ && inside { inside = 0; close(file); next }
    inside { print > file }
    END { print n + 0 }' "$repo/README.md")
[ "$count" -gt 0 ] || { echo "README.md has no swift examples"; exit 1; }
{
    echo '// swift-tools-version:6.0'
    echo 'import PackageDescription'
    echo 'let products: [Target.Dependency] = ['
    echo "    .product(name: \"ImageCacheKit\", package: \"$identity\"), .product(name: \"PNG\", package: \"$identity\"),"
    echo "    .product(name: \"LogStoreKit\", package: \"$identity\"),"
    echo ']'
    echo 'let package = Package('
    echo '    name: "ReadmeExamples", platforms: [.macOS(.v13)],'
    echo "    dependencies: [.package(path: \"$repo\")],"
    echo '    targets: ['
    for n in $(seq 1 "$count"); do
        echo "        .executableTarget(name: \"Example$n\", dependencies: products),"
    done
    echo '    ]'
    echo ')'
} > "$package/Package.swift"
cd "$package"
swift build 2>&1 | grep -E "error|warning: unre|Compiling Example|Build complete" || true
bin="$(swift build --show-bin-path)"
for n in $(seq 1 "$count"); do
    [ -x "$bin/Example$n" ] || { echo "README example $n did not build"; exit 1; }
    run="$scratch/run-$n"
    mkdir -p "$run"
    (cd "$run" && HOME="$run" XDG_CACHE_HOME="$run/cache" "$bin/Example$n") > "$scratch/out-$n" 2>&1 \
        || { echo "README example $n failed:"; cat "$scratch/out-$n"; exit 1; }
    echo "README example $n ran: $(head -c 200 "$scratch/out-$n" | tr '\n' ' ')"
done
echo "readme: $count examples built and ran"
