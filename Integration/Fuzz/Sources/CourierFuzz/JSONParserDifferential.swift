import CourierSerialization
import FoundationEssentials

/// `json-parser`: Courier's JSON parser (`JSONValue(parsing:)`) against `JSONDecoder` decoding
/// `JSONValue`, the path it replaced (``JSONDecoderReference``), on the same bytes. Both must accept
/// or both refuse, and where both accept the values must be equal (but for the sign of a negative
/// zero, documented on `JSONValue(parsing:)`); anything else stops the fuzzer with the case.
enum JSONParserDifferential {
    static func run(_ data: Data) {
        let parsed = Result { try JSONValue(parsing: data) }
        let expected = JSONDecoderReference.value(of: [UInt8](data))
        switch (parsed, expected) {
        case (.failure, nil):
            return
        case (.success(let value), let expected?)
        where JSONDecoderReference.zeroSignIgnored(value) == JSONDecoderReference.zeroSignIgnored(expected):
            return
        default:
            let text = String(decoding: data, as: UTF8.self).debugDescription
            fatalError("json parser: \(text) parsed as \(parsed), JSONDecoder read \(String(describing: expected))")
        }
    }
}
