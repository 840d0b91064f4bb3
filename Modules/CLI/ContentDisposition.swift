internal import FoundationEssentials

/// The file name a `Content-Disposition` header offers (RFC 6266), checked before `--download`
/// uses it: a bare name only.
///
/// `filename*` (RFC 8187: `UTF-8''%e2%82%ac%20rates.txt`) wins over `filename` (a token or a quoted
/// string), as RFC 6266 §4.3 says. A name with a `/` or `\\`, one that is `.` or `..` or starts with
/// a dot, or one holding a control character is refused: a server must not pick where, outside the
/// current folder, or under which hidden name a download is written (httpie keeps only the last
/// path segment; here such a name is not used at all, and the URL's name is).
enum ContentDisposition {
    static func fileName(from header: String) -> String? {
        var plain: String?
        var extended: String?
        for (name, value) in parameters(header) {
            switch name {
            case "filename*": extended = decodeExtended(value)
            case "filename": plain = value
            default: continue
            }
        }
        return [extended, plain].compactMap { $0 }.first(where: isSafe)
    }

    /// Whether `name` can be used as a file name in the current folder.
    static func isSafe(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("."), name.utf8.count <= 255 else { return false }
        return !name.unicodeScalars.contains {
            $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value)
        }
    }

    /// The `;`-separated parameters after the disposition type, names lower-cased, quoted strings
    /// unquoted (RFC 9110 §5.6.4).
    static func parameters(_ header: String) -> [(String, String)] {
        var result: [(String, String)] = []
        var scalars = Substring(header).unicodeScalars[...]
        // Skip the disposition type.
        while let first = scalars.first, first != ";" { scalars.removeFirst() }
        while !scalars.isEmpty {
            scalars.removeFirst()  // the `;`
            var name = ""
            while let next = scalars.first, next != "=", next != ";" {
                name.unicodeScalars.append(next)
                scalars.removeFirst()
            }
            guard scalars.first == "=" else { continue }
            scalars.removeFirst()
            while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
            var value = ""
            if scalars.first == "\"" {
                scalars.removeFirst()
                while let next = scalars.first, next != "\"" {
                    scalars.removeFirst()
                    if next == "\\", let escaped = scalars.first {
                        value.unicodeScalars.append(escaped)
                        scalars.removeFirst()
                    } else {
                        value.unicodeScalars.append(next)
                    }
                }
                if !scalars.isEmpty { scalars.removeFirst() }
                while let next = scalars.first, next != ";" { scalars.removeFirst() }
            } else {
                while let next = scalars.first, next != ";" {
                    value.unicodeScalars.append(next)
                    scalars.removeFirst()
                }
                value = value.trimmed
            }
            result.append((name.trimmed.lowercased(), value))
        }
        return result
    }

    /// RFC 8187's `charset'language'percent-encoded`; UTF-8 and ISO-8859-1 are the charsets it
    /// requires.
    static func decodeExtended(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var bytes: [UInt8] = []
        var utf8 = parts[2].utf8[...]
        while let byte = utf8.first {
            utf8.removeFirst()
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2,
                let decoded = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(decoded)
            utf8.removeFirst(2)
        }
        switch parts[0].lowercased() {
        case "utf-8": return String(validating: bytes, as: UTF8.self)
        case "iso-8859-1": return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default: return nil
        }
    }
}
