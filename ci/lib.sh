# Shared settings and helpers for the ci/ scripts. Source it; don't run it.
#
# Every script builds through `courier_swift_build` and friends below, so the root package is compiled
# once per checkout with one set of flags, and `ci/test`, `ci/demo` and `ci/check-linkage` reuse it.

set -euo pipefail

COURIER_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export COURIER_ROOT

# The toolchain lives at /opt/swift on the project machines; a login shell may not have it on PATH.
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

# One build configuration for everything: same scratch path, same flags, debug.
# -warnings-as-errors and -require-explicit-sendable are passed here, never as unsafeFlags in
# Package.swift, so that packages depending on Courier are not rejected by SwiftPM.
COURIER_BUILD_DIR="$COURIER_ROOT/.build"
COURIER_SWIFT_FLAGS=(-Xswiftc -warnings-as-errors -Xswiftc -require-explicit-sendable)
COURIER_BUILD_ARGS=(--package-path "$COURIER_ROOT" --scratch-path "$COURIER_BUILD_DIR" -c debug "${COURIER_SWIFT_FLAGS[@]}")

# Server state (certificates, configs, logs, PIDs, the env file) and the Python tools' venv.
COURIER_STATE="${COURIER_STATE:-$COURIER_BUILD_DIR/ci-state}"
COURIER_VENV="${COURIER_VENV:-$COURIER_BUILD_DIR/venv}"
export COURIER_STATE COURIER_VENV

# Debian's interpreter makes the venv: it has the venv module from python3-venv and does not move
# when pyenv switches versions.
COURIER_SYSTEM_PYTHON=/usr/bin/python3

courier_log() {
    printf '[ci %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2
}

courier_die() {
    courier_log "error: $*"
    exit 1
}

# Seconds since the epoch with millisecond precision, for step timings.
courier_now() {
    date +%s.%N
}

# courier_elapsed START -> "12.3s"
courier_elapsed() {
    awk -v start="$1" -v end="$(courier_now)" 'BEGIN { printf "%.1fs", end - start }'
}

courier_swift_build() {
    swift build "${COURIER_BUILD_ARGS[@]}" "$@"
}

# Runs the already-built tests: `--skip-build` guarantees nothing is recompiled with other flags.
courier_swift_test() {
    swift test --skip-build "${COURIER_BUILD_ARGS[@]}" "$@"
}

# The benchmarks are a nested package: ci/bench builds it in release; ci/test compiles it in debug,
# with the flags above and a scratch path of its own under .build (nothing is run), so that an API
# change that breaks CourierBench fails CI instead of the next ci/bench.
COURIER_BENCH_PACKAGE="$COURIER_ROOT/Integration/Benchmarks"

courier_bench_build() {
    swift build --package-path "$COURIER_BENCH_PACKAGE" --scratch-path "$COURIER_BUILD_DIR/benchmarks" -c debug \
        "${COURIER_SWIFT_FLAGS[@]}" "$@"
}

courier_bin_dir() {
    swift build "${COURIER_BUILD_ARGS[@]}" --show-bin-path
}
