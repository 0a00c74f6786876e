# Sourced by the scripts that build or run `outpost` for the tests and the demo (scripts/test,
# scripts/demo, scripts/soak, scripts/tmux-e2e, scripts/console-e2e, scripts/api-fuzz,
# scripts/trace-library): the one build they share, so that a test run compiles the project once.
# It is the debug build: from nothing it takes about 7 minutes on 2 cores where a release build
# with testing enabled took 13 (784 s against 345-415 s on the same machine, 2026-11-26), and that
# difference alone would spend half of the test command's 20-minute budget. `outpost bench --check`
# compares the debug build with its own baselines. scripts/bench, which measures speed, builds
# release on its own.
build_flags=()

# The modules a build log compiled (a plugin script compiling into its cache does not count), on
# one line: how scripts/test and scripts/fresh-machine-check see a second build.
compiled_modules() {
    grep -E '^\[[0-9]+/[0-9]+\] Compiling ' "$1" | grep -v ' Compiling plugin ' | awk '{print $3}' |
        sort -u | tr '\n' ' ' || true
}

# The path of the shared build's `outpost`.
outpost_binary() { printf '%s/outpost\n' "$(swift build "${build_flags[@]}" --show-bin-path)"; }
