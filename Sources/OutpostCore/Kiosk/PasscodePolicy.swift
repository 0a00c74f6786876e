/// A rule a kiosk exit passcode must satisfy; the raw value is the API's rule name.
public enum PasscodeRule: String, Sendable, CaseIterable, Codable {
    /// Exactly six ASCII digits.
    case sixDigits = "six_digits"
    /// Not one digit repeated (`111111`).
    case notAllSame = "not_all_same"
    /// Not an ascending or descending run (`123456`, `654321`, `345678`, ...).
    case notSequential = "not_sequential"
    /// Not on the list of commonly chosen PINs.
    case notCommon = "not_common"

    /// The rule in words, for staff setting up a kiosk.
    public var explanation: String {
        switch self {
        case .sixDigits: "The passcode must be exactly six digits."
        case .notAllSame: "The passcode must not repeat one digit (like 111111)."
        case .notSequential: "The passcode must not be a run of digits (like 123456 or 654321)."
        case .notCommon: "The passcode is one of the most commonly chosen PINs; pick another."
        }
    }
}

/// Decides whether a kiosk passcode is acceptable, naming every rule it breaks.
public enum PasscodePolicy {
    /// Commonly chosen PINs, from published PIN-frequency studies (six-digit and padded four-digit).
    public static let commonPasscodes: Set<String> = [
        "000000", "111111", "222222", "333333", "444444", "555555", "666666", "777777", "888888",
        "999999", "123456", "654321", "123123", "112233", "121212", "123321", "131313", "147258",
        "159753", "159357", "101010", "102030", "110110", "123654", "147852", "142536", "147369",
        "202020", "212121", "232323", "252525", "246810", "135790", "420420", "520520", "666999",
        "696969", "741852", "789456", "852456", "963852", "987654", "100200", "007007", "090909",
        "001234", "012345", "111222", "121314", "123412", "123451", "159951", "198700", "199000",
        "200000", "456123", "456789", "789789", "998877", "332211",
    ]

    /// Every rule the passcode breaks, in ``PasscodeRule`` order; empty when it is acceptable.
    public static func brokenRules(_ passcode: String) -> [PasscodeRule] {
        var broken: [PasscodeRule] = []
        let digits = passcode.unicodeScalars.compactMap { scalar -> Int? in
            guard scalar.isASCII, let value = Int(String(scalar)) else { return nil }
            return value
        }
        let allDigits = digits.count == passcode.unicodeScalars.count
        if !(allDigits && digits.count == 6) { broken.append(.sixDigits) }
        if allDigits, digits.count > 1 {
            if Set(digits).count == 1 { broken.append(.notAllSame) }
            let steps = zip(digits, digits.dropFirst()).map { $1 - $0 }
            if steps.allSatisfy({ $0 == 1 }) || steps.allSatisfy({ $0 == -1 }) {
                broken.append(.notSequential)
            }
        }
        if commonPasscodes.contains(passcode) || commonFourDigit.contains(passcode) {
            broken.append(.notCommon)
        }
        return broken
    }

    /// Four-digit PINs staff often type by habit; they also break `six_digits`.
    static let commonFourDigit: Set<String> = [
        "1234", "1111", "0000", "1212", "7777", "1004", "2000", "4444", "2222", "6969", "9999",
        "3333", "5555", "6666", "1122", "1313", "8888", "4321", "2001", "1010",
    ]
}
