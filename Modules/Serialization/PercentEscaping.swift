/// AFNetworking's query escaping: every byte of the UTF-8 form is percent-encoded with uppercase hex
/// except ASCII letters, digits, `-` `.` `_` `~` and the `/` `?` that RFC 3986 §3.4 allows in a query.
///
/// Space becomes `%20` (never `+`), `%` becomes `%25` (so pre-escaped text is escaped again), and the
/// RFC 3986 general and sub-delimiters are all escaped.
///
/// ```swift
/// PercentEscaping.escape("a b&c/d?ü")  // "a%20b%26c/d?%C3%BC"
/// ```
public enum PercentEscaping {
    private static let unreserved: [Bool] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Whether a byte is left as it is.
    public static func isUnescaped(_ byte: UInt8) -> Bool {
        unreserved[Int(byte)]
    }

    /// Appends the escaped form of `bytes` to `output`.
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 (or raw) bytes to escape.
    ///   - output: Where the escaped bytes go.
    ///   - spaceAsPlus: Writes space as `+` instead of `%20` (Alamofire's `.plusReplaced` option).
    public static func escape(_ bytes: some Sequence<UInt8>, into output: inout [UInt8], spaceAsPlus: Bool = false) {
        for byte in bytes {
            if unreserved[Int(byte)] {
                output.append(byte)
            } else if spaceAsPlus && byte == 0x20 {
                output.append(UInt8(ascii: "+"))
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// Returns the escaped form of a string's UTF-8 bytes.
    public static func escape(_ string: String, spaceAsPlus: Bool = false) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count)
        escape(string.utf8, into: &output, spaceAsPlus: spaceAsPlus)
        return String(decoding: output, as: UTF8.self)
    }
}
