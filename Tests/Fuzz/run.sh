#!/usr/bin/env bash
# Compiles a libFuzzer target from the repository's own sources and runs it for a fixed time on
# a scratch copy of its committed corpus (Tests/Fuzz/Corpus/TARGET). Needs only the Swift
# toolchain (swiftc with -sanitize=fuzzer,address, as on Linux).
#
#   Tests/Fuzz/run.sh TARGET SECONDS                  # e.g. Tests/Fuzz/run.sh inflate 60
#   Tests/Fuzz/run.sh all SECONDS                     # every target, SECONDS each
#   Tests/Fuzz/run.sh TARGET SECONDS --update-corpus  # then merge new coverage into the corpus
#
# Exit status: 0 when the run ends with no finding; non-zero on a crash, a sanitizer report
# (including a leak), a timeout of one input (-timeout, 10 s) or an input over the memory cap.
# Findings are left as crash-*/leak-*/timeout-*/oom-* files in the work folder, which is
# printed; replay one with `BINARY FILE`. Set FUZZ_WORK to choose the work folder.
set -euo pipefail
cd "$(dirname "$0")/../.."

# One line per target: name | folders of Sources/ it compiles | its entry file (with
# LLVMFuzzerTestOneInput) and any further files | libFuzzer options. A new target is one more
# line here, its entry file in Tests/Fuzz and its seed corpus in Tests/Fuzz/Corpus/NAME.
# The inflate target runs a few hundred inputs a second (each is checked against the reference
# decoder), too few for libFuzzer to lengthen its inputs past 5 KB within 10 minutes by itself;
# -len_control=0 lets them reach the blocks of 4 KB or more that get a fast table with matches.
targets=(
    "png|Checksums Inflate Platform PNG|Tests/Fuzz/PNGFuzzer.swift|-max_len=65536"
    "inflate|Checksums Inflate|Tests/Fuzz/InflateFuzzer.swift Tests/InflateTests/ReferenceInflater.swift Tests/InflateTests/DeflateWriter.swift|-max_len=65536 -len_control=0"
    "store|Checksums Platform LogStoreKit|Tests/Fuzz/StoreFuzzer.swift|-max_len=16384"
    "backends|Checksums Inflate PNG Platform LogStoreKit ImageCacheKit|Tests/Fuzz/BackendFuzzer.swift|-max_len=16384"
)

usage() {
    echo "usage: $0 TARGET|all SECONDS [--update-corpus]" >&2
    echo "targets: $(for entry in "${targets[@]}"; do printf '%s ' "${entry%%|*}"; done)" >&2
    exit 2
}

[[ $# -ge 2 && $2 =~ ^[0-9]+$ ]] || usage
target=$1
seconds=$2
update=${3:-}
[[ -z $update || $update == --update-corpus ]] || usage

if [[ $target == all ]]; then
    status=0
    for entry in "${targets[@]}"; do
        "$0" "${entry%%|*}" "$seconds" $update || status=$?
    done
    exit $status
fi

entry=""
for candidate in "${targets[@]}"; do
    [[ ${candidate%%|*} == "$target" ]] && entry=$candidate
done
[[ -n $entry ]] || usage
IFS='|' read -r name folders files options <<< "$entry"
corpus="Tests/Fuzz/Corpus/$name"

work=${FUZZ_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/fuzz-$name.XXXXXX")}
mkdir -p "$work/corpus"
sources=()
for folder in $folders; do sources+=(Sources/"$folder"/*.swift); done
# shellcheck disable=SC2206
sources+=($files)

echo "== fuzz $name: compiling into $work/$name-fuzzer"
swiftc -O -sanitize=fuzzer,address -parse-as-library -D IMAGECACHE_SINGLE_MODULE \
    "${sources[@]}" -o "$work/$name-fuzzer"

if compgen -G "$corpus/*" > /dev/null; then cp "$corpus"/* "$work/corpus/"; fi
echo "== fuzz $name: $seconds s on a copy of $corpus ($(ls "$work/corpus" | wc -l) inputs)"
status=0
# shellcheck disable=SC2086
"$work/$name-fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$work/" $options "$work/corpus" || status=$?

if [[ $status -ne 0 ]]; then
    echo "== fuzz $name: FAILED (status $status); findings in $work:" >&2
    ls "$work" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' >&2 || true
    exit $status
fi

if [[ $update == --update-corpus ]]; then
    # Add the inputs of this run that reach coverage the committed corpus does not; the
    # committed inputs stay as they are (libFuzzer's merge keeps what the first folder holds).
    mkdir -p "$work/merged"
    if compgen -G "$corpus/*" > /dev/null; then cp "$corpus"/* "$work/merged/"; fi
    # shellcheck disable=SC2086
    "$work/$name-fuzzer" -merge=1 $options "$work/merged" "$work/corpus"
    for input in "$work/merged"/*; do
        [[ -e $corpus/${input##*/} ]] || cp "$input" "$corpus/"
    done
    echo "== fuzz $name: corpus now $(ls "$corpus" | wc -l) inputs"
fi
echo "== fuzz $name: no finding"
