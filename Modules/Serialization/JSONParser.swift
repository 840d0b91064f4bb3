internal import FoundationEssentials

/// Courier's JSON parser: RFC 8259 text, as UTF-8 bytes, straight into ``JSONValue``.
///
/// This is the one place where Courier does not use the Codable coders. `JSONDecoder` has no
/// notion of "any value": decoding ``JSONValue`` through it tries each kind in turn and pays for a
/// thrown error per miss, which made a 1 MiB response cost about half a second. This parser reads
/// the bytes once, through a pointer (no `Data` indexing per byte), and builds the tree directly.
///
/// It accepts and rejects what `JSONDecoder` accepts and rejects (with the two exceptions
/// ``JSONValue/init(parsing:)`` documents), and produces the value
/// `JSONDecoder().decode(JSONValue.self, from:)` produces (the conformance tests run both over a
/// corpus, and the `json-parser` fuzz target compares them on arbitrary bytes):
///
/// - RFC 8259's grammar, with `JSONDecoder`'s two leniencies kept: a trailing comma before `]` or
///   `}`, and a UTF-8 byte-order mark before the text (§8.1 lets a parser ignore it).
/// - Strings: escapes as §7 lists them; a `\u` escape of a surrogate must be a high surrogate
///   followed by a `\u` low surrogate; unescaped U+0000 to U+001F are refused; the bytes must be
///   UTF-8 (no overlong forms, no encoded surrogates).
/// - Numbers: ``JSONValue``'s rules (an exact ``JSONValue/int(_:)`` where the number is a whole
///   number in `Int64`, else ``JSONValue/double(_:)``; beyond a `Double`'s range, `1e400`, an error).
/// - Objects: of duplicate keys the first wins; the others' values are checked all the same
///   (`JSONDecoder` skips them, and so accepts malformed strings and numbers there).
/// - Nesting deeper than ``JSONNestingLimit/maximumDepth`` is refused at the bracket that crosses it
///   (with the message the serializer's guard used), so recursion stays bounded whatever the input.
///
/// Input in UTF-16 or UTF-32 (which `JSONDecoder` detects from a byte-order mark or the NUL bytes
/// in the first four) is not read here: ``JSONValue/init(parsing:)`` hands it to `JSONDecoder`,
/// so that it is read exactly as before. UTF-8 JSON never contains a NUL byte.
struct JSONParser {
    private let bytes: UnsafePointer<UInt8>
    private let end: Int
    private var index: Int
    private var depth = 0
    /// The bytes of the string being unescaped, reused from string to string.
    private var scratch: [UInt8] = []
    /// The elements of the arrays being read, innermost last, so that each array is allocated
    /// once at its final size instead of growing.
    private var elementStack: [JSONValue] = []
    /// The members of the objects being read, innermost last, so that each dictionary is created
    /// at its final capacity instead of rehashing as it grows (a fifth of the parse time before).
    private var memberStack: [(key: String, value: JSONValue)] = []

    private init(bytes: UnsafePointer<UInt8>, count: Int, start: Int) {
        self.bytes = bytes
        self.end = count
        self.index = start
    }

    /// Whether `data` looks like UTF-16 or UTF-32 rather than UTF-8: a byte-order mark of either,
    /// or a NUL among the first four bytes (the detection RFC 4627 §3 describes). `JSONDecoder`
    /// reads such text as UTF-16 or UTF-32; as UTF-8 it could only be invalid.
    static func isWideEncoding(_ data: Data) -> Bool {
        let head = data.prefix(4)
        return head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) || head.contains(0)
    }

    /// Parses UTF-8 JSON text; any top-level value is accepted.
    static func parse(_ data: Data) throws(JSONParsingError) -> JSONValue {
        let result: Result<JSONValue, JSONParsingError> = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, !raw.isEmpty else {
                return .failure(JSONParsingError(kind: .unexpectedEnd, offset: 0))
            }
            let pointer = base.assumingMemoryBound(to: UInt8.self)
            let hasByteOrderMark = raw.count >= 3 && pointer[0] == 0xEF && pointer[1] == 0xBB && pointer[2] == 0xBF
            var parser = JSONParser(bytes: pointer, count: raw.count, start: hasByteOrderMark ? 3 : 0)
            do throws(JSONParsingError) {
                let value = try parser.parseValue()
                parser.skipWhitespace()
                guard parser.index == parser.end else {
                    return .failure(JSONParsingError(kind: .trailingContent, offset: parser.index))
                }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: Structure

    private mutating func parseValue() throws(JSONParsingError) -> JSONValue {
        skipWhitespace()
        guard index < end else { throw failure(.unexpectedEnd) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        case let byte:
            throw failure(.unexpectedByte(byte))
        }
    }

    private mutating func enterContainer() throws(JSONParsingError) {
        depth += 1
        if depth > JSONNestingLimit.maximumDepth { throw failure(.tooDeep) }
        index += 1
    }

    private mutating func parseArray() throws(JSONParsingError) -> JSONValue {
        try enterContainer()
        skipWhitespace()
        if index < end, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array([])
        }
        let base = elementStack.count
        repeat {
            elementStack.append(try parseValue())
        } while try !containerEnds(with: UInt8(ascii: "]"))
        depth -= 1
        let elements = Array(elementStack[base...])
        elementStack.removeLast(elementStack.count - base)
        return .array(elements)
    }

    private mutating func parseObject() throws(JSONParsingError) -> JSONValue {
        try enterContainer()
        skipWhitespace()
        if index < end, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object([:])
        }
        let base = memberStack.count
        while true {
            guard index < end else { throw failure(.unexpectedEnd) }
            guard bytes[index] == UInt8(ascii: "\"") else { throw failure(.unexpectedByte(bytes[index])) }
            let key = try parseString()
            skipWhitespace()
            guard index < end else { throw failure(.unexpectedEnd) }
            guard bytes[index] == UInt8(ascii: ":") else { throw failure(.unexpectedByte(bytes[index])) }
            index += 1
            memberStack.append((key, try parseValue()))
            if try containerEnds(with: UInt8(ascii: "}")) { break }
        }
        depth -= 1
        var members = [String: JSONValue](minimumCapacity: memberStack.count - base)
        for index in base..<memberStack.count {
            // The first of duplicate keys wins, as with JSONDecoder; one hash lookup either way.
            Self.keep(&members[memberStack[index].key, default: memberStack[index].value])
        }
        memberStack.removeLast(memberStack.count - base)
        return .object(members)
    }

    /// After an element or a member: consumes the `,` or the `closing` bracket that follows, and
    /// says whether the container ended. A comma right before the closing bracket ends it too
    /// (`JSONDecoder`'s leniency).
    private mutating func containerEnds(with closing: UInt8) throws(JSONParsingError) -> Bool {
        skipWhitespace()
        guard index < end else { throw failure(.unexpectedEnd) }
        let byte = bytes[index]
        if byte == closing {
            index += 1
            return true
        }
        guard byte == UInt8(ascii: ",") else { throw failure(.unexpectedByte(byte)) }
        index += 1
        skipWhitespace()
        if index < end, bytes[index] == closing {
            index += 1
            return true
        }
        return false
    }

    /// Touches a dictionary slot so that `subscript(_:default:)` inserts its default only when the
    /// key is absent.
    private static func keep(_ value: inout JSONValue) {}

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParsingError) {
        let count = literal.utf8CodeUnitCount
        let expected = literal.utf8Start
        for offset in 0..<count {
            guard index + offset < end else {
                index += offset
                throw failure(.unexpectedEnd)
            }
            guard bytes[index + offset] == expected[offset] else {
                index += offset
                throw failure(.unexpectedByte(bytes[index]))
            }
        }
        index += count
    }

    mutating func skipWhitespace() {
        while index < end {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    // MARK: Strings

    /// A string, from its opening quote; the index ends after the closing quote.
    private mutating func parseString() throws(JSONParsingError) -> String {
        index += 1
        let start = index
        var high: UInt8 = 0
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(start: bytes + start, count: index - start)
                index += 1
                if high < 0x80 { return String(decoding: run, as: UTF8.self) }
                guard let string = String(validating: run, as: UTF8.self) else {
                    throw JSONParsingError(kind: .invalidUTF8, offset: start)
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw failure(.controlCharacterInString(byte)) }
            high |= byte
            index += 1
        }
        throw failure(.unexpectedEnd)
    }

    /// The rest of a string that holds an escape: `start` is its first byte, the index is at the
    /// first backslash.
    private mutating func parseEscapedString(from start: Int) throws(JSONParsingError) -> String {
        scratch.removeAll(keepingCapacity: true)
        var runStart = start
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                scratch.append(contentsOf: UnsafeBufferPointer(start: bytes + runStart, count: index - runStart))
                index += 1
                guard let string = String(validating: scratch, as: UTF8.self) else {
                    throw JSONParsingError(kind: .invalidUTF8, offset: start)
                }
                return string
            }
            if byte == UInt8(ascii: "\\") {
                scratch.append(contentsOf: UnsafeBufferPointer(start: bytes + runStart, count: index - runStart))
                try appendEscape()
                runStart = index
                continue
            }
            if byte < 0x20 { throw failure(.controlCharacterInString(byte)) }
            index += 1
        }
        throw failure(.unexpectedEnd)
    }

    /// One escape sequence, from its backslash, onto `scratch`.
    private mutating func appendEscape() throws(JSONParsingError) {
        let escapeStart = index
        index += 1
        guard index < end else { throw failure(.unexpectedEnd) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHexQuad()
            var scalarValue = UInt32(unit)
            if (0xDC00...0xDFFF).contains(unit) {
                throw JSONParsingError(kind: .loneSurrogate, offset: escapeStart)
            }
            if (0xD800...0xDBFF).contains(unit) {
                // RFC 8259 §7: a character outside the BMP is a surrogate pair of two escapes.
                guard index + 1 < end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw JSONParsingError(kind: .loneSurrogate, offset: escapeStart) }
                index += 2
                let low = try readHexQuad()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONParsingError(kind: .loneSurrogate, offset: escapeStart)
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            }
            appendUTF8(scalarValue)
        default:
            throw JSONParsingError(kind: .invalidEscape, offset: escapeStart)
        }
    }

    /// A scalar value (never a surrogate) as UTF-8.
    private mutating func appendUTF8(_ value: UInt32) {
        switch value {
        case ..<0x80:
            scratch.append(UInt8(value))
        case ..<0x800:
            scratch.append(UInt8(0xC0 | value >> 6))
            scratch.append(UInt8(0x80 | value & 0x3F))
        case ..<0x1_0000:
            scratch.append(UInt8(0xE0 | value >> 12))
            scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | value & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | value >> 18))
            scratch.append(UInt8(0x80 | value >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | value & 0x3F))
        }
    }

    private mutating func readHexQuad() throws(JSONParsingError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < end else { throw failure(.unexpectedEnd) }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: throw failure(.invalidEscape)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONParsingError) -> JSONValue {
        let start = index
        var scan = JSONNumberScan()
        if bytes[index] == UInt8(ascii: "-") {
            scan.isNegative = true
            index += 1
        }
        // RFC 8259 §6: int = zero / ( digit1-9 *DIGIT ); a leading zero stands alone.
        guard index < end else { throw failure(.unexpectedEnd) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            scan.integerDigits = 1
        } else if isDigit(bytes[index]) {
            while index < end, isDigit(bytes[index]) {
                scan.addDigit(bytes[index])
                scan.integerDigits += 1
                index += 1
            }
        } else {
            throw failure(.unexpectedByte(bytes[index]))
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            scan.isPlainInteger = false
            index += 1
            guard index < end else { throw failure(.unexpectedEnd) }
            guard isDigit(bytes[index]) else { throw failure(.unexpectedByte(bytes[index])) }
            while index < end, isDigit(bytes[index]) {
                scan.addDigit(bytes[index])
                scan.fractionDigits += 1
                index += 1
            }
        }
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            scan.isPlainInteger = false
            index += 1
            guard index < end else { throw failure(.unexpectedEnd) }
            var exponentIsNegative = false
            if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentIsNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
                guard index < end else { throw failure(.unexpectedEnd) }
            }
            guard isDigit(bytes[index]) else { throw failure(.unexpectedByte(bytes[index])) }
            var exponent = 0
            while index < end, isDigit(bytes[index]) {
                // Saturates: any exponent this large is out of range, or zero, either way.
                exponent = min(exponent * 10 + Int(bytes[index] &- UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            scan.exponent = exponentIsNegative ? -exponent : exponent
        }
        let text = UnsafeBufferPointer(start: bytes + start, count: index - start)
        guard let value = scan.value(text: text) else {
            throw JSONParsingError(kind: .numberOutOfRange, offset: start)
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    private func failure(_ kind: JSONParsingError.Kind) -> JSONParsingError {
        JSONParsingError(kind: kind, offset: index)
    }
}
