import CourierSerialization
import FoundationEssentials

/// The query encoder round trip: parameters built from the fuzzer's bytes, encoded by
/// `QueryStringEncoder` (and as a form body by `HTTPRequestSerializer`), parsed back by the WHATWG
/// parser (`FormURLEncodedParser`, checked against werkzeug over the integration tests' corpus),
/// must give exactly the flattened pairs; anything else stops the fuzzer with the case.
enum QueryRoundTrip {
    static let encoder = QueryStringEncoder()

    static func run(_ data: Data) {
        var reader = FuzzBytes(data)
        let parameters = reader.parameters(depth: 3)
        let expected = expectedPairs(parameters)
        let query = encoder.encodeBytes(parameters)
        let parsed = FormURLEncodedParser.parse(query)
        guard parsed == expected else {
            fatalError(
                "query round trip: \(String(decoding: query, as: UTF8.self)) parsed as \(parsed), expected \(expected)"
            )
        }
    }

    /// What a correct decoder recovers: each flattened pair's field and its text (a `.data` value's
    /// bytes as they are); a null is a bare field, read as the empty value, and skipped when its
    /// field is empty too (an empty segment).
    static func expectedPairs(_ parameters: Parameters) -> [FormURLEncodedParser.Pair] {
        ParameterValue.flatten(parameters).compactMap { pair in
            let name = Array(pair.field.utf8)
            switch pair.value {
            case .null: return name.isEmpty ? nil : FormURLEncodedParser.Pair(name: name, value: [])
            case .data(let bytes): return FormURLEncodedParser.Pair(name: name, value: Array(bytes))
            default: return FormURLEncodedParser.Pair(name: name, value: Array(pair.value.textValue.utf8))
            }
        }
    }
}

/// Reads structure out of the fuzzer's bytes: every choice takes the next byte, and the input
/// running out ends every collection, so any input is a valid, finite description.
struct FuzzBytes {
    private let bytes: [UInt8]
    private var index = 0

    init(_ data: Data) { bytes = [UInt8](data) }

    var isAtEnd: Bool { index >= bytes.count }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// Up to 15 bytes read as UTF-8 (invalid sequences become U+FFFD, as any String would hold them).
    mutating func string() -> String {
        let count = Int(byte() % 16)
        var raw: [UInt8] = []
        for _ in 0..<count where !isAtEnd { raw.append(byte()) }
        return String(decoding: raw, as: UTF8.self)
    }

    mutating func value(depth: Int) -> ParameterValue {
        switch byte() % (depth > 0 ? 10 : 7) {
        case 0, 1: return .string(string())
        case 2: return .int(Int(Int16(bitPattern: UInt16(byte()) << 8 | UInt16(byte()))))
        case 3: return .double([0, 0.5, 1, -2, 0.1, 1e20, 123_456_789, -0.0][Int(byte() % 8)])
        case 4: return .bool(byte() % 2 == 0)
        case 5: return .null
        case 6: return .data(Data((0..<Int(byte() % 8)).map { _ in byte() }))
        case 7: return .dictionary(parameters(depth: depth - 1))
        case 8: return .array((0..<Int(byte() % 4)).map { _ in value(depth: depth - 1) })
        default: return .set(Set((0..<Int(byte() % 4)).map { _ in value(depth: 0) }))
        }
    }

    mutating func parameters(depth: Int) -> Parameters {
        var result: Parameters = [:]
        for _ in 0..<Int(byte() % 6) where !isAtEnd { result[string()] = value(depth: depth) }
        return result
    }
}
