/// Encodes ``Parameters`` as a query string or form body with AFNetworking's rules
/// (`AFQueryStringFromParameters`).
///
/// The output is ``ParameterValue/flatten(_:)`` rendered pair by pair: each pair is the escaped field,
/// then `=` and the escaped value; pairs are joined with `&`. A ``ParameterValue/null`` value is the
/// escaped field alone (no `=`), a ``ParameterValue/data(_:)`` value is escaped byte by byte, and empty
/// parameters give the empty string. Escaping is ``PercentEscaping``'s (RFC 3986 §3.4: `/` and `?`
/// stay, space is `%20`).
///
/// The encoder writes UTF-8 bytes straight into one buffer and never goes through `NSString`-style
/// bridging, which is where Alamofire spends most of its time on Linux.
///
/// ```swift
/// let query = QueryStringEncoder().encode([
///     "q": "swift & linux/?",
///     "user": ["name": "Jane Doe", "tags": ["a", "b"]],
///     "cursor": nil,
/// ])
/// // "cursor&q=swift%20%26%20linux/?&user%5Bname%5D=Jane%20Doe&user%5Btags%5D%5B%5D=a&user%5Btags%5D%5B%5D=b"
/// ```
public struct QueryStringEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Returns the query string for `parameters`, without a leading `?`.
    ///
    /// ```swift
    /// QueryStringEncoder().encode(["page": 3, "debug": true])  // "debug=1&page=3"
    /// ```
    public func encode(_ parameters: Parameters) -> String {
        String(decoding: encodeBytes(parameters), as: UTF8.self)
    }

    /// Returns the query string for `parameters` as UTF-8 bytes, ready to be a form body.
    ///
    /// ```swift
    /// let body = Data(QueryStringEncoder().encodeBytes(["name": "Jane"]))  // "name=Jane"
    /// ```
    public func encodeBytes(_ parameters: Parameters) -> [UInt8] {
        guard !parameters.isEmpty else { return [] }
        var writer = QueryWriter()
        writer.writeDictionary(parameters, nested: false)
        return writer.output
    }
}

/// The byte-level walk behind ``QueryStringEncoder``.
///
/// It yields exactly what rendering ``ParameterValue/flatten(_:)`` gives, but keeps the field as
/// already-escaped bytes in a stack (`prefix`): escaping works byte by byte, so
/// `escape(prefix + "[" + key + "]")` is `escape(prefix) + "%5B" + escape(key) + "%5D"`, and no field
/// string is ever built.
struct QueryWriter {
    private(set) var output: [UInt8] = []
    private var prefix: [UInt8] = []
    private var wrotePair = false

    init() {
        output.reserveCapacity(256)
        prefix.reserveCapacity(64)
    }

    private static let openBracket: [UInt8] = Array("%5B".utf8)
    private static let closeBracket: [UInt8] = Array("%5D".utf8)

    /// Writes a dictionary's entries; top-level keys are fields, nested ones become `prefix[key]`
    /// (even under an empty top-level key, so test `nested`, not an empty prefix).
    mutating func writeDictionary(_ dictionary: [String: ParameterValue], nested: Bool) {
        let base = prefix.count
        for (key, value) in Self.sortedEntries(dictionary) {
            if !nested {
                Self.escape(key, into: &prefix)
            } else {
                prefix.append(contentsOf: Self.openBracket)
                Self.escape(key, into: &prefix)
                prefix.append(contentsOf: Self.closeBracket)
            }
            write(value)
            prefix.removeSubrange(base...)
        }
    }

    private mutating func write(_ value: ParameterValue) {
        switch value {
        case .string(let string):
            beginPair()
            Self.escape(string, into: &output)
        case .int(let int):
            beginPair()
            Self.writeDecimal(int, into: &output)
        case .bool(let bool):
            beginPair()
            output.append(bool ? UInt8(ascii: "1") : UInt8(ascii: "0"))
        case .double(let double):
            beginPair()
            Self.escape(ParameterValue.text(of: double), into: &output)
        case .data(let data):
            beginPair()
            PercentEscaping.escape(data, into: &output)
        case .null:
            beginField()
        case .dictionary(let dictionary):
            writeDictionary(dictionary, nested: true)
        case .array(let values):
            let base = prefix.count
            prefix.append(contentsOf: Self.openBracket)
            prefix.append(contentsOf: Self.closeBracket)
            for element in values { write(element) }
            prefix.removeSubrange(base...)
        case .set(let values):
            // Set members repeat the same field; order by their text as AFNetworking does.
            for member in values.sorted(by: { ParameterValue.precedes($0.textValue, $1.textValue) }) {
                write(member)
            }
        }
    }

    /// Writes the `&` separator (unless first) and the escaped field. A pair can be empty (a null
    /// under an empty key), so "first" is tracked rather than read off an empty output.
    private mutating func beginField() {
        if wrotePair { output.append(UInt8(ascii: "&")) }
        wrotePair = true
        output.append(contentsOf: prefix)
    }

    private mutating func beginPair() {
        beginField()
        output.append(UInt8(ascii: "="))
    }

    /// The entries of a dictionary in AFNetworking's key order (UTF-16 code units).
    static func sortedEntries(_ dictionary: [String: ParameterValue]) -> [(key: String, value: ParameterValue)] {
        var entries = Array(dictionary)
        if entries.count > 1 {
            entries.sort { utf16Precedes($0.key, $1.key) }
        }
        return entries
    }

    /// The same order as ``ParameterValue/precedes(_:_:)`` (UTF-16 code units), computed on UTF-8.
    ///
    /// UTF-8 byte order is code-point order, which differs from UTF-16 order in one place: code
    /// points U+E000...U+FFFF (lead bytes 0xEE, 0xEF) sort *after* supplementary characters in UTF-16
    /// (whose surrogates are 0xD800...0xDFFF) but *before* them in UTF-8 (lead bytes 0xF0...0xF4).
    /// Lifting those two lead bytes above 0xF4 restores UTF-16 order. Continuation bytes (0x80...0xBF)
    /// never collide with them, and at the first differing byte both strings sit on the same
    /// character boundary or inside the same multi-byte character.
    static func utf16Precedes(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs
        var right = rhs
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                let count = min(leftBytes.count, rightBytes.count)
                var index = 0
                while index < count {
                    let a = leftBytes[index]
                    let b = rightBytes[index]
                    if a != b { return utf16Rank(a) < utf16Rank(b) }
                    index += 1
                }
                return leftBytes.count < rightBytes.count
            }
        }
    }

    @inline(__always)
    private static func utf16Rank(_ byte: UInt8) -> UInt16 {
        byte >= 0xEE && byte <= 0xEF ? UInt16(byte) &+ 0x10 : UInt16(byte)
    }

    @inline(__always)
    static func escape(_ string: String, into output: inout [UInt8]) {
        var string = string
        string.withUTF8 { PercentEscaping.escape($0, into: &output) }
    }

    static func writeDecimal(_ value: Int, into output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        // The magnitude as UInt, so that Int.min does not overflow; digits go in backwards, then flip.
        var magnitude = value.magnitude
        let start = output.count
        repeat {
            output.append(UInt8(truncatingIfNeeded: magnitude % 10) &+ UInt8(ascii: "0"))
            magnitude /= 10
        } while magnitude > 0
        output[start...].reverse()
    }
}
