internal import FoundationEssentials

/// ``ParameterValue`` as an `Encodable` tree for `JSONEncoder` and `PropertyListEncoder`.
///
/// The two formats reject different values, as AFNetworking's writers do (`NSJSONSerialization`,
/// `NSPropertyListSerialization`): JSON has no sets and no bytes; property lists have no null and no
/// sets. A rejected value throws `EncodingError.invalidValue` with its coding path, which the request
/// serializer wraps.
struct EncodableParameterValue: Encodable {
    enum Format {
        case json
        case propertyList
    }

    let value: ParameterValue
    let format: Format

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .dictionary(let dictionary):
            var container = encoder.container(keyedBy: Key.self)
            for (key, member) in dictionary {
                try container.encode(
                    EncodableParameterValue(value: member, format: format),
                    forKey: Key(stringValue: key)
                )
            }
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for member in values { try container.encode(EncodableParameterValue(value: member, format: format)) }
        default:
            var container = encoder.singleValueContainer()
            try encodeScalar(into: &container)
        }
    }

    private func encodeScalar(into container: inout any SingleValueEncodingContainer) throws {
        switch value {
        case .string(let string): try container.encode(string)
        case .int(let int): try container.encode(int)
        case .double(let double): try container.encode(double)
        case .bool(let bool): try container.encode(bool)
        case .data(let data):
            guard format == .propertyList else { throw rejection("bytes (.data) have no JSON form", at: container) }
            try container.encode(data)
        case .null:
            guard format == .json else { throw rejection("a property list has no null", at: container) }
            try container.encodeNil()
        case .set:
            throw rejection("a set is neither a JSON nor a property-list value", at: container)
        case .dictionary, .array:
            throw rejection("a container reached the scalar path", at: container)
        }
    }

    private func rejection(_ reason: String, at container: any SingleValueEncodingContainer) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(codingPath: container.codingPath, debugDescription: reason)
        )
    }
}
