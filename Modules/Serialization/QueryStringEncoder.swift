internal import FoundationEssentials

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
        guard !parameters.isEmpty else { return "" }
        return QueryWriter.withScratch { writer in
            writer.writeDictionary(parameters, nested: false)
            return writer.output.string
        }
    }

    /// Returns the query string for `parameters` as UTF-8 bytes, ready to be a form body.
    ///
    /// ```swift
    /// let body = Data(QueryStringEncoder().encodeBytes(["name": "Jane"]))  // "name=Jane"
    /// ```
    public func encodeBytes(_ parameters: Parameters) -> [UInt8] {
        guard !parameters.isEmpty else { return [] }
        return QueryWriter.withScratch { writer in
            writer.writeDictionary(parameters, nested: false)
            return writer.output.bytes
        }
    }
}

/// The byte-level walk behind ``QueryStringEncoder``.
///
/// It yields exactly what rendering ``ParameterValue/flatten(_:)`` gives, but keeps the field as
/// already-escaped bytes in a stack (`prefix`): escaping works byte by byte, so
/// `escape(prefix + "[" + key + "]")` is `escape(prefix) + "%5B" + escape(key) + "%5D"`, and no field
/// string is ever built. Dictionary indices are sorted in stack memory and both byte buffers start on
/// the stack, so a typical encode allocates nothing but its result.
struct QueryWriter: ~Copyable {
    private(set) var output: EscapingByteBuffer
    private var prefix: EscapingByteBuffer
    private var wrotePair = false

    private init(output: consuming EscapingByteBuffer, prefix: consuming EscapingByteBuffer) {
        self.output = output
        self.prefix = prefix
    }

    /// Runs `body` with a writer whose buffers start on the stack (512 bytes of output, 128 of
    /// field prefix); they move to the heap only for larger queries. The writer cannot escape `body`.
    static func withScratch<Result>(_ body: (inout QueryWriter) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 640) { scratch in
            var writer = QueryWriter(
                output: EscapingByteBuffer(scratch: UnsafeMutableBufferPointer(rebasing: scratch[..<512])),
                prefix: EscapingByteBuffer(scratch: UnsafeMutableBufferPointer(rebasing: scratch[512...]))
            )
            return body(&writer)
        }
    }

    /// Writes a dictionary's entries; top-level keys are fields, nested ones become `prefix[key]`
    /// (even under an empty top-level key, so test `nested`, not an empty prefix).
    mutating func writeDictionary(_ dictionary: [String: ParameterValue], nested: Bool) {
        let count = dictionary.count
        if count == 0 { return }
        if count == 1 {
            for (key, value) in dictionary { writeEntry(key: key, value: value, nested: nested) }
            return
        }
        // Sort dictionary indices (plain integers for a native dictionary), not copies of the entries.
        withUnsafeTemporaryAllocation(of: Dictionary<String, ParameterValue>.Index.self, capacity: count) { slots in
            var initialized = 0
            var index = dictionary.startIndex
            while index != dictionary.endIndex, initialized < count {
                slots.initializeElement(at: initialized, to: index)
                initialized += 1
                index = dictionary.index(after: index)
            }
            var sorted = UnsafeMutableBufferPointer(rebasing: slots[..<initialized])
            sorted.sort { Self.utf16Precedes(dictionary[$0].key, dictionary[$1].key) }
            for slot in sorted {
                let entry = dictionary[slot]
                writeEntry(key: entry.key, value: entry.value, nested: nested)
            }
            sorted.deinitialize()
        }
    }

    private mutating func writeEntry(key: String, value: ParameterValue, nested: Bool) {
        let base = prefix.count
        if nested { prefix.append(ascii: "%5B") }
        prefix.appendEscaped(key)
        if nested { prefix.append(ascii: "%5D") }
        write(value)
        prefix.truncate(to: base)
    }

    private mutating func write(_ value: ParameterValue) {
        switch value {
        case .string(let string):
            beginPair()
            output.appendEscaped(string)
        case .int(let int):
            beginPair()
            output.appendDecimal(int)
        case .bool(let bool):
            beginPair()
            output.append(bool ? UInt8(ascii: "1") : UInt8(ascii: "0"))
        case .double(let double):
            beginPair()
            output.appendEscaped(ParameterValue.text(of: double))
        case .data(let data):
            beginPair()
            data.withUnsafeBytes { output.appendEscaped($0.bindMemory(to: UInt8.self)) }
        case .null:
            beginField()
        case .dictionary(let dictionary):
            writeDictionary(dictionary, nested: true)
        case .array(let values):
            let base = prefix.count
            prefix.append(ascii: "%5B%5D")
            for element in values { write(element) }
            prefix.truncate(to: base)
        case .set(let values):
            // Set members repeat the same field; order by their text as AFNetworking does.
            for member in values.sorted(by: ParameterValue.setMemberPrecedes) {
                write(member)
            }
        }
    }

    /// Writes the `&` separator (unless first) and the escaped field. A pair can be empty (a null
    /// under an empty key), so "first" is tracked rather than read off an empty output.
    private mutating func beginField() {
        if wrotePair { output.append(UInt8(ascii: "&")) }
        wrotePair = true
        output.append(prefix)
    }

    private mutating func beginPair() {
        beginField()
        output.append(UInt8(ascii: "="))
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
        // Borrow the native UTF-8 where possible (no copy, no retain); bridged strings take the
        // copying path.
        let fast = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in utf16Precedes(left, right) }
        }
        if let fast, let result = fast { return result }
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        return left.withUnsafeBufferPointer { left in
            right.withUnsafeBufferPointer { right in utf16Precedes(left, right) }
        }
    }

    private static func utf16Precedes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = min(left.count, right.count)
        var index = 0
        while index < count {
            let a = left[index]
            let b = right[index]
            if a != b { return utf16Rank(a) < utf16Rank(b) }
            index += 1
        }
        return left.count < right.count
    }

    @inline(__always)
    private static func utf16Rank(_ byte: UInt8) -> UInt16 {
        byte >= 0xEE && byte <= 0xEF ? UInt16(byte) &+ 0x10 : UInt16(byte)
    }

}
