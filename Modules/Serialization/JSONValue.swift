/// A parsed JSON value, Sendable, the Swift counterpart of the `NSDictionary`/`NSArray` trees that
/// AFNetworking's JSON serializer returns.
///
/// Numbers keep integers exact: a number without a fraction that fits in `Int64` is ``int(_:)``, so
/// `9007199254740993` stays `9007199254740993` instead of rounding to a `Double`. Other numbers are
/// ``double(_:)``: fractions, `-0` (whose sign only a double keeps), and integers beyond `Int64`,
/// which become the nearest double as RFC 8259 §6 allows. JSON does not distinguish `1.0` from `1`,
/// and neither does the parser: both are `.int(1)`. `.int(1)` and `.double(1)` are different values
/// for `==`; compare ``doubleValue`` to compare numerically.
///
/// Objects are dictionaries: key order is not kept (the parser does not report it), and of
/// duplicate keys the first one wins.
///
/// ```swift
/// let json: JSONValue = ["name": "Ada", "tags": ["math", 1815], "admin": nil]
/// json["name"]?.stringValue        // "Ada"
/// json["tags"]?[1]?.intValue       // 1815
/// json.removingNullValues()        // ["name": "Ada", "tags": ["math", 1815]]
/// ```
public enum JSONValue: Sendable, Hashable {
    /// `null`
    case null
    /// `true` or `false`
    case bool(Bool)
    /// A number without a fraction that fits in 64 bits, exact.
    case int(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; key order is not kept.
    case object([String: JSONValue])

    /// The member named `key` of an object; `nil` for a missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` of an array; `nil` out of bounds or for a value that is not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// The boolean, for ``bool(_:)``.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The integer, for ``int(_:)``.
    public var intValue: Int64? {
        guard case .int(let value) = self else { return nil }
        return value
    }

    /// The number as a double, for ``int(_:)`` (rounded beyond 2^53) and ``double(_:)``.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The string, for ``string(_:)``.
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The elements, for ``array(_:)``.
    public var arrayValue: [JSONValue]? {
        guard case .array(let value) = self else { return nil }
        return value
    }

    /// The members, for ``object(_:)``.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let value) = self else { return nil }
        return value
    }
}

extension JSONValue: ExpressibleByNilLiteral {
    /// `nil` is `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer literal.
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// A dictionary literal; of repeated keys the last wins.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
