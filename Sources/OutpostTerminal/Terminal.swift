import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The controlling terminal in raw mode on the alternate screen. Whatever ends the process —
/// a normal exit, Ctrl-C, SIGTERM, a crash signal — the original mode is restored, so the shell
/// is never left raw.
public final class Terminal: @unchecked Sendable {
    public private(set) var size: (rows: Int, columns: Int) = (24, 80)
    private let input: Int32 = STDIN_FILENO
    private var active = false

    /// The mode to restore; global so signal handlers (which may not capture) can reach it.
    nonisolated(unsafe) static var savedMode = termios()
    nonisolated(unsafe) static var hasSavedMode = false

    public init() {}

    /// Whether standard input is a terminal at all.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Enters raw mode and the alternate screen, and arranges the restore on every exit path.
    ///
    /// `signalKeys: false` (kiosk mode) turns the terminal's signal keys off: Ctrl-C, Ctrl-\ and
    /// Ctrl-Z arrive as ordinary bytes instead of interrupting, quitting or suspending, and the
    /// interrupt and job-control signals are ignored, so an attendee cannot leave the program for
    /// the shell of a signed-in device. SIGTERM and SIGHUP (the operator's side, a closed
    /// terminal) still restore the terminal and end it.
    public func start(signalKeys: Bool = true) {
        guard !active, Self.isInteractive else { return }
        var mode = termios()
        tcgetattr(input, &mode)
        Self.savedMode = mode
        Self.hasSavedMode = true
        var raw = mode
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
        if !signalKeys {
            raw.c_lflag &= ~tcflag_t(ISIG)
            for ignored in [SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU] { Glibc.signal(ignored, SIG_IGN) }
        }
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        raw.c_oflag |= tcflag_t(OPOST)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 0
            bytes[Int(VTIME)] = 1  // reads return after 100 ms without input
        }
        tcsetattr(input, TCSAFLUSH, &raw)
        atexit { Terminal.restoreNow() }
        let restoring =
            [SIGTERM, SIGHUP, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP]
            + (signalKeys ? [SIGINT, SIGQUIT] : [])
        for signal in restoring {
            Glibc.signal(signal) { received in
                Terminal.restoreNow()
                Glibc.signal(received, SIG_DFL)
                raise(received)
            }
        }
        Self.write("\u{1B}[?1049h\u{1B}[?25l")
        active = true
        refreshSize()
    }

    /// Leaves raw mode and the alternate screen.
    public func stop() {
        guard active else { return }
        Self.restoreNow()
        active = false
    }

    /// Async-signal-safe restore: tcsetattr and write only.
    static func restoreNow() {
        guard hasSavedMode else { return }
        var mode = savedMode
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &mode)
        let reset = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
        _ = reset.withCString { Glibc.write(STDOUT_FILENO, $0, strlen($0)) }
        hasSavedMode = false
    }

    /// Reads the window size (call on SIGWINCH or before each frame).
    @discardableResult
    public func refreshSize() -> (rows: Int, columns: Int) {
        var window = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 {
            size = (Int(window.ws_row), Int(window.ws_col))
        }
        return size
    }

    /// Bytes typed (or sent by a keyboard-wedge scanner) since the last read; empty after 100 ms.
    public func readAvailable() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer[0..<count]) : []
    }

    /// Draws a whole frame: home, each line cleared to its end, the rest of the screen cleared.
    public func draw(_ lines: [String]) {
        var frame = "\u{1B}[H"
        for (index, line) in lines.prefix(size.rows).enumerated() {
            frame += line + "\u{1B}[K"
            if index < min(lines.count, size.rows) - 1 { frame += "\r\n" }
        }
        frame += "\u{1B}[J"
        Self.write(frame)
    }

    public func bell(times: Int = 1) {
        Self.write(String(repeating: "\u{07}", count: max(0, times)))
    }

    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
