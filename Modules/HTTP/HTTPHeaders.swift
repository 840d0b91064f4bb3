/// An ordered list of HTTP header fields with case-insensitive names and repeated fields.
///
/// Order is kept as added, names compare case-insensitively (RFC 9110 §5.1) but keep the spelling
/// they were added with, and a name may occur several times (`Set-Cookie`). Every name is checked to
/// be a token and every value to be free of CR, LF and NUL, so header injection is impossible.
///
/// ```swift
/// var headers = HTTPHeaders()
/// try headers.add(name: "Accept", value: "application/json")
/// try headers.add(name: "Set-Cookie", value: "a=1")
/// try headers.add(name: "set-cookie", value: "b=2")
/// headers["ACCEPT"]                 // "application/json"
/// headers.values(for: "Set-Cookie") // ["a=1", "b=2"]
/// ```
public struct HTTPHeaders: Sendable, Hashable {
    /// One header field: a name and a value.
    public struct Field: Sendable, Hashable {
        /// The field name, as spelled when it was added.
        public let name: String
        /// The field value.
        public let value: String

        /// Creates a field after checking its name and value.
        ///
        /// - Throws: ``HTTPValueError`` with code ``HTTPValueError/Code/invalidHeaderName`` or
        ///   ``HTTPValueError/Code/invalidHeaderValue``.
        public init(name: String, value: String) throws(HTTPValueError) {
            guard HTTPToken.isToken(name) else {
                throw HTTPValueError(
                    code: .invalidHeaderName,
                    value: name,
                    reason: "a header name must be a non-empty token"
                )
            }
            guard HTTPToken.isValidFieldValue(value) else {
                throw HTTPValueError(
                    code: .invalidHeaderValue,
                    value: value,
                    reason: "a header value may not contain CR, LF or NUL"
                )
            }
            self.name = name
            self.value = value
        }

        /// A field whose name and value the caller has already checked byte by byte (a response
        /// parser that verified `HTTPToken.isTokenByte` and found no CR, LF or NUL
        /// while scanning the line): checking the Strings again cost a second pass per header line.
        package init(checkedName name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they were added.
    public private(set) var fields: [Field] = []

    /// Creates an empty header list.
    public init() {}

    /// Creates a header list from name-value pairs, in order.
    ///
    /// ```swift
    /// let headers = try HTTPHeaders([("Accept", "text/html"), ("Accept-Encoding", "gzip")])
    /// ```
    /// - Throws: ``HTTPValueError`` for the first invalid name or value.
    public init(_ pairs: [(String, String)]) throws(HTTPValueError) {
        for (name, value) in pairs { try add(name: name, value: value) }
    }

    /// Creates a header list from a dictionary; the fields are ordered by name so that the result is
    /// deterministic.
    ///
    /// ```swift
    /// let headers = try HTTPHeaders(["Accept": "application/json"])
    /// ```
    /// - Throws: ``HTTPValueError`` for the first invalid name or value.
    public init(_ dictionary: [String: String]) throws(HTTPValueError) {
        for name in dictionary.keys.sorted() {
            try add(name: name, value: dictionary[name] ?? "")
        }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// Appends a field, keeping any existing fields of the same name.
    ///
    /// - Throws: ``HTTPValueError`` when the name is not a token or the value has CR, LF or NUL.
    public mutating func add(name: String, value: String) throws(HTTPValueError) {
        fields.append(try Field(name: name, value: value))
    }

    /// Appends a field that has already been checked.
    public mutating func add(_ field: Field) {
        fields.append(field)
    }

    /// Makes room for `minimumCapacity` fields, so that a parser filling a head field by field
    /// allocates once instead of growing the list at 1, 2, 4 and 8 fields.
    package mutating func reserveCapacity(_ minimumCapacity: Int) {
        fields.reserveCapacity(minimumCapacity)
    }

    /// Replaces every field of this name with one field, placed where the first one was, or appends it.
    ///
    /// ```swift
    /// try headers.set(name: "Content-Type", value: "application/json")
    /// ```
    /// - Throws: ``HTTPValueError`` when the name is not a token or the value has CR, LF or NUL.
    public mutating func set(name: String, value: String) throws(HTTPValueError) {
        let field = try Field(name: name, value: value)
        if let first = fields.firstIndex(where: { Self.namesMatch($0.name, name) }) {
            fields[first] = field
            var index = fields.index(after: first)
            while index < fields.endIndex {
                if Self.namesMatch(fields[index].name, name) {
                    fields.remove(at: index)
                } else {
                    index += 1
                }
            }
        } else {
            fields.append(field)
        }
    }

    /// Removes every field of this name.
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// Whether a field of this name is present.
    public func contains(name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// The first value of a field of this name, or `nil`.
    ///
    /// Use ``values(for:)`` for fields that repeat, such as `Set-Cookie`.
    public subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Every value of fields of this name, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Adds each field of `other` whose name is not yet present; fields already here win.
    ///
    /// This is how default headers are applied: they never overwrite what the request carries.
    public mutating func addMissing(from other: HTTPHeaders) {
        for field in other.fields where !contains(name: field.name) {
            fields.append(field)
        }
    }

    /// ASCII case-insensitive comparison of two field names.
    public static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        // Over contiguous bytes (every native String): a zip of two UTF-8 views costs several
        // times as much, and this runs for each field of each head a transport reads.
        let contiguous = left.withContiguousStorageIfAvailable { leftBytes in
            right.withContiguousStorageIfAvailable { rightBytes in
                bytesMatchIgnoringASCIICase(leftBytes, rightBytes)
            }
        }
        if let contiguous, let matched = contiguous { return matched }
        return zip(left, right).allSatisfy { asciiLowercase($0) == asciiLowercase($1) }
    }

    private static func bytesMatchIgnoringASCIICase(
        _ left: UnsafeBufferPointer<UInt8>,
        _ right: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        for index in left.indices where left[index] != right[index] {
            if asciiLowercase(left[index]) != asciiLowercase(right[index]) { return false }
        }
        return true
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}

extension HTTPHeaders: Sequence {
    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}

extension HTTPHeaders: CustomStringConvertible {
    /// The fields as they would appear on the wire, one per line.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}
