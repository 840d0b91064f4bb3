import CourierSerialization
import CourierTestSupport
import Foundation

/// A seeded generator that builds random ``Parameters`` for the query-string, form and
/// request-serializer property tests.
///
/// The seed comes from `COURIER_TEST_SEED` when set, so a failing run can be replayed.
struct QueryCorpusGenerator: RandomNumberGenerator {
    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func next() -> UInt64 { random.next() }

    /// Text fragments chosen to hit every escaping rule: reserved and unreserved ASCII, `%`, `+`,
    /// space, multi-byte UTF-8, emoji with modifiers, code points above U+E000 (the UTF-16 ordering
    /// edge), and the empty string.
    static let fragments: [String] = [
        "a", "Z", "0", "9", "-", ".", "_", "~", "/", "?", " ", "+", "%", "%20", "&", "=", "#", "[", "]",
        "@", "!", "$", "'", "(", ")", "*", ",", ";", ":", "\"", "<", ">", "\\", "^", "`", "{", "|", "}",
        "é", "ü", "ß", "中", "文", "😀", "👍🏽", "🇫🇷", "\u{E000}", "\u{FFFD}", "\u{1F600}", "\u{0301}",
        "name", "user", "q", "tags", "x y", "\t", "\n",
    ]

    mutating func string(maxFragments: Int = 4) -> String {
        let count = Int.random(in: 0...maxFragments, using: &self)
        var text = ""
        for _ in 0..<count { text += Self.fragments.randomElement(using: &self) ?? "" }
        return text
    }

    mutating func key() -> String {
        // Mostly short distinct keys; sometimes awkward ones.
        Bool.random(using: &self)
            ? ["a", "b", "c", "key", "Key", "k2", "10", "9"].randomElement(using: &self) ?? "a" : string()
    }

    /// A random value; `sharedSubset` limits it to what an `Encodable` value can express the same way
    /// (no sets, no data).
    mutating func value(depth: Int, sharedSubset: Bool) -> ParameterValue {
        let scalarKinds = sharedSubset ? 5 : 7
        let kinds = depth > 0 ? scalarKinds + (sharedSubset ? 2 : 3) : scalarKinds
        switch Int.random(in: 0..<kinds, using: &self) {
        case 0: return .string(string())
        case 1: return .int(Int.random(in: -1_000_000...1_000_000, using: &self))
        case 2: return .double([0, 0.5, 1, -2, 0.1, 3.25, 1e20, -1e-7, 123_456_789].randomElement(using: &self) ?? 0)
        case 3: return .bool(Bool.random(using: &self))
        case 4: return .null
        case 5 where !sharedSubset:
            return .data(
                Data((0..<Int.random(in: 0...6, using: &self)).map { _ in UInt8.random(in: 0...255, using: &self) })
            )
        case 6 where !sharedSubset:
            return .string(string())
        default:
            break
        }
        // Containers.
        let containerKind = Int.random(in: 0..<(sharedSubset ? 2 : 3), using: &self)
        let count = Int.random(in: 0...3, using: &self)
        switch containerKind {
        case 0: return .dictionary(parameters(depth: depth - 1, count: count, sharedSubset: sharedSubset))
        case 1: return .array((0..<count).map { _ in value(depth: depth - 1, sharedSubset: sharedSubset) })
        default:
            return .set(Set((0..<count).map { _ in value(depth: depth - 1, sharedSubset: sharedSubset) }))
        }
    }

    mutating func parameters(depth: Int = 3, count: Int? = nil, sharedSubset: Bool = false) -> Parameters {
        let count = count ?? Int.random(in: 0...6, using: &self)
        var result: Parameters = [:]
        for _ in 0..<count { result[key()] = value(depth: depth, sharedSubset: sharedSubset) }
        return result
    }
}

/// A test-only query parser: splits on `&`, then at the first `=`, and percent-decodes both sides to
/// bytes. A pair without `=` has a `nil` value (a null marker).
enum TestQueryParser {
    struct Pair: Equatable, CustomStringConvertible {
        let field: [UInt8]
        let value: [UInt8]?
        var description: String {
            let field = String(decoding: field, as: UTF8.self)
            guard let value else { return field.debugDescription }
            return "\(field.debugDescription)=\(String(decoding: value, as: UTF8.self).debugDescription)"
        }
    }

    static func parse(_ query: String) -> [Pair]? {
        guard !query.isEmpty else { return [] }
        var pairs: [Pair] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: false) {
            let bytes = Array(part.utf8)
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                guard let field = decode(bytes[..<equals]), let value = decode(bytes[(equals + 1)...]) else {
                    return nil
                }
                pairs.append(Pair(field: field, value: value))
            } else {
                guard let field = decode(bytes[...]) else { return nil }
                pairs.append(Pair(field: field, value: nil))
            }
        }
        return pairs
    }

    /// Percent-decodes; also rejects any byte the encoder must never leave unescaped.
    static func decode(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                    let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2])
                else { return nil }
                output.append(high << 4 | low)
                index += 3
            } else {
                guard PercentEscaping.isUnescaped(byte) else { return nil }
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil  // the encoder writes upper-case hex only
        }
    }

    /// The pairs a correct encoder must produce, from the shared flattening.
    static func expectedPairs(_ parameters: Parameters) -> [Pair] {
        ParameterValue.flatten(parameters).map { pair in
            let field = Array(pair.field.utf8)
            switch pair.value {
            case .null: return Pair(field: field, value: nil)
            case .data(let data): return Pair(field: field, value: Array(data))
            default: return Pair(field: field, value: Array(pair.value.textValue.utf8))
            }
        }
    }
}
