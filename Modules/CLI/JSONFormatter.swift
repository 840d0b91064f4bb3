internal import CourierSerialization
internal import FoundationEssentials

/// Re-indents JSON text (four spaces, as httpie) token by token, keeping the order of object
/// members, and colours it with ANSI escapes when asked. Text that is not JSON is returned as is.
enum JSONFormatter {
    private enum Colour: String {
        case key = "\u{1B}[34m"
        case string = "\u{1B}[33m"
        case number = "\u{1B}[36m"
        case literal = "\u{1B}[35m"
        static let reset = "\u{1B}[0m"
    }

    static func format(_ data: Data, colours: Bool) -> String? {
        guard (try? JSONDecoder().decode(JSONValue.self, from: data)) != nil else { return nil }
        let scalars = Array(String(decoding: data, as: UTF8.self).unicodeScalars)
        var output = ""
        var depth = 0
        var index = 0
        func newline() { output += "\n" + String(repeating: "    ", count: depth) }
        func paint(_ text: String, _ colour: Colour) {
            output += colours ? colour.rawValue + text + Colour.reset : text
        }
        func nextSignificant(after position: Int) -> Unicode.Scalar? {
            var position = position + 1
            while position < scalars.count, isSpace(scalars[position]) { position += 1 }
            return position < scalars.count ? scalars[position] : nil
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case " ", "\t", "\n", "\r":
                break
            case "{", "[":
                let close: Unicode.Scalar = scalar == "{" ? "}" : "]"
                if nextSignificant(after: index) == close {
                    output.unicodeScalars.append(scalar)
                    output.unicodeScalars.append(close)
                    while scalars[index] != close { index += 1 }
                } else {
                    output.unicodeScalars.append(scalar)
                    depth += 1
                    newline()
                }
            case "}", "]":
                depth -= 1
                newline()
                output.unicodeScalars.append(scalar)
            case ",":
                output += ","
                newline()
            case ":":
                output += ": "
            case "\"":
                var end = index + 1
                while end < scalars.count, scalars[end] != "\"" { end += scalars[end] == "\\" ? 2 : 1 }
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars[index...min(end, scalars.count - 1)])
                paint(text, nextSignificant(after: end) == ":" ? .key : .string)
                index = end
            default:
                var end = index
                while end + 1 < scalars.count, !isDelimiter(scalars[end + 1]) { end += 1 }
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars[index...end])
                paint(text, scalar == "-" || ("0"..."9").contains(scalar) ? .number : .literal)
                index = end
            }
            index += 1
        }
        return output
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    private static func isDelimiter(_ scalar: Unicode.Scalar) -> Bool {
        isSpace(scalar) || ",:]}".unicodeScalars.contains(scalar)
    }
}
