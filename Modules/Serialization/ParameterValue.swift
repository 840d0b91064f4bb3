public import FoundationEssentials

/// A parameter value for query strings, form bodies, JSON and property-list bodies, and multipart forms.
///
/// The Sendable counterpart of the loosely typed dictionaries that AFNetworking takes. Literals make
/// parameters read naturally:
///
/// ```swift
/// let parameters: Parameters = [
///     "q": "swift & linux",
///     "page": 3,
///     "user": ["name": "Jane", "tags": ["a", "b"]],
///     "debug": true,
///     "cursor": nil,
/// ]
/// ```
public indirect enum ParameterValue: Sendable, Hashable {
    /// Text.
    case string(String)
    /// An integer, written in decimal.
    case int(Int)
    /// A floating-point number; see ``textValue`` for how it is written.
    case double(Double)
    /// A boolean, written `1` or `0` in query strings and forms (as AFNetworking writes `NSNumber` booleans).
    case bool(Bool)
    /// Raw bytes: sent as they are in multipart parts, percent-escaped byte by byte in query strings.
    case data(Data)
    /// The null marker: a bare field with no `=` in a query string, an empty multipart part, JSON `null`.
    case null
    /// An ordered list; flattened as `key[]` entries.
    case array([ParameterValue])
    /// A nested dictionary; flattened as `key[subkey]` entries, keys sorted.
    case dictionary([String: ParameterValue])
    /// An unordered set; flattened as repeated `key` entries sorted by ``textValue``.
    case set(Set<ParameterValue>)

    /// The text a scalar stands for in a query string or form part.
    ///
    /// - Integers print in decimal, booleans as `1` and `0`.
    /// - A whole double of magnitude below 2^53 prints without a fraction (`1`, not `1.0`), which is
    ///   what AFNetworking prints on Apple platforms; other doubles print Swift's shortest round-trip
    ///   form (`0.1`, `1e+20`, `nan`, `inf`).
    /// - Data prints as UTF-8 text with invalid bytes replaced (it is escaped byte by byte instead
    ///   when it is written to a query string).
    /// - Null prints as the empty string; containers print a canonical, sorted rendering that is used
    ///   only to order set members.
    public var textValue: String {
        switch self {
        case .string(let string): return string
        case .int(let int): return String(int)
        case .double(let double): return Self.text(of: double)
        case .bool(let bool): return bool ? "1" : "0"
        case .data(let data): return String(decoding: data, as: UTF8.self)
        case .null: return ""
        case .array(let values): return "(" + values.map(\.textValue).joined(separator: ", ") + ")"
        case .dictionary(let dictionary):
            let entries = dictionary.keys.sorted(by: Self.precedes).map { "\($0) = \(dictionary[$0]?.textValue ?? "")" }
            return "{" + entries.joined(separator: "; ") + "}"
        case .set(let values):
            return "{(" + values.map(\.textValue).sorted(by: Self.precedes).joined(separator: ", ") + ")}"
        }
    }

    static func text(of double: Double) -> String {
        if double.isFinite, double == double.rounded(), abs(double) < 9_007_199_254_740_992 {
            return String(Int64(double))
        }
        return String(double)
    }

    /// The order of set members: by ``textValue`` as AFNetworking sorts them, then, for members whose
    /// text is equal (`nil` and `""`, or `.data` and a string with the same text), by kind and raw
    /// bytes, so that the order never depends on a set's hashing from one process to the next.
    static func setMemberPrecedes(_ lhs: ParameterValue, _ rhs: ParameterValue) -> Bool {
        let left = lhs.textValue
        let right = rhs.textValue
        if !left.utf16.elementsEqual(right.utf16) {
            return precedes(left, right)
        }
        if lhs.kindRank != rhs.kindRank { return lhs.kindRank < rhs.kindRank }
        if case .data(let leftBytes) = lhs, case .data(let rightBytes) = rhs {
            return leftBytes.lexicographicallyPrecedes(rightBytes)
        }
        return false
    }

    private var kindRank: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .int: 2
        case .double: 3
        case .string: 4
        case .data: 5
        case .array: 6
        case .dictionary: 7
        case .set: 8
        }
    }

    /// AFNetworking's key order: plain comparison of UTF-16 code units, case-sensitive, not localised.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
    }
}

/// A parameter dictionary, as request serializers take it.
public typealias Parameters = [String: ParameterValue]

extension ParameterValue: ExpressibleByStringLiteral {
    /// `"text"`
    public init(stringLiteral value: String) { self = .string(value) }
}

extension ParameterValue: ExpressibleByIntegerLiteral {
    /// `42`
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension ParameterValue: ExpressibleByFloatLiteral {
    /// `0.5`
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension ParameterValue: ExpressibleByBooleanLiteral {
    /// `true`
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension ParameterValue: ExpressibleByNilLiteral {
    /// `nil` is ``null``.
    public init(nilLiteral: ()) { self = .null }
}

extension ParameterValue: ExpressibleByArrayLiteral {
    /// `["a", "b"]`
    public init(arrayLiteral elements: ParameterValue...) { self = .array(elements) }
}

extension ParameterValue: ExpressibleByDictionaryLiteral {
    /// `["name": "Jane"]`; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, ParameterValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
