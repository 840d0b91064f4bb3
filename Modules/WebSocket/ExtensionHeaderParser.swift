import CourierHTTP

/// Splits `Sec-WebSocket-Extensions` values into extensions and their parameters (RFC 6455 §9.1):
/// `extension-list = 1#extension`, `extension = name *( ";" param )`, `param = token [ "=" (token /
/// quoted-string) ]`.
enum ExtensionHeaderParser {
    struct Element {
        var name: String
        /// Parameters in order; a quoted value is unquoted (RFC 7692 §7.1 compares the unquoted value).
        var parameters: [(name: String, value: String?)]
    }

    /// The extensions named by every field value, in order; empty elements (`a, , b`) are skipped.
    static func elements(of values: [String]) throws(WebSocketError.HandshakeCheck) -> [Element] {
        var elements: [Element] = []
        for value in values {
            for element in split(value, at: ",") {
                let parts = split(element, at: ";").map(trimmed)
                guard let name = parts.first, !name.isEmpty else {
                    if parts.count <= 1 { continue }
                    throw .extensions("an extension has parameters but no name")
                }
                guard isToken(name) else { throw .extensions("\"\(name)\" is not an extension name") }
                var parameters: [(name: String, value: String?)] = []
                for parameter in parts.dropFirst() {
                    parameters.append(try self.parameter(parameter))
                }
                elements.append(Element(name: name, parameters: parameters))
            }
        }
        return elements
    }

    private static func parameter(_ text: String) throws(WebSocketError.HandshakeCheck) -> (String, String?) {
        guard let equals = text.firstIndex(of: "=") else {
            guard isToken(text) else { throw .extensions("\"\(text)\" is not a parameter") }
            return (text, nil)
        }
        let name = trimmed(String(text[..<equals]))
        var value = trimmed(String(text[text.index(after: equals)...]))
        guard isToken(name) else { throw .extensions("\"\(name)\" is not a parameter name") }
        if value.utf8.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = unquoted(value.dropFirst().dropLast())
        }
        guard isToken(value) else { throw .extensions("\(name) has a malformed value") }
        return (name, value)
    }

    /// Splits at `separator` outside quoted strings.
    private static func split(_ text: String, at separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        for character in text {
            if inQuotes {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inQuotes = false
                }
                current.append(character)
            } else if character == "\"" {
                inQuotes = true
                current.append(character)
            } else if character == separator {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }

    private static func unquoted(_ text: Substring) -> String {
        var result = ""
        var escaped = false
        for character in text {
            if !escaped && character == "\\" {
                escaped = true
            } else {
                result.append(character)
                escaped = false
            }
        }
        return result
    }

    /// The text without leading and trailing spaces and tabs (RFC 9110 §5.6.3's OWS).
    static func trimmed(_ text: String) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// RFC 9110 §5.6.2's token.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(HTTPToken.isTokenByte)
    }
}
