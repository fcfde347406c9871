#!/usr/bin/env bash
# Builds the API documentation of the three library products, ImageCacheKit, PNG and
# LogStoreKit, with the toolchain's own docc and no package plugin. CI runs it (.ci/run), and
# so can you:
#
#   .ci/docs.sh
#
# 1. `swift build` emits each module's symbol graph (a separate scratch path, so the normal
#    build is left alone);
# 2. .ci/check-documentation.swift lists every public symbol without a documentation comment;
# 3. `docc convert` turns each catalog (Sources/<Module>/<Module>.docc) and its module's graph
#    into a static website, .build-docs/<Module>.doccarchive.
# Any undocumented public symbol, and any docc warning (an unresolved link, a parameter that
# does not exist), fails the script. To read the result, serve an archive as static files:
#
#   python3 -m http.server --directory .build-docs/ImageCacheKit.doccarchive 8000
#   # then open http://localhost:8000/documentation/imagecachekit
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(ImageCacheKit PNG LogStoreKit)
out="$PWD/.build-docs"
graphs="$out/symbol-graphs"

# The docc beside the swift in use (xcrun knows it on macOS); DOCC overrides.
docc="${DOCC:-}"
if [ -z "$docc" ]; then
    if command -v xcrun >/dev/null 2>&1; then
        docc="$(xcrun --find docc)"
    else
        docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
    fi
fi
[ -x "$docc" ] || { echo "docs: no docc at $docc (set DOCC to the toolchain's docc)"; exit 1; }

started=$SECONDS
# A module's graph is written when the module compiles; if a graph is missing while the build
# is current, start the build over so every graph is written again.
for module in "${modules[@]}"; do
    [ -f "$graphs/$module.symbols.json" ] || { rm -rf "$out/build" "$graphs"; break; }
done
mkdir -p "$graphs"
# ImageCacheKit depends on PNG and LogStoreKit, so building it builds all three.
status=0
swift build --scratch-path "$out/build" --target ImageCacheKit \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public > "$out/build.log" 2>&1 || status=$?
grep -Ev '^\[[0-9]+/[0-9]+\]' "$out/build.log" || true
[ "$status" -eq 0 ] || { echo "docs: swift build failed"; exit 1; }
for module in "${modules[@]}"; do
    [ -f "$graphs/$module.symbols.json" ] || { echo "docs: swift build wrote no symbol graph for $module"; exit 1; }
done

swift .ci/check-documentation.swift "$graphs" "${modules[@]}"

for module in "${modules[@]}"; do
    # docc reads every graph in the folder it is given: give it this module's own.
    input="$out/input/$module"
    rm -rf "$input" "$out/$module.doccarchive"
    mkdir -p "$input"
    cp "$graphs/$module".symbols.json "$input/"
    cp "$graphs/$module"@*.symbols.json "$input/" 2>/dev/null || true
    log="$out/$module.log"
    status=0
    "$docc" convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$input" \
        --output-path "$out/$module.doccarchive" --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.imagecache.$module" --warnings-as-errors > "$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ] || grep -qE 'warning:|error:' "$log"; then
        cat "$log"
        echo "docs: docc reported problems in $module (above)"
        exit 1
    fi
    echo "docs: $module -> .build-docs/$module.doccarchive"
done
echo "docs: built and checked in $((SECONDS - started)) s"
