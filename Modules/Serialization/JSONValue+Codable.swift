/// Decoding and encoding, so that `JSONDecoder` parses JSON into ``JSONValue`` and `JSONEncoder`
/// writes it back.
///
/// `JSONDecoder` never says what kind of value comes next: each kind is tried in turn and a type
/// mismatch moves on to the next. Any other error (a number too large for a `Double`, a string with
/// a lone surrogate escape) is rethrown, so malformed input is never turned into a different value.
/// That makes it slow for a whole document: ``init(parsing:)`` builds the same value from JSON text
/// many times faster, and is what ``JSONResponseSerializer`` uses. This conformance remains for a
/// `JSONValue` inside a `Decodable` model, and for encoding.
///
/// ```swift
/// let value = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"id": 9007199254740993}"#.utf8))
/// value["id"]  // .int(9007199254740993)
/// let bytes = try JSONEncoder().encode(value)
/// ```
extension JSONValue: Codable {
    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
            return
        }
        // Most common first: every failed attempt costs a thrown error.
        do {
            self = .string(try container.decode(String.self))
            return
        } catch DecodingError.typeMismatch {}
        // Too large for Int64, or with a fraction, the number is a double; anything else fails
        // there with the real error.
        if let integer = try? container.decode(Int64.self) {
            // -0 and -0.0 parse as the integer 0; only a double keeps the sign.
            if integer == 0, let double = try? container.decode(Double.self), double.sign == .minus {
                self = .double(double)
            } else {
                self = .int(integer)
            }
            return
        }
        do {
            self = .double(try container.decode(Double.self))
            return
        } catch DecodingError.typeMismatch {}
        do {
            self = .bool(try container.decode(Bool.self))
            return
        } catch DecodingError.typeMismatch {}
        do {
            self = .object(try container.decode([String: JSONValue].self))
            return
        } catch DecodingError.typeMismatch {}
        self = .array(try container.decode([JSONValue].self))
    }

    /// Encodes the value; a non-finite ``double(_:)`` fails as `JSONEncoder` fails for any such double.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
