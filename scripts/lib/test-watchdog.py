#!/usr/bin/env python3
"""The test run's watchdog: a broken test fails, it never hangs the run.

Usage: test-watchdog.py [--limit SECONDS] [--quiet-limit SECONDS] [--grace SECONDS] -- COMMAND [ARGS...]

Runs COMMAND (scripts/test gives it `swift test`) in a process group of its own, passes its
output through line by line, and reads Swift Testing's progress lines from it:
"◇ Test NAME started." opens a test; "✔ Test NAME passed ...", "✘ Test NAME failed ..." and
"➜ Test NAME skipped ..." close it. When a test has been open longer than --limit, or nothing
was printed for --quiet-limit while no test was open (a hang before the first test or after the
last), the watchdog names what was running, kills the whole process group (SIGTERM, then SIGKILL
after --grace, 5 s unless given, since a hung test process can ignore SIGTERM), and exits 124. Otherwise it
exits with COMMAND's status. Swift Testing's own `.timeLimit` only cancels a test's task; a test
blocked where cancellation cannot reach it (a stream read to its end, a blocking call) would still
hold the run, which is what this is for. The command runs under `stdbuf -oL -eL`, so its lines
arrive as they are written (through a pipe, a test process would otherwise buffer them).

`test-watchdog.py --self-test [-- SWIFT-TEST-COMMAND...]` checks the watchdog itself: against fake
test runs (one hangs in a test and ignores SIGTERM, one ends, one hangs before any test; 4 s), and,
when a command is given, against that real `swift test` run of the watchdog-hang-probe test
(Tests/OutpostCoreTests/WatchdogProbeTests.swift, enabled by OUTPOST_WATCHDOG_PROBE=1), which must be
named and killed within a limit of 10 s: that also proves the watchdog still reads the output of the
Swift Testing this toolchain has.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

STARTED = re.compile(r"◇ Test (.+) started\.\s*$")
ENDED = re.compile(r"[✔✘➜] Test (.+)$")


def log(message):
    sys.stderr.write(f"test-watchdog: {message}\n")
    sys.stderr.flush()


class Run:
    """The open tests and the time of the last output line, shared by the reader and the clock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.open = {}  # name -> monotonic start
        self.last_output = time.monotonic()

    def line(self, text):
        now = time.monotonic()
        with self.lock:
            self.last_output = now
            started = STARTED.search(text)
            if started:
                self.open[started.group(1)] = now
                return
            ended = ENDED.search(text)
            if ended:
                rest = ended.group(1)
                # The end line is the name followed by " passed …", " failed …", " skipped …" or
                # " with N test cases …": the longest open name it starts with is the one ending.
                for name in sorted(self.open, key=len, reverse=True):
                    if rest.startswith(name + " ") or rest == name:
                        del self.open[name]
                        break

    def overdue(self, limit, quiet_limit):
        """What to kill the run for, or None."""
        now = time.monotonic()
        with self.lock:
            late = sorted(((now - start, name) for name, start in self.open.items() if now - start > limit),
                          reverse=True)
            if late:
                lines = [f"Test {name} has run {seconds:.0f} s, over the limit of {limit:.0f} s"
                         for seconds, name in late]
                others = [f"  also running: Test {name} ({now - start:.0f} s)"
                          for name, start in self.open.items() if now - start <= limit]
                return "\n".join(lines + others)
            if not self.open and now - self.last_output > quiet_limit:
                return f"no test is running and nothing was printed for {quiet_limit:.0f} s"
        return None


def descendants(pid):
    """Every process below `pid`, from /proc's parent links. `swift test` starts the test binary
    in a process group of its own, so killing the run's group alone left the hung binary running
    after the watchdog had reported it killed (seen 25 minutes later, after a clean clone's run)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                # The command may hold spaces and parentheses: the fields start after the last ")".
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def signal_all(process, pids, number):
    """`number` to the run's group and to each of `pids` (and their groups)."""
    for target in [process.pid] + pids:
        for send in (os.killpg, os.kill):
            try:
                send(target, number)
            except (ProcessLookupError, PermissionError):
                pass


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def kill_group(process, grace):
    """SIGTERM to the whole run (its group, and every process below it, whatever group it is in),
    then SIGKILL to whatever of it is left after the grace."""
    # Found before anything is killed: once a parent dies its children belong to init.
    pids = descendants(process.pid)
    signal_all(process, pids, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        process.poll()  # reap the leader, so a zombie does not count as the group alive
        if process.returncode is not None and not any(alive(pid) for pid in pids):
            try:
                os.killpg(process.pid, 0)
            except ProcessLookupError:
                return
        time.sleep(0.1)
    signal_all(process, [pid for pid in pids if alive(pid)], signal.SIGKILL)
    process.wait()


def watch(command, limit, quiet_limit, grace):
    # A test process writing into a pipe buffers its output: a hung test's "started" line would
    # sit in the buffer and the watchdog could not name it. stdbuf makes every process of the run
    # (it is inherited) flush each line.
    if shutil.which("stdbuf"):
        command = ["stdbuf", "-oL", "-eL"] + command
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    run = Run()

    def reader():
        for raw in iter(process.stdout.readline, b""):
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()
            run.line(raw.decode("utf-8", "replace"))

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    # Forward an interrupt to the whole group, so ^C or a CI cancel stops the tests too.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda number, frame: kill_group(process, grace))
    while process.poll() is None:
        time.sleep(1)
        reason = run.overdue(limit, quiet_limit)
        if reason:
            log("KILLED the test run:\n" + reason)
            kill_group(process, grace)
            thread.join(timeout=5)
            log("KILLED the test run:\n" + reason)  # again, last, where CI's tail shows it
            return 124
    thread.join(timeout=30)
    return process.returncode


FAKE_HANG = r"""
trap 'echo "got SIGTERM, ignoring it"' TERM
echo '◇ Test "fast-one: returns" started.'
echo '✔ Test "fast-one: returns" passed after 0.001 seconds.'
echo '◇ Test parameterized(kind:) started.'
echo '✔ Test parameterized(kind:) with 2 test cases passed after 0.2 seconds.'
echo '◇ Test "hangs-forever: waits for a stream that never ends" started.'
echo '◇ Test "slow-but-fine" started.'
while :; do sleep 0.2; done
"""


def probe_running(pid):
    """Whether process `pid` runs the watchdog's hanging probe (its environment says so)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            return b"OUTPOST_WATCHDOG_PROBE=1" in environ.read().split(b"\0") and alive(pid)
    except OSError:
        return False


def real_probe(command):
    """The real `swift test` of the hanging probe, under a 10 s limit."""
    started = time.monotonic()
    environment = dict(os.environ, OUTPOST_WATCHDOG_PROBE="1")
    result = subprocess.run([sys.executable, __file__, "--limit", "10", "--grace", "2", "--"] + command,
                            capture_output=True, text=True, timeout=300, env=environment)
    elapsed = time.monotonic() - started
    named = re.search(r'Test "watchdog-hang-probe: [^"]*" has run (\d+) s, over the limit of 10 s', result.stderr)
    if result.returncode != 124 or not named:
        print(f"test-watchdog self-test FAILED: the real hanging test was not named and killed (exit "
              f"{result.returncode})\n{result.stdout[-3000:]}{result.stderr[-3000:]}", file=sys.stderr)
        return 1
    # The probe's own process (the test binary, which `swift test` starts in a group of its own)
    # must be gone too, not only `swift test`.
    time.sleep(0.5)
    left = [entry for entry in os.listdir("/proc") if entry.isdigit() and probe_running(entry)]
    if left:
        print(f"test-watchdog self-test FAILED: the hanging probe's processes {left} are still running after "
              f"the watchdog reported them killed", file=sys.stderr)
        for pid in left:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        return 1
    print(f"test-watchdog self-test passed: the real swift test's watchdog-hang-probe was named after "
          f"{named.group(1)} s and killed, {elapsed:.0f} s after the run started")
    return 0


def self_test(command):
    """Three fake runs at once: one hangs in a test and ignores SIGTERM, one ends by itself, one
    hangs silently before any test."""
    me = [sys.executable, __file__]

    def start(arguments):
        return subprocess.Popen(me + arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    started = time.monotonic()
    hanging = start(["--limit", "2", "--grace", "1", "--", "bash", "-c", FAKE_HANG])
    ending = start(["--limit", "2", "--", "bash", "-c", "echo fine; exit 3"])
    silent = start(["--limit", "60", "--quiet-limit", "2", "--grace", "1", "--", "sleep", "600"])
    out, err = hanging.communicate(timeout=60)
    elapsed = time.monotonic() - started
    failures = []
    if hanging.returncode != 124:
        failures.append(f"exit {hanging.returncode}, expected 124")
    if 'Test "hangs-forever: waits for a stream that never ends" has run' not in err:
        failures.append("the hanging test is not named")
    if "fast-one" in err or "parameterized" in err:
        failures.append("a finished test is reported as running")
    if elapsed > 2 + 1 + 1 + 5:
        failures.append(f"took {elapsed:.1f} s for a limit of 2 s and a grace of 1 s")
    survivors = subprocess.run(["pgrep", "-f", "hangs-forever: waits"], capture_output=True, text=True).stdout
    if survivors.strip():
        failures.append(f"the hung process survived: {survivors.split()}")
    ending_out, _ = ending.communicate(timeout=60)
    if ending.returncode != 3 or ending_out != "fine\n":
        failures.append(f"a run that ends keeps its status and output: {ending.returncode} {ending_out!r}")
    _, silent_err = silent.communicate(timeout=60)
    if silent.returncode != 124 or "nothing was printed for 2 s" not in silent_err:
        failures.append(f"a silent hang outside any test is not killed: {silent.returncode} {silent_err!r}")
    if failures:
        print("test-watchdog self-test FAILED: " + "; ".join(failures) + "\n" + err, file=sys.stderr)
        return 1
    print(f"test-watchdog self-test passed: the hanging test was named and killed in {elapsed:.1f} s (limit 2 s, "
          f"SIGTERM ignored, grace 1 s); a run that ends keeps its status; a silent hang is killed")
    return real_probe(command) if command else 0


def main(arguments):
    if arguments[:1] == ["--self-test"]:
        return self_test(arguments[2:] if arguments[1:2] == ["--"] else [])
    limit, quiet_limit, grace = 300.0, 600.0, 5.0
    while arguments and arguments[0] != "--":
        flag, value, arguments = arguments[0], arguments[1], arguments[2:]
        if flag == "--limit":
            limit = float(value)
        elif flag == "--quiet-limit":
            quiet_limit = float(value)
        elif flag == "--grace":
            grace = float(value)
        else:
            log(f"unknown flag {flag}")
            return 2
    if not arguments[1:]:
        log("usage: test-watchdog.py [--limit SECONDS] [--quiet-limit SECONDS] [--grace SECONDS] -- COMMAND [ARGS...]")
        return 2
    return watch(arguments[1:], limit, quiet_limit, grace)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
