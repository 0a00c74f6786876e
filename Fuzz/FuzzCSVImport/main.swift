import Foundation
import OutpostCore
import OutpostProtocol

@testable import OutpostServer

/// libFuzzer entry: any bytes as an uploaded guest CSV, streamed as the route reads an upload
/// (``CSVStreamReader``) in pieces whose size the first byte picks, so cuts fall everywhere. The
/// importer must answer with a plan (guests plus per-line errors) or a clean API error, never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVImport(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: count)
    let pieceSize = 1 + Int(bytes.first ?? 0)
    _ = try? GuestImport.plan(csv: bytes, accessTypes: FuzzCSVImport.accessTypes, pieceSize: pieceSize)
    return 0
}

enum FuzzCSVImport {
    static let accessTypes = [
        AccessTypeInfo(
            id: AccessTypeID(wire: "5c3d1e2f-0a1b-4c2d-8e3f-405162738495")!, name: "General", walkInAllowed: true),
        AccessTypeInfo(
            id: AccessTypeID(wire: "6d4e2f30-1b2c-4d3e-9f40-516273849506")!, name: "VIP Ø", walkInAllowed: false),
    ]
}
