/// RFC 9110 §5.6.2 `tchar`: the bytes allowed in a token (header names, method names).
package enum HTTPToken {
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    static func isToken(_ string: String) -> Bool {
        !string.utf8.isEmpty && string.utf8.allSatisfy(isTokenByte)
    }

    /// RFC 9110 §5.5: a field value may not carry CR, LF or NUL (obs-fold is not accepted either).
    static func isValidFieldValue(_ string: String) -> Bool {
        !string.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}
