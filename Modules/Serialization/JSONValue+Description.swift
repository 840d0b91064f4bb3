internal import FoundationEssentials

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text with object keys sorted, for logs and debugging.
    ///
    /// ```swift
    /// let value: JSONValue = ["b": [1, 2.5], "a": nil]
    /// print(value)  // {"a":null,"b":[1,2.5]}
    /// ```
    public var description: String {
        var text = ""
        write(to: &text)
        return text
    }

    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let bool): text += bool ? "true" : "false"
        case .int(let int): text += String(int)
        case .double(let double): text += double.isFinite ? String(double) : "null"
        case .string(let string): Self.writeQuoted(string, to: &text)
        case .array(let values):
            text += "["
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                value.write(to: &text)
            }
            text += "]"
        case .object(let object):
            text += "{"
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                Self.writeQuoted(key, to: &text)
                text += ":"
                object[key]?.write(to: &text)
            }
            text += "}"
        }
    }

    // RFC 8259 §7: quote, backslash and control characters are escaped.
    private static func writeQuoted(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
