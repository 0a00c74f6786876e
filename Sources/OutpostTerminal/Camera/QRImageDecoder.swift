import CPNG
import CTurboJPEG
import CZbar
import Foundation

/// The camera stand-in on Linux: finds QR codes in a photo (PNG or JPEG) with zbar, the way
/// the phone camera would, so a decoded ticket takes the same path as a scanned one.
public enum QRImageDecoder {
    /// Why no text came out of an image.
    public enum DecodeError: Error, Equatable, CustomStringConvertible {
        case unreadable(String)
        case unsupportedFormat
        case noCode

        public var description: String {
            switch self {
            case .unreadable(let path): "\(path) could not be read."
            case .unsupportedFormat: "The image is not a PNG or JPEG file."
            case .noCode: "No QR code was found in the image; hold the ticket flat, well lit and in focus."
            }
        }
    }

    /// Every QR code's text in the image at `path`, in zbar's order.
    public static func decode(path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { throw DecodeError.unreadable(path) }
        let (pixels, width, height) = try grayscale(Array(data))
        return try scan(pixels: pixels, width: width, height: height)
    }

    /// 8-bit grayscale pixels of a PNG (libpng) or JPEG (libjpeg-turbo).
    static func grayscale(_ bytes: [UInt8]) throws -> (pixels: [UInt8], width: Int, height: Int) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try png(bytes) }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return try jpeg(bytes) }
        throw DecodeError.unsupportedFormat
    }

    static func png(_ bytes: [UInt8]) throws -> (pixels: [UInt8], width: Int, height: Int) {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let began = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else { throw DecodeError.unreadable("the PNG data") }
        image.format = UInt32(PNG_FORMAT_GRAY)
        let width = Int(image.width)
        let height = Int(image.height)
        var pixels = [UInt8](repeating: 0, count: width * height)
        let finished = pixels.withUnsafeMutableBytes {
            png_image_finish_read(&image, nil, $0.baseAddress, Int32(width), nil)
        }
        png_image_free(&image)
        guard finished != 0 else { throw DecodeError.unreadable("the PNG data") }
        return (pixels, width, height)
    }

    static func jpeg(_ bytes: [UInt8]) throws -> (pixels: [UInt8], width: Int, height: Int) {
        guard let handle = tjInitDecompress() else { throw DecodeError.unreadable("the JPEG data") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        var source = bytes
        let header = tjDecompressHeader3(handle, &source, UInt(bytes.count), &width, &height, &subsampling, &colorspace)
        guard header == 0, width > 0, height > 0 else { throw DecodeError.unreadable("the JPEG data") }
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height))
        let status = tjDecompress2(
            handle, &source, UInt(bytes.count), &pixels, width, width, height, Int32(TJPF_GRAY.rawValue), 0)
        guard status == 0 else { throw DecodeError.unreadable("the JPEG data") }
        return (pixels, Int(width), Int(height))
    }

    /// Runs zbar's QR reader over grayscale pixels.
    static func scan(pixels: [UInt8], width: Int, height: Int) throws -> [String] {
        guard let scanner = zbar_image_scanner_create() else { throw DecodeError.noCode }
        defer { zbar_image_scanner_destroy(scanner) }
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
        guard let image = zbar_image_create() else { throw DecodeError.noCode }
        defer { zbar_image_destroy(image) }
        zbar_image_set_format(image, 0x3030_3859)  // fourcc "Y800" (little-endian): 8-bit grayscale
        zbar_image_set_size(image, UInt32(width), UInt32(height))
        var texts: [String] = []
        pixels.withUnsafeBytes { buffer in
            zbar_image_set_data(image, buffer.baseAddress, UInt(buffer.count), nil)
            guard zbar_scan_image(scanner, image) > 0 else { return }
            var symbol = zbar_image_first_symbol(image)
            while let current = symbol {
                if let data = zbar_symbol_get_data(current) { texts.append(String(cString: data)) }
                symbol = zbar_symbol_next(current)
            }
            zbar_image_set_data(image, nil, 0, nil)
        }
        guard !texts.isEmpty else { throw DecodeError.noCode }
        return texts
    }
}
