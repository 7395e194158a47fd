#!/usr/bin/env bash
# Fuzz every target in fuzz/ for SECONDS_PER_TARGET seconds (default 60), one after another,
# and fail if any of them crashes (a panic, a failed assertion, a timeout, an out-of-memory).
#
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET]
#
# Needs the nightly toolchain (`rustup toolchain install nightly`); installs cargo-fuzz when it
# is missing. Builds go to a target dir under ~/.cache, not inside the clone, and so does the
# corpus the fuzzer grows (the committed seeds in fuzz/corpus/ are only read).
# Environment: KAIROS_FUZZ_DIR (default ~/.cache/kairos-fuzz) holds target/, corpus/ and
# artifacts/; KAIROS_FUZZ_TARGETS (default: all) is a space-separated list of targets.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "usage: bash scripts/fuzz.sh [SECONDS_PER_TARGET]" >&2
    exit 2
fi
work="${KAIROS_FUZZ_DIR:-$HOME/.cache/kairos-fuzz}"
read -r -a targets <<<"${KAIROS_FUZZ_TARGETS:-job_document lenient_json api_dispatch}"

# cargo-fuzz wants a nightly compiler. Where only stable is installed, stable with
# RUSTC_BOOTSTRAP=1 accepts the same flags.
if cargo +nightly --version >/dev/null 2>&1; then
    toolchain=+nightly
else
    echo "== no nightly toolchain: using stable with RUSTC_BOOTSTRAP=1"
    toolchain=+stable
    export RUSTC_BOOTSTRAP=1
fi
if ! cargo "$toolchain" fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi

# No sanitizer: every crate of ours forbids unsafe code, so a sanitizer would mostly slow the
# search down; the build keeps debug assertions and overflow checks (cargo-fuzz's default).
build=(-s none --target-dir "$work/target")

echo "== building the fuzz targets"
for target in "${targets[@]}"; do
    cargo "$toolchain" fuzz build "${build[@]}" "$target"
done

failed=()
summary=()
for target in "${targets[@]}"; do
    corpus="$work/corpus/$target"
    artifacts="$work/artifacts/$target/"
    log="$work/logs/$target.log"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    echo "== fuzzing $target for ${seconds}s"
    status=0
    # New inputs go to the first corpus directory (under ~/.cache); the seeds are read only.
    cargo "$toolchain" fuzz run "${build[@]}" "$target" "$corpus" "fuzz/corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts" -print_final_stats=1 >"$log" 2>&1 || status=$?
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -n 1)
    runs="${runs:-$(grep -Eo 'Done [0-9]+ runs' "$log" | grep -Eo '[0-9]+' | tail -n 1)}"
    line=$(printf '%-14s %12s executions in %ss' "$target" "${runs:-?}" "$seconds")
    if [ "$status" -ne 0 ]; then
        failed+=("$target")
        line="$line  CRASH (exit $status)"
        echo "!! $target failed; the end of its log ($log):" >&2
        tail -n 40 "$log" >&2
        echo "!! reproduce with: cargo +nightly fuzz run -s none $target <artifact from $artifacts>" >&2
    fi
    echo "$line"
    summary+=("$line")
done

echo "== fuzzing summary"
printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -ne 0 ]; then
    echo "fuzzing found crashes in: ${failed[*]}" >&2
    exit 1
fi
