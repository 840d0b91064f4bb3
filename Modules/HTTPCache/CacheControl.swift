internal import CourierHTTP

/// The `Cache-Control` directives of a request or response (RFC 9111 §5.2), from every
/// `Cache-Control` field it carries.
///
/// Directive names compare case-insensitively; a directive that appears twice keeps its first
/// value; a delta-seconds value that is not a number, or is too large, counts as absent for
/// `max-stale` and `min-fresh` and as zero (already stale) for `max-age`, which is the safe reading
/// RFC 9111 §4.2.1 asks for.
struct CacheControl: Sendable, Equatable {
    private(set) var directives: [String: String?] = [:]

    init(_ headers: HTTPHeaders) {
        for value in headers.values(for: "Cache-Control") {
            for item in Self.split(value) {
                // Empty pieces kept: a bare `=` (or `=x`) is a directive without a name, skipped
                // below, not a missing element.
                let pieces = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let first = pieces.first else { continue }
                let name = first.trimmingSpaces().lowercased()
                guard !name.isEmpty, directives[name] == nil else { continue }
                let argument = pieces.count == 2 ? Self.unquoted(pieces[1].trimmingSpaces()) : nil
                directives[name] = .some(argument)
            }
        }
    }

    func has(_ name: String) -> Bool { directives[name] != nil }

    /// A delta-seconds argument: `nil` when the directive is absent, `0` when it is malformed.
    func seconds(_ name: String) -> Int? {
        guard let argument = directives[name] else { return nil }
        guard let text = argument, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return 0
        }
        // RFC 9111 §1.2.2: a value too large to represent means "a very long time".
        return Int(text) ?? Int(Int32.max)
    }

    /// A delta-seconds argument, or `nil` when absent or malformed.
    func wellFormedSeconds(_ name: String) -> Int? {
        guard let argument = directives[name], let text = argument, !text.isEmpty,
            text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return nil }
        return Int(text) ?? Int(Int32.max)
    }

    /// Splits at commas outside quoted strings.
    private static func split(_ value: String) -> [Substring] {
        var items: [Substring] = []
        var start = value.startIndex
        var quoted = false
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                items.append(value[start..<index])
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        items.append(value[start...])
        return items.filter { !$0.trimmingSpaces().isEmpty }
    }

    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        return String(text.dropFirst().dropLast())
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace), found
    /// by walking the UTF-8 bytes: this runs for every field a lookup reads.
    func trimmingSpaces() -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isSpace(bytes[start]) { bytes.formIndex(after: &start) }
        while start < end {
            let before = bytes.index(before: end)
            guard isSpace(bytes[before]) else { break }
            end = before
        }
        return String(self[start..<end])
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String { self[...].trimmingSpaces() }
}
