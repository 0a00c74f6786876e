/// A key press, decoded from terminal bytes.
public enum Key: Sendable, Hashable {
    case character(Character)
    case enter
    case backspace
    case escape
    case tab
    case up
    case down
    case left
    case right
    /// A function key: F1 is 1.
    case function(Int)
    case control(Character)
}

/// Turns raw terminal input into keys. A keyboard-wedge scanner types a whole ticket and Enter
/// within a few milliseconds; it arrives here as ordinary characters.
public enum KeyDecoder {
    public static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        let text = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        while index < text.count {
            let scalar = text[index]
            index += 1
            switch scalar.value {
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x09: keys.append(.tab)
            case 0x1B:
                // ESC [ A.. arrows; ESC O P.. F1-F4; ESC [ n ~ other function keys.
                if index < text.count, text[index] == "[" || text[index] == "O" {
                    let start = index + 1
                    var end = start
                    while end < text.count, !(0x40...0x7E).contains(text[end].value) { end += 1 }
                    guard end < text.count else {
                        keys.append(.escape)
                        continue
                    }
                    let final = text[end]
                    let parameter = String(String.UnicodeScalarView(text[start..<end]))
                    index = end + 1
                    switch final {
                    case "A": keys.append(.up)
                    case "B": keys.append(.down)
                    case "C": keys.append(.right)
                    case "D": keys.append(.left)
                    case "P", "Q", "R", "S": keys.append(.function(Int(final.value - 0x50) + 1))
                    case "~":
                        let numbers = [15: 5, 17: 6, 18: 7, 19: 8, 20: 9, 21: 10, 23: 11, 24: 12]
                        if let code = Int(parameter), let function = numbers[code] { keys.append(.function(function)) }
                    default: break
                    }
                } else {
                    keys.append(.escape)
                }
            case 0x01...0x1A: keys.append(.control(Character(UnicodeScalar(scalar.value + 0x60)!)))
            default: keys.append(.character(Character(scalar)))
            }
        }
        return keys
    }
}
