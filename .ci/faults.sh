#!/usr/bin/env bash
# Measures the conformance suite's strength (Spec/conformance.md §9): runs the suite once per
# deliberate fault of our driver (conformance-driver --fault NAME) and fails when a fault goes
# unnoticed, or when a fault has no selection below (so a new fault cannot be forgotten).
# Each fault runs only the cases of its rule class, on one backend, to stay fast.
# Usage: .ci/faults.sh [BIN_DIR]   (default: swift build --show-bin-path)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-$(swift build --show-bin-path)}"

declare -A selection=(
    [wrong-adler32]="--filter png/encode/"
    [trns-key-unmasked]="--filter png/decode/trns"
    [ancillary-crc-unchecked]="--filter png/error/crc-mismatch"
    [data-after-iend-rejected]="--filter png/decode/data-after"
    [distance-too-far-zero-filled]="--filter png/error/deflate-distance"
    [file-header-checksum-unchecked]="--filter store/corrupt/"
    [records-for-absent-keys]="--filter store/write/"
    [torn-tail-kept]="--filter store/torn/"
    [middle-damage-cut]="--filter store/corrupt/middle"
    [ignore-crc-errors]="--filter store/corrupt/"
    [snapshot-generation-unchecked]="--filter store/snapshot/"
    [keep-removed-key-after-compaction]="--filter store/write/ --filter cache/persist/compact --backend log"
    [compaction-keeps-expired]="--filter store/compact/"
    [skip-expiry-extension]="--filter cache/expiry/ --backend log"
    [expired-only-after-expiry]="--filter cache/expiry/ --backend dictionary"
    [miss-takes-a-sequence]="--filter cache/counter/ --backend directory"
    [evict-wrong-entry]="--filter cache/evict/ --backend hybrid"
    [evict-at-the-limit]="--filter cache/evict/ --backend log"
    [corrupt-entry-as-miss]="--filter cache/corrupt/ --backend dictionary"
    [dictionary-records-reversed]="--filter cache/files/ --backend dictionary"
    [directory-index-checksum-zeroed]="--filter cache/files/ --backend directory"
    [log-snapshot-missing]="--filter cache/files/ --backend log"
    [hybrid-never-external]="--filter cache/files/ --backend hybrid"
    [no-folder-lock]="--filter cache/lifecycle/ --backend log"
    [read-only-stores]="--filter cache/lifecycle/ --backend directory"
    [variants-counted]="--filter cache/variants/ --backend dictionary"
    [stale-variant-after-store]="--filter cache/variants/ --backend directory"
    [variant-hits-twice]="--filter cache/variants/ --backend log"
    [purge-counts-variants]="--filter cache/variants/ --backend hybrid"
)

uncaught=0
count=0
for fault in $("$bin/conformance-driver" --list-faults); do
    count=$((count + 1))
    if [[ -z "${selection[$fault]:-}" ]]; then
        echo "FAIL $fault: no selection in .ci/faults.sh; add the cases that must catch it"
        uncaught=$((uncaught + 1))
        continue
    fi
    # shellcheck disable=SC2086
    if output="$("$bin/conformance" ${selection[$fault]} -- "$bin/conformance-driver" --fault "$fault" 2>&1)"; then
        echo "FAIL $fault: every selected case passed (${selection[$fault]}); the suite does not catch it"
        uncaught=$((uncaught + 1))
    else
        failing="$(grep -c '^FAIL ' <<<"$output" || true)"
        first="$(grep -m1 '^FAIL ' <<<"$output" | cut -c6- || true)"
        if [[ "$failing" -eq 0 ]]; then
            echo "FAIL $fault: the run failed without a failing case:"
            tail -5 <<<"$output"
            uncaught=$((uncaught + 1))
        else
            echo "ok   $fault: caught by $failing cases (first: $first)"
        fi
    fi
done
echo "$((count - uncaught)) passed, $uncaught failed"
[[ "$uncaught" -eq 0 ]]
