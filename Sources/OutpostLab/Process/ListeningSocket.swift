import Foundation

/// Whether a child process (not merely some process) listens on a loopback TCP port: a
/// connect that succeeds can reach whatever else took the port first.
package enum ListeningSocket {
    /// True when `pid` holds a socket listening on 127.0.0.1:`port` (Linux: the socket's inode in
    /// `/proc/net/tcp` among the process's descriptors; elsewhere: the port accepts connections).
    package static func isHeld(port: Int, by pid: Int32) -> Bool {
        #if os(Linux)
        let inodes = listeningInodes(port: port)
        guard !inodes.isEmpty else { return false }
        let descriptors = "/proc/\(pid)/fd"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\(name)")
            else { continue }
            if target.hasPrefix("socket:["), inodes.contains(String(target.dropFirst(8).dropLast())) { return true }
        }
        return false
        #else
        return accepts(port: port)
        #endif
    }

    /// The inodes of sockets in state LISTEN (0A) on 127.0.0.1:`port`, from `/proc/net/tcp`.
    package static func listeningInodes(port: Int, table: String? = nil) -> Set<String> {
        let text = table ?? procTable()
        let local = "0100007F:" + String(format: "%04X", port)
        var inodes: Set<String> = []
        // Columns: sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
        for line in text.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            guard columns.count > 9, columns[1] == local, columns[3] == "0A" else { continue }
            inodes.insert(String(columns[9]))
        }
        return inodes
    }

    /// `/proc/net/tcp` read to its end. `String(contentsOfFile:)` stops after the first page
    /// (4,050 bytes, about 27 sockets) of a proc file: with more sockets open (a loaded test run)
    /// the sink's own listener was past it, and a sink that was listening "did not start".
    static func procTable() -> String {
        guard let handle = FileHandle(forReadingAtPath: "/proc/net/tcp") else { return "" }
        defer { try? handle.close() }
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
