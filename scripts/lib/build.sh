# Sourced by the scripts that build or run `outpost` for the tests and the demo (scripts/test,
# scripts/demo, scripts/soak, scripts/tmux-e2e, scripts/console-e2e, scripts/api-fuzz,
# scripts/trace-library): the one build they share, so that a test run compiles the project once.
# It is the debug build: from nothing it takes about 7 minutes on 2 cores where a release build
# with testing enabled took 13 (784 s against 345-415 s on the same machine, 2026-11-26), and that
# difference alone would spend half of the test command's 20-minute budget. `outpost bench --check`
# compares the debug build with its own baselines. scripts/bench, which measures speed, builds
# release on its own.
# The index store stays on although only editors and test discovery read it: without it a build
# from nothing was 5-13 % faster (PostgresNIO alone 253 s against 239 s, 2026-11-27), but
# `--build-tests` then fails on Linux, whose test discovery reads the index ("index store path
# does not exist"), even with every test a Swift Testing one.
#
# Debug information is line tables only, in Swift and in C (`-gline-tables-only`, `-g0`): full
# debug information serves a debugger, which no script runs; a failed expectation names its file
# and line through Swift Testing's macros, and a crash's backtrace still has file and line from
# the tables. The full build from nothing, the same tree on one machine one after the other
# (2026-11-28): 418 s wall and 728 s of CPU against 449 s and 775 s, about 7 % of the test
# command's largest step. OUTPOST_FULL_DEBUG_INFO=1 keeps full debug information (for lldb; a build of its
# own, as every flag change compiles every module again).
if [ "${OUTPOST_FULL_DEBUG_INFO:-0}" = 1 ]; then
    build_flags=()
else
    build_flags=(-Xswiftc -gline-tables-only -Xcc -g0)
fi

# The modules a build log compiled (a plugin script compiling into its cache does not count), on
# one line: how scripts/test and scripts/fresh-machine-check see a second build.
compiled_modules() {
    grep -E '^\[[0-9]+/[0-9]+\] Compiling ' "$1" | grep -v ' Compiling plugin ' | awk '{print $3}' |
        sort -u | tr '\n' ' ' || true
}

# The N slowest tests of a swift test log, for scripts/test's summary: Swift Testing's "✔ Test X
# passed after N seconds" (and failed ones), slowest first. Tests run in parallel, so a test's time
# includes waiting for the cores and, for the device's tests, for the main actor they share. The
# first N lines are taken by awk, which reads to the end: `head` would close the pipe early, and
# sort's SIGPIPE (exit 141) under pipefail ended a CI run that had passed (test-summary-long-log).
slowest_tests() {
    grep -vE '[✔✘] Test run with ' "$1" |
        sed -nE 's/^.*[✔✘] Test (.*) (passed|failed) after ([0-9.]+) seconds.*$/\3 \1/p' |
        sort -rn | awk -v n="${2:-20}" 'NR <= n'
}

# The path of the shared build's `outpost`.
outpost_binary() { printf '%s/outpost\n' "$(swift build "${build_flags[@]}" --show-bin-path)"; }
