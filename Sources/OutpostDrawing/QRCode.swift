import CQRencode
import CZlib
import Foundation

/// A QR code symbol rendered by libqrencode, with SVG and PNG output.
public struct QRCode: Sendable {
    /// Modules per side, without the quiet zone.
    public let size: Int
    /// Row-major; true is a dark module.
    public let modules: [Bool]

    public static let quietZone = 4

    /// Encodes text at error-correction level M, letting libqrencode pick the densest modes
    /// (alphanumeric for a ticket). Nil only when the text cannot fit any QR version.
    public init?(text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        modules = data.map { $0 & 1 == 1 }
    }

    /// Lines for a terminal: two module rows per line with half blocks, black on white with the
    /// quiet zone, so a phone or scanner can read it off the screen.
    public func terminalLines() -> [String] {
        let quiet = 4
        let span = -quiet..<(size + quiet)
        var lines: [String] = []
        for y in stride(from: -quiet, to: size + quiet, by: 2) {
            var line = "\u{1B}[30;107m"
            for x in span {
                switch (isDark(x, y), isDark(x, y + 1)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line + "\u{1B}[0m")
        }
        return lines
    }

    /// The QR version libqrencode chose.
    public var version: Int { (size - 17) / 4 }

    public func isDark(_ x: Int, _ y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// An SVG drawing with one path for all dark modules, crisp at any scale.
    public func svg(moduleSize: Int = 8) -> String {
        let total = (size + 2 * Self.quietZone) * moduleSize
        var path = ""
        for y in 0..<size {
            for x in 0..<size where isDark(x, y) {
                path += "M\(x + Self.quietZone) \(y + Self.quietZone)h1v1h-1z"
            }
        }
        let view = size + 2 * Self.quietZone
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(total)" height="\(total)" viewBox="0 0 \(view) \(view)" shape-rendering="crispEdges">\
            <rect width="100%" height="100%" fill="#fff"/><path fill="#000" d="\(path)"/></svg>

            """
    }

    /// A 1-bit grayscale PNG; the image data is deflated by zlib and every chunk checksummed
    /// with zlib's CRC-32.
    public func png(moduleSize: Int = 8) -> [UInt8] {
        let side = (size + 2 * Self.quietZone) * moduleSize
        let rowBytes = (side + 7) / 8
        var raw: [UInt8] = []
        raw.reserveCapacity((rowBytes + 1) * side)
        for py in 0..<side {
            raw.append(0)  // filter: none
            var row = [UInt8](repeating: 0xFF, count: rowBytes)
            let y = py / moduleSize - Self.quietZone
            for px in 0..<side where isDark(px / moduleSize - Self.quietZone, y) {
                row[px / 8] &= ~(0x80 >> UInt8(px % 8))
            }
            raw += row
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        Self.appendBigEndian(UInt32(side), to: &header)
        Self.appendBigEndian(UInt32(side), to: &header)
        header += [1, 0, 0, 0, 0]  // bit depth 1, grayscale, deflate, adaptive filtering, no interlace
        Self.appendChunk("IHDR", header, to: &png)
        Self.appendChunk("IDAT", Self.deflate(raw), to: &png)
        Self.appendChunk("IEND", [], to: &png)
        return png
    }

    private static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &length, input.baseAddress, uLong(bytes.count), Z_BEST_COMPRESSION)
            }
        }
        precondition(status == Z_OK, "zlib compress2 failed with \(status) on a buffer sized by compressBound")
        return Array(output.prefix(Int(length)))
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let typed = Array(type.utf8) + data
        png += typed
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        appendBigEndian(UInt32(crc), to: &png)
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
