import Foundation
import OutpostProtocol

/// libFuzzer entry: any bytes as the JSON body of every request the server decodes. Each decoder
/// must answer with a value or a DecodingError, never trap (the dates go through OutpostJSON's
/// own RFC 3339 parser).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestBodies(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let body = Data(UnsafeBufferPointer(start: data, count: count))
    _ = try? OutpostJSON.decode(SignInRequest.self, from: body)
    _ = try? OutpostJSON.decode(RefreshRequest.self, from: body)
    _ = try? OutpostJSON.decode(CheckInRequest.self, from: body)
    _ = try? OutpostJSON.decode(CreateEventRequest.self, from: body)
    _ = try? OutpostJSON.decode(CreateAccessTypeRequest.self, from: body)
    _ = try? OutpostJSON.decode(CreateGuestRequest.self, from: body)
    _ = try? OutpostJSON.decode(UpdateGuestRequest.self, from: body)
    _ = try? OutpostJSON.decode(CreateUserRequest.self, from: body)
    _ = try? OutpostJSON.decode(KioskSetupRequest.self, from: body)
    return 0
}
