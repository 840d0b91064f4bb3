import CourierHTTP
import CourierSerialization
import CourierTestSupport
import FoundationEssentials
import Testing

/// Generates random `JSONValue` trees; seeded so that a failure can be replayed with
/// `COURIER_TEST_SEED`.
struct JSONTreeGenerator {
    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func next() -> UInt64 { random.next() }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func value(depth: Int) -> JSONValue {
        switch below(depth > 0 ? 9 : 6) {
        case 0: return .null
        case 1: return .bool(below(2) == 0)
        case 2: return .int(integer())
        case 3: return .double(double())
        case 4, 5: return .string(string())
        case 6: return .array((0..<below(6)).map { _ in value(depth: depth - 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<below(6) { members[string()] = value(depth: depth - 1) }
            return .object(members)
        }
    }

    private mutating func integer() -> Int64 {
        switch below(4) {
        case 0: return Int64(below(201)) - 100
        case 1: return Int64(bitPattern: next())
        case 2: return [Int64.min, Int64.max, 9_007_199_254_740_993, -9_007_199_254_740_993][below(4)]
        default: return Int64(bitPattern: next()) >> Int64(below(63))
        }
    }

    /// A double whose text parses back to the same value. Whole doubles from 2^53 to 2^63 are left
    /// out: their shortest text (`1.7537442883351706e+18`) denotes a different integer than the
    /// double holds, and the parser rightly returns that integer.
    private mutating func double() -> Double {
        while true {
            let candidate = anyDouble()
            let magnitude = candidate.magnitude
            if candidate == candidate.rounded(), magnitude >= 0x1p53, magnitude < 0x1p63 { continue }
            return candidate
        }
    }

    private mutating func anyDouble() -> Double {
        switch below(4) {
        case 0:
            // Any finite bit pattern: subnormals, huge magnitudes, negative zero.
            var candidate = Double(bitPattern: next())
            while !candidate.isFinite { candidate = Double(bitPattern: next()) }
            return candidate
        case 1: return Double(below(2_000_001) - 1_000_000) / 1000
        case 2:
            return [0.1, -0.0, Double.leastNonzeroMagnitude, 1.7976931348623157e308, 1e21, 0.30000000000000004][
                below(6)
            ]
        default: return Double(Int64(bitPattern: next()) >> 11) * 0x1p-20
        }
    }

    private mutating func string() -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<below(12) {
            let raw: UInt32
            switch below(5) {
            case 0: raw = UInt32(below(0x20))  // control characters, escaped by the writer
            case 1: raw = [0x22, 0x5C, 0x2F, 0x7F, 0x2028, 0x2029, 0xFEFF, 0xFFFD][below(8)]
            case 2: raw = 0x20 + UInt32(below(0x5F))
            case 3: raw = UInt32(below(0xD800))
            default: raw = 0x10000 + UInt32(below(0x100000))
            }
            if let scalar = Unicode.Scalar(raw) { scalars.append(scalar) }
        }
        return String(scalars)
    }
}

@Suite struct JSONValueRoundTripTests {
    /// JSON has one kind of number: a double that is a whole number within `Int64` comes back as an
    /// integer, except `-0`, whose sign only a double keeps.
    private func normalized(_ value: JSONValue) -> JSONValue {
        switch value {
        case .double(let double):
            if let integer = Int64(exactly: double), !(double == 0 && double.sign == .minus) { return .int(integer) }
            return value
        case .array(let elements): return .array(elements.map(normalized))
        case .object(let members): return .object(members.mapValues(normalized))
        default: return value
        }
    }

    @Test func randomTreesSurviveEncodingAndParsing() throws {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var generator = JSONTreeGenerator(seed: seed)
        let serializer = JSONResponseSerializer(allowsFragments: true)
        let response = HTTPResponse(status: .ok, headers: try HTTPHeaders([("Content-Type", "application/json")]))
        let encoder = JSONEncoder()
        for iteration in 0..<400 {
            let tree = generator.value(depth: 4)
            let body = try encoder.encode(tree)
            let outcome = serializer.serializedResponse(response: response, data: body, request: nil)
            #expect(outcome.error == nil, "seed \(seed) iteration \(iteration)")
            #expect(
                outcome.value == normalized(tree),
                "seed \(seed) iteration \(iteration): \(String(decoding: body, as: UTF8.self))"
            )
            if let value = outcome.value {
                let cleaned = value.removingNullValues()
                #expect(cleaned.removingNullValues() == cleaned)
                #expect(cleaned == .null || !containsNull(cleaned), "seed \(seed) iteration \(iteration)")
            }
        }
    }

    private func containsNull(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return true
        case .array(let elements): return elements.contains(where: containsNull)
        case .object(let members): return members.values.contains(where: containsNull)
        default: return false
        }
    }
}
