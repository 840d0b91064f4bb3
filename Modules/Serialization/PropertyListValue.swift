public import FoundationEssentials

/// A parsed property list, Sendable: what AFNetworking's property-list serializer returns.
///
/// Parsed with FoundationEssentials' `PropertyListDecoder`, which reads XML and binary property
/// lists (and treats anything else as an OpenStep-style list, where a bare word is a string). The
/// decoder does not say whether a number was written `<integer>` or `<real>`, so a whole `<real>`
/// that fits in `Int64` comes back as ``integer(_:)``, and an integer beyond `Int64` as ``real(_:)``.
///
/// ```swift
/// let plist = try PropertyListDecoder().decode(PropertyListValue.self, from: body)
/// plist["CFBundleVersion"]?.stringValue
/// plist["Items"]?[0]?["Size"]?.integerValue
/// ```
public enum PropertyListValue: Sendable, Hashable {
    /// `<string>`
    case string(String)
    /// `<integer>`
    case integer(Int64)
    /// `<real>`
    case real(Double)
    /// `<true/>` or `<false/>`
    case bool(Bool)
    /// `<date>`
    case date(Date)
    /// `<data>`
    case data(Data)
    /// `<array>`
    case array([PropertyListValue])
    /// `<dict>`
    case dictionary([String: PropertyListValue])

    /// The value for `key` in a dictionary; `nil` for a missing key or a value that is not a dictionary.
    public subscript(key: String) -> PropertyListValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries[key]
    }

    /// The element at `index` of an array; `nil` out of bounds or for a value that is not an array.
    public subscript(index: Int) -> PropertyListValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string, for ``string(_:)``.
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The integer, for ``integer(_:)``.
    public var integerValue: Int64? {
        guard case .integer(let value) = self else { return nil }
        return value
    }

    /// The number as a double, for ``integer(_:)`` and ``real(_:)``.
    public var realValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    /// The boolean, for ``bool(_:)``.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The date, for ``date(_:)``.
    public var dateValue: Date? {
        guard case .date(let value) = self else { return nil }
        return value
    }

    /// The bytes, for ``data(_:)``.
    public var dataValue: Data? {
        guard case .data(let value) = self else { return nil }
        return value
    }

    /// The elements, for ``array(_:)``.
    public var arrayValue: [PropertyListValue]? {
        guard case .array(let value) = self else { return nil }
        return value
    }

    /// The entries, for ``dictionary(_:)``.
    public var dictionaryValue: [String: PropertyListValue]? {
        guard case .dictionary(let value) = self else { return nil }
        return value
    }
}

extension PropertyListValue: Decodable {
    /// Decodes any property-list value, trying each kind in turn; errors other than a type mismatch
    /// are rethrown.
    ///
    /// ```swift
    /// let value = try PropertyListDecoder().decode(PropertyListValue.self, from: body)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            self = .bool(try container.decode(Bool.self))
            return
        } catch DecodingError.typeMismatch {}
        do {
            self = .string(try container.decode(String.self))
            return
        } catch DecodingError.typeMismatch {}
        if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
            return
        }
        do {
            self = .real(try container.decode(Double.self))
            return
        } catch DecodingError.typeMismatch {}
        do {
            self = .date(try container.decode(Date.self))
            return
        } catch DecodingError.typeMismatch {}
        do {
            self = .data(try container.decode(Data.self))
            return
        } catch DecodingError.typeMismatch {}
        do {
            self = .array(try container.decode([PropertyListValue].self))
            return
        } catch DecodingError.typeMismatch {}
        self = .dictionary(try container.decode([String: PropertyListValue].self))
    }
}
