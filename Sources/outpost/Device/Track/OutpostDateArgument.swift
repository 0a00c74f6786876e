import Foundation
import OutpostProtocol

/// Times on the command line.
enum OutpostDateArgument {
    static func parse(_ text: String) -> Date? { OutpostJSON.parse(text) }
}
