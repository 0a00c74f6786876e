import OutpostCore

extension CheckInResponse {
    /// The answer exactly as ``OutpostJSON/encode(_:)`` writes it (sorted keys, timestamps to
    /// the millisecond, nothing else escaped), written directly. The server renders one for
    /// every check-in it decides, and building it with `JSONEncoder` was 13 % of the server's
    /// time in a batch; checkin-answer-json holds the two to the same bytes.
    public var json: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(224 + checkIn.byName.utf8.count + checkIn.deviceId.utf8.count)
        out.append(contentsOf: #"{"checkIn":{"at":"#.utf8)
        OutpostJSON.appendString(OutpostJSON.format(checkIn.at), to: &out)
        out.append(contentsOf: #","byName":"#.utf8)
        OutpostJSON.appendString(checkIn.byName, to: &out)
        out.append(contentsOf: #","clientAt":"#.utf8)
        OutpostJSON.appendString(OutpostJSON.format(checkIn.clientAt), to: &out)
        out.append(contentsOf: #","deviceId":"#.utf8)
        OutpostJSON.appendString(checkIn.deviceId, to: &out)
        out.append(contentsOf: #","guestId":"#.utf8)
        OutpostJSON.appendString(checkIn.guestId.wire, to: &out)
        out.append(contentsOf: #","id":"#.utf8)
        OutpostJSON.appendString(checkIn.id.wire, to: &out)
        out.append(contentsOf: #"},"result":"#.utf8)
        OutpostJSON.appendString(result.rawValue, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }
}
