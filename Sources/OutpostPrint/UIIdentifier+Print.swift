import OutpostShell

/// This module's stable test identifiers: seed 000's Print tab.
extension UIIdentifier {
    /// The Print tab: visible only while a printer is paired.
    public static let tabPrint = "native-shell-tab-print"

    // Engine additions (not in the seeds' tables).
    /// On the event shell while a printer is paired: its name and state (ready, out of paper, off).
    public static let printerState = "print-printer-state"
    public static let printScreen = "print-screen"
    /// A printer in reach, to pair.
    public static let printerFound = "print-printer-found"
    /// A badge in the device's queue: the guest, queued/sent/printed/failed, a reprint's reason.
    public static let printJob = "print-job"
    public static let printMessage = "print-message"
}
