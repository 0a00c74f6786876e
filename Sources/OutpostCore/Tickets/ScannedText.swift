/// What a scanner typed, made into what was printed. Applied once, on the device before
/// verification (so what it verifies is byte for byte what it sends) and on the server before
/// verification (so an older device's untrimmed text is read the same way).
///
/// Keyboard-wedge scanners are configured per site and commonly add:
/// - a suffix: CR, LF, CR LF or Tab (the "Enter" that submits the field), sometimes a space;
/// - framing control characters: STX before and ETX or EOT after;
/// - an AIM symbology identifier before the data (`]Q1` for a QR code, `]d2` for Data Matrix);
/// - lower case, when the host keyboard has Caps Lock on or the scanner maps case.
///
/// Ticket text is upper-case base32 behind `OP1`, so folding case is safe only for text that
/// is a ticket apart from case: anything else (a name, an e-mail, a code) keeps its case.
public enum ScannedText {
    /// The text with scanner framing removed.
    public static func normalized(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        trimFraming(&scalars)
        if hasSymbologyIdentifier(scalars) {
            scalars.removeFirst(3)
            trimFraming(&scalars)
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        if result.utf8.count == TicketCodec.textLength, result.uppercased().hasPrefix(TicketCodec.prefix),
            result.utf8.allSatisfy({
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
            })
        {
            result = result.uppercased()
        }
        return result
    }

    /// Whitespace and C0/C1 control characters (CR, LF, Tab, STX, ETX, EOT, GS, …) and the
    /// byte-order mark: nothing a printed ticket starts or ends with.
    static func isFraming(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || scalar.value == 0xFEFF
    }

    static func trimFraming(_ scalars: inout [Unicode.Scalar]) {
        while let last = scalars.last, isFraming(last) { scalars.removeLast() }
        let leading = scalars.prefix { isFraming($0) }.count
        scalars.removeFirst(leading)
    }

    /// `]` + a symbology letter + a modifier character, as AIM ISO/IEC 15424 prefixes.
    static func hasSymbologyIdentifier(_ scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.count > 3, scalars[0] == "]" else { return false }
        let letter = scalars[1].value
        let modifier = scalars[2].value
        let isLetter = (0x41...0x5A).contains(letter) || (0x61...0x7A).contains(letter)
        let isModifier = (0x30...0x39).contains(modifier) || (0x41...0x5A).contains(modifier)
        return isLetter && isModifier
    }
}
