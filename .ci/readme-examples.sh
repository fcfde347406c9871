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
# The revalidation example talks HTTP to a local stub, never the network: 200 with an ETag,
# and 304 when If-None-Match names it. The examples find it in IMAGECACHE_EXAMPLE_SERVER.
cat > "$scratch/stub_server.py" <<'PY'
import http.server, sys
BODY, ETAG = b"\x89PNG stand-in bytes", '"avatar-v1"'
class Stub(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.headers.get("If-None-Match") == ETAG:
            self.send_response(304); self.send_header("ETag", ETAG); self.end_headers(); return
        self.send_response(200); self.send_header("ETag", ETAG)
        self.send_header("Content-Length", str(len(BODY))); self.end_headers(); self.wfile.write(BODY)
    def log_message(self, *args): pass
server = http.server.HTTPServer(("127.0.0.1", 0), Stub)
print(server.server_address[1], flush=True)
server.serve_forever()
PY
if command -v python3 >/dev/null 2>&1; then
    python3 "$scratch/stub_server.py" > "$scratch/stub-port" &
    stub=$!
    trap 'kill "$stub" 2>/dev/null; rm -rf "$scratch"' EXIT
    for _ in $(seq 50); do [ -s "$scratch/stub-port" ] && break; sleep 0.1; done
    export IMAGECACHE_EXAMPLE_SERVER="http://127.0.0.1:$(cat "$scratch/stub-port")"
else
    echo "!! python3 not found: the revalidation example has no server and will fail"
fi
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
