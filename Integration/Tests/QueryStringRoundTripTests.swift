import CourierHTTP
import CourierSerialization
import CourierTestSupport
import Foundation
import Testing

/// A seeded generator of random ``Parameters`` for the werkzeug round trip.
private struct WerkzeugCorpusGenerator: RandomNumberGenerator {
    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func next() -> UInt64 { random.next() }

    static let fragments: [String] = [
        "a", "Z", "0", "-", ".", "_", "~", "/", "?", " ", "+", "%", "%20", "&", "=", "#", "[", "]", "@", "!",
        "$", "'", "(", ")", "*", ",", ";", ":", "\"", "<", ">", "\\", "^", "`", "{", "|", "}", "é", "ß", "中",
        "😀", "👍🏽", "🇫🇷", "\u{E000}", "\u{0301}", "name", "user", "tags", "x y", "\t",
    ]

    mutating func string() -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...4, using: &self) { text += Self.fragments.randomElement(using: &self) ?? "" }
        return text
    }

    mutating func value(depth: Int) -> ParameterValue {
        switch Int.random(in: 0..<(depth > 0 ? 10 : 7), using: &self) {
        case 0, 1: return .string(string())
        case 2: return .int(Int.random(in: -1_000_000...1_000_000, using: &self))
        case 3: return .double([0, 0.5, 1, -2, 0.1, 1e20, 123_456_789].randomElement(using: &self) ?? 0)
        case 4: return .bool(Bool.random(using: &self))
        case 5: return .null
        case 6:
            return .data(
                Data((0..<Int.random(in: 0...5, using: &self)).map { _ in UInt8.random(in: 0...255, using: &self) })
            )
        case 7: return .dictionary(parameters(depth: depth - 1))
        case 8: return .array((0..<Int.random(in: 0...3, using: &self)).map { _ in value(depth: depth - 1) })
        default: return .set(Set((0..<Int.random(in: 0...3, using: &self)).map { _ in value(depth: 0) }))
        }
    }

    mutating func parameters(depth: Int = 3) -> Parameters {
        var result: Parameters = [:]
        for _ in 0..<Int.random(in: 0...5, using: &self) {
            let key =
                Bool.random(using: &self)
                ? (["a", "b", "key", "Key", "9"].randomElement(using: &self) ?? "a") : string()
            result[key] = value(depth: depth)
        }
        return result
    }
}

private struct WerkzeugRequest: Encodable {
    struct Case: Encodable {
        let query: String
        let form: String?
        let expected: [[String?]]
    }
    let cases: [Case]
}

private struct WerkzeugReport: Decodable {
    let werkzeug: String
    let cases: Int
    let checked: Int
    let mismatches: [Mismatch]

    struct Mismatch: Decodable, CustomStringConvertible {
        let index: Int
        let kind: String
        let input: String
        var description: String { "#\(index) \(kind): \(input)" }
    }
}

@Suite struct QueryStringRoundTripTests {
    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The flattened (field, value) pairs a correct decoder must recover; null values have no value.
    private static func expectedPairs(_ parameters: Parameters) -> [[String?]] {
        ParameterValue.flatten(parameters).map { pair in
            let field = hex(pair.field.utf8)
            switch pair.value {
            case .null: return [field, nil]
            case .data(let data): return [field, hex(data)]
            default: return [field, hex(pair.value.textValue.utf8)]
            }
        }
    }

    /// The expected pairs as the WHATWG parser returns them: a bare field reads as the empty value,
    /// an empty bare field (an empty segment) is skipped, as werkzeug does.
    private static func expectedParsedPairs(_ pairs: [[String?]]) -> [FormURLEncodedParser.Pair] {
        pairs.compactMap { pair in
            let name = bytes(fromHex: pair.first.flatMap { $0 } ?? "")
            guard let valueHex = pair.count > 1 ? pair[1] : nil else {
                return name.isEmpty ? nil : FormURLEncodedParser.Pair(name: name, value: [])
            }
            return FormURLEncodedParser.Pair(name: name, value: bytes(fromHex: valueHex))
        }
    }

    private static func bytes(fromHex hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap { index in
            UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16)
        }
    }

    @Test(.enabled(if: IntegrationEnvironment.python != nil, "COURIER_PYTHON not set"))
    func werkzeugDecodesQueryStringsAndFormBodiesIntoTheFlattenedPairs() async throws {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var generator = WerkzeugCorpusGenerator(seed: seed)
        let serializer = HTTPRequestSerializer(preferredLanguages: [], userAgent: nil)
        let encoder = QueryStringEncoder()
        var cases: [WerkzeugRequest.Case] = []
        for _ in 0..<400 {
            let parameters = generator.parameters()
            let post = try serializer.request(
                method: .post,
                urlString: "http://example.test/form",
                parameters: parameters
            )
            let form = String(decoding: post.body.bytes ?? Data(), as: UTF8.self)
            cases.append(.init(query: encoder.encode(parameters), form: form, expected: Self.expectedPairs(parameters)))
        }
        // The WHATWG parser the query fuzz target checks the encoder with must read this corpus as
        // werkzeug does (the same expected pairs, here also in order).
        for (index, testCase) in cases.enumerated() {
            let expected = Self.expectedParsedPairs(testCase.expected)
            #expect(FormURLEncodedParser.parse(Array(testCase.query.utf8)) == expected, "seed \(seed) #\(index) query")
            if let form = testCase.form {
                #expect(FormURLEncodedParser.parse(Array(form.utf8)) == expected, "seed \(seed) #\(index) form")
            }
        }
        let input = try JSONEncoder().encode(WerkzeugRequest(cases: cases))
        let result = try await runPythonTool("werkzeug_query.py", input: input)
        #expect(result.status == 0, "werkzeug_query.py failed: \(result.standardError)")
        let report = try JSONDecoder().decode(WerkzeugReport.self, from: result.standardOutput)
        print("werkzeug \(report.werkzeug): \(report.checked) decodings of \(report.cases) cases, seed \(seed)")
        #expect(report.cases == cases.count)
        #expect(report.checked == cases.count * 2)
        #expect(report.mismatches.isEmpty, "seed \(seed): \(report.mismatches.prefix(5))")
    }
}
