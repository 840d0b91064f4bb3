import CourierSerialization
import CourierTestSupport
import Foundation
import Testing

@Suite struct QueryStringEncoderTests {
    private let encoder = QueryStringEncoder()

    /// The straightforward rendering of the shared flattening, as the specification of the output.
    private static func reference(_ parameters: Parameters) -> String {
        ParameterValue.flatten(parameters).map { pair in
            let field = PercentEscaping.escape(pair.field)
            switch pair.value {
            case .null:
                return field
            case .data(let data):
                var bytes: [UInt8] = []
                PercentEscaping.escape(data, into: &bytes)
                return field + "=" + String(decoding: bytes, as: UTF8.self)
            default:
                return field + "=" + PercentEscaping.escape(pair.value.textValue)
            }
        }.joined(separator: "&")
    }

    @Test func encodesEmptyParametersAsEmptyString() {
        #expect(encoder.encode([:]).isEmpty)
        #expect(encoder.encodeBytes([:]).isEmpty)
    }

    @Test func encodesSinglePair() {
        #expect(encoder.encode(["key": "value"]) == "key=value")
    }

    @Test func escapesEveryReservedCharacterButSlashAndQuestionMark() {
        #expect(
            encoder.encode(["key": " :#[]@!$&'()*+,;=/?"])
                == "key=%20%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D/?"
        )
    }

    @Test func escapesPreEscapedTextAgain() {
        #expect(
            encoder.encode(["key": "%20%21%22%23%24%25%26%27%28%29%2A%2B%2C%2F"])
                == "key=%2520%2521%2522%2523%2524%2525%2526%2527%2528%2529%252A%252B%252C%252F"
        )
    }

    @Test func keepsUnreservedCharacters() {
        #expect(encoder.encode(["k": "AZaz09-._~"]) == "k=AZaz09-._~")
    }

    @Test func escapesNonASCIIAsUTF8Bytes() {
        #expect(encoder.encode(["k": "🐶"]) == "k=%F0%9F%90%B6")
        #expect(encoder.encode(["k": "👍🏽é"]) == "k=%F0%9F%91%8D%F0%9F%8F%BD%C3%A9")
        #expect(encoder.encode(["ü": "x"]) == "%C3%BC=x")
    }

    @Test func encodesNestedDictionaryWithEscapedBrackets() {
        #expect(encoder.encode(["key": ["nested": "value"]]) == "key%5Bnested%5D=value")
        #expect(encoder.encode(["a": ["b": ["c": 1]]]) == "a%5Bb%5D%5Bc%5D=1")
    }

    @Test func encodesArrayElementsUnderEmptyBrackets() {
        #expect(encoder.encode(["key": ["value1", "value2"]]) == "key%5B%5D=value1&key%5B%5D=value2")
    }

    @Test func encodesSetMembersSortedUnderTheSameField() {
        #expect(encoder.encode(["key": .set(["value2", "value1"])]) == "key=value1&key=value2")
    }

    @Test func encodesNullAsBareField() {
        #expect(encoder.encode(["key": nil]) == "key")
        #expect(encoder.encode(["a": [nil, "x"]]) == "a%5B%5D&a%5B%5D=x")
    }

    @Test func dropsEmptyContainers() {
        #expect(encoder.encode(["a": [:], "b": [], "c": .set([]), "d": 1]) == "d=1")
        #expect(encoder.encode(["a": ["b": [:]]]).isEmpty)
    }

    @Test func writesScalarsAsAFNetworkingDoes() {
        let parameters: Parameters = [
            "t": true, "f": false, "d": 1.0, "h": 0.5, "n": -42, "min": .int(Int.min), "big": 1e20,
        ]
        #expect(encoder.encode(parameters) == "big=1e%2B20&d=1&f=0&h=0.5&min=-9223372036854775808&n=-42&t=1")
    }

    @Test func escapesEveryByteValueExactlyAsPercentEscaping() {
        for byte in UInt8.min...UInt8.max {
            var expected: [UInt8] = []
            PercentEscaping.escape([byte], into: &expected)
            #expect(encoder.encode(["k": .data(Data([byte]))]) == "k=" + String(decoding: expected, as: UTF8.self))
        }
        let ascii = String(decoding: (0...127).map { UInt8($0) }, as: UTF8.self)
        #expect(
            encoder.encode([ascii: .string(ascii)]) == PercentEscaping.escape(ascii) + "="
                + PercentEscaping.escape(ascii)
        )
    }

    @Test func escapesDataByteByByte() {
        #expect(encoder.encode(["d": .data(Data([0x00, 0xFF, 0x41, 0x20, 0x2F]))]) == "d=%00%FFA%20/")
    }

    @Test func sortsKeysByUTF16CodeUnits() {
        // U+1F600 is a surrogate pair (0xD83D…) and so sorts before U+E000 in UTF-16, though after it
        // in code-point order; upper case sorts before lower case.
        let parameters: Parameters = ["b": 1, "a": 1, "B": 1, "😀": 1, "\u{E000}": 1, "aa": 1]
        #expect(encoder.encode(parameters) == "B=1&a=1&aa=1&b=1&%F0%9F%98%80=1&%EE%80%80=1")
    }

    @Test func bracketsNestedKeysUnderAnEmptyTopLevelKey() {
        #expect(encoder.encode(["": ["x": 1]]) == "%5Bx%5D=1")
        #expect(encoder.encode(["": "v"]) == "=v")
    }

    @Test func encodesArraysOfContainers() {
        #expect(
            encoder.encode(["a": [["b": 1], [2, 3]]])
                == "a%5B%5D%5Bb%5D=1&a%5B%5D%5B%5D=2&a%5B%5D%5B%5D=3"
        )
    }

    @Test func encodesTheBenchmarkDictionaryAsAlamofireDoes() {
        let parameters: Parameters = [
            "user": ["name": "Jane Doe", "email": "jane@example.com", "tags": ["a", "b", "c"], "age": 42],
            "q": "swift & linux/?",
            "page": 3,
            "emoji": "😀",
        ]
        #expect(
            encoder.encode(parameters)
                == "emoji=%F0%9F%98%80&page=3&q=swift%20%26%20linux/?&user%5Bage%5D=42"
                + "&user%5Bemail%5D=jane%40example.com&user%5Bname%5D=Jane%20Doe"
                + "&user%5Btags%5D%5B%5D=a&user%5Btags%5D%5B%5D=b&user%5Btags%5D%5B%5D=c"
        )
    }

    @Test func encodesQueriesLongerThanItsInitialBuffers() {
        let long = String(repeating: "é&", count: 5_000)
        var nested: ParameterValue = ["leaf": .string(long)]
        for level in 0..<60 { nested = ["level\(level) key": nested, "n\(level)": .int(level)] }
        let parameters: Parameters = [
            "root": nested, "long": .string(long), "data": .data(Data(repeating: 0xAB, count: 4_000)),
        ]
        #expect(encoder.encode(parameters) == Self.reference(parameters))
        #expect(encoder.encodeBytes(parameters) == Array(Self.reference(parameters).utf8))
        #expect(encoder.encode(parameters).utf8.count > 100_000)
    }

    @Test func matchesTheFlattenedRenderingOnRandomParameters() {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var generator = QueryCorpusGenerator(seed: seed)
        for index in 0..<1_500 {
            let parameters = generator.parameters()
            let encoded = encoder.encode(parameters)
            let expected = Self.reference(parameters)
            #expect(encoded == expected, "case \(index), seed \(seed)")
            #expect(encoder.encodeBytes(parameters) == Array(expected.utf8), "case \(index), seed \(seed)")
            if encoded != expected { return }
        }
    }

    @Test func roundTripsThroughAQueryParserOnRandomParameters() {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var generator = QueryCorpusGenerator(seed: seed)
        for index in 0..<1_500 {
            let parameters = generator.parameters()
            let encoded = encoder.encode(parameters)
            // An empty string cannot tell "no pairs" from one null pair with an empty field.
            let parsed = encoded.isEmpty ? [] : TestQueryParser.parse(encoded)
            let expected = TestQueryParser.expectedPairs(parameters).filter {
                !encoded.isEmpty || !$0.field.isEmpty || $0.value != nil
            }
            #expect(parsed == expected, "case \(index), seed \(seed): \(encoded)")
            if parsed != expected { return }
        }
    }

    @Test func ordersKeysExactlyAsTheSharedComparison() {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var generator = QueryCorpusGenerator(seed: seed)
        for _ in 0..<2_000 {
            let a = generator.string(maxFragments: 3)
            let b = generator.string(maxFragments: 3)
            guard a != b else { continue }
            let expected = a.utf16.lexicographicallyPrecedes(b.utf16)
            var parameters: Parameters = [:]
            parameters[a] = 1
            parameters[b] = 2
            let encoded = encoder.encode(parameters)
            let first = PercentEscaping.escape(expected ? a : b)
            #expect(encoded.hasPrefix(first + "="), "seed \(seed): \(a.debugDescription) vs \(b.debugDescription)")
        }
    }
}

@Suite struct SetOrderingTests {
    @Test func membersWithEqualTextAreOrderedByKindThenBytes() {
        let members: Set<ParameterValue> = [
            .string(""), .null, .data(Data([0xFF])), .string("\u{FFFD}"), .data(Data()),
        ]
        let encoded = QueryStringEncoder().encode(["k": .set(members)])
        #expect(encoded == "k&k=&k=&k=%EF%BF%BD&k=%FF")
        #expect(
            ParameterValue.flatten(["k": .set(members)]).map(\.value) == [
                .null, .string(""), .data(Data()), .string("\u{FFFD}"), .data(Data([0xFF])),
            ]
        )
    }
}
