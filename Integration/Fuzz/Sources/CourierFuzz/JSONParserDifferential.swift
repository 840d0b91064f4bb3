import FoundationEssentials

@testable import CourierSerialization

/// `json-parser`: Courier's JSON parser (`JSONValue(parsing:)`) against `JSONDecoder` decoding
/// `JSONValue`, the path it replaced (``JSONDecoderReference``), on the same bytes. Both must accept
/// or both refuse, and where both accept the values must be equal (but for the sign of a negative
/// zero, and for malformed values of repeated keys, which `JSONDecoder` never reads: both documented
/// on `JSONValue(parsing:)`); anything else stops the fuzzer with the case.
enum JSONParserDifferential {
    static func run(_ data: Data) {
        let parsed = Result { try JSONValue(parsing: data) }
        let expected = JSONDecoderReference.value(of: [UInt8](data))
        switch (parsed, expected) {
        case (.failure, nil):
            return
        case (.failure(let error), _?) where refusedInIgnoredDuplicate(error, data):
            return
        case (.success(let value), let expected?)
        where JSONDecoderReference.zeroSignIgnored(value) == JSONDecoderReference.zeroSignIgnored(expected):
            return
        default:
            let text = String(decoding: data, as: UTF8.self).debugDescription
            fatalError("json parser: \(text) parsed as \(parsed), JSONDecoder read \(String(describing: expected))")
        }
    }

    /// Whether the parser refused the text inside the value of a repeated key, which `JSONDecoder`
    /// skips (``IgnoredDuplicateValues``).
    static func refusedInIgnoredDuplicate(_ error: any Error, _ data: Data) -> Bool {
        guard case DecodingError.dataCorrupted(let context) = error,
            let failure = context.underlyingError as? JSONParsingError
        else { return false }
        return IgnoredDuplicateValues.ranges(in: [UInt8](data)).contains { $0.contains(failure.offset) }
    }
}
