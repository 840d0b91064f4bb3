/// Why ``JSONParser`` refused its input, and where.
///
/// It reaches callers as the underlying error of a `DecodingError.dataCorrupted` (the shape
/// `JSONDecoder` reports), so that its description, with the byte offset, is what a log shows.
struct JSONParsingError: Error, CustomStringConvertible {
    enum Kind: Equatable {
        /// The input ended inside a value.
        case unexpectedEnd
        /// A byte that cannot start or continue the value at this point.
        case unexpectedByte(UInt8)
        /// Something other than whitespace after the top-level value.
        case trailingContent
        /// An unescaped control character (U+0000 to U+001F) in a string, which RFC 8259 §7 forbids.
        case controlCharacterInString(UInt8)
        /// A backslash followed by something RFC 8259 §7 does not list.
        case invalidEscape
        /// A `\u` escape of a UTF-16 surrogate without its partner.
        case loneSurrogate
        /// Bytes of a string that are not UTF-8.
        case invalidUTF8
        /// A number whose magnitude is beyond a `Double` (`1e400`).
        case numberOutOfRange
        /// More nested arrays and objects than ``JSONNestingLimit/maximumDepth``.
        case tooDeep
    }

    let kind: Kind
    /// The offset of the offending byte from the start of the input.
    let offset: Int

    var description: String {
        switch kind {
        case .unexpectedEnd:
            return "Unexpected end of input at byte offset \(offset)."
        case .unexpectedByte(let byte):
            return "Unexpected \(Self.name(byte)) at byte offset \(offset)."
        case .trailingContent:
            return "Unexpected content after the top-level value at byte offset \(offset)."
        case .controlCharacterInString(let byte):
            return "Unescaped control character \(Self.name(byte)) in a string at byte offset \(offset)."
        case .invalidEscape:
            return "Invalid escape sequence in a string at byte offset \(offset)."
        case .loneSurrogate:
            return "Unpaired UTF-16 surrogate escape in a string at byte offset \(offset)."
        case .invalidUTF8:
            return "Invalid UTF-8 in a string starting at byte offset \(offset)."
        case .numberOutOfRange:
            return "Number at byte offset \(offset) is not representable as a Double."
        case .tooDeep:
            return JSONNestingLimit.reason(atOffset: offset)
        }
    }

    private static func name(_ byte: UInt8) -> String {
        let hex = "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        guard byte >= 0x20, byte < 0x7F else { return "byte \(hex)" }
        return "character '\(Character(Unicode.Scalar(byte)))' (\(hex))"
    }
}
