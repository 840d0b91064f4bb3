import CourierSerialization
import CourierTestSupport
import Foundation
import Testing

/// ``ParameterValue`` re-expressed through `Encodable` containers, to compare the two encoders.
private struct FormCorpusValue: Encodable {
    let value: ParameterValue

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
                if case .null = member {
                    try container.encodeNil(forKey: Key(stringValue: key))
                } else {
                    try container.encode(FormCorpusValue(value: member), forKey: Key(stringValue: key))
                }
            }
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for member in values {
                if case .null = member {
                    try container.encodeNil()
                } else {
                    try container.encode(FormCorpusValue(value: member))
                }
            }
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .int(let int):
            var container = encoder.singleValueContainer()
            try container.encode(int)
        case .double(let double):
            var container = encoder.singleValueContainer()
            try container.encode(double)
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .data, .set:
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: encoder.codingPath, debugDescription: "not shared")
            )
        }
    }
}

private struct BenchUser: Encodable {
    let name: String
    let email: String
    let tags: [String]
    let age: Int
}

private struct BenchQuery: Encodable {
    let user: BenchUser
    let q: String
    let page: Int
    let emoji: String
}

private struct Flags: Encodable {
    let enabled: Bool
    let disabled: Bool
}

private struct Optionals: Encodable {
    let a: String?
    let b: Int?
    let c: String
}

private struct Ordered: Encodable {
    let zeta: Int
    let alpha: Int
    let mid: [String: Int]
}

private struct Keys: Encodable {
    let myURLProperty: Int
    let oneTwoThree: Int
    let plain: Int
}

private struct RepeatedKey: Encodable {
    enum CodingKeys: String, CodingKey { case a, b }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(1, forKey: .a)
        try container.encode(2, forKey: .b)
        try container.encode(3, forKey: .a)
    }
}

private struct Failing: Encodable {
    struct Boom: Error {}
    func encode(to encoder: any Encoder) throws { throw Boom() }
}

@Suite struct URLEncodedFormEncoderTests {
    private let compatible = URLEncodedFormEncoder.afNetworkingCompatible

    @Test func encodesTheBenchmarkStructLikeTheParameters() throws {
        let value = BenchQuery(
            user: BenchUser(name: "Jane Doe", email: "jane@example.com", tags: ["a", "b", "c"], age: 42),
            q: "swift & linux/?",
            page: 3,
            emoji: "😀"
        )
        let parameters: Parameters = [
            "user": ["name": "Jane Doe", "email": "jane@example.com", "tags": ["a", "b", "c"], "age": 42],
            "q": "swift & linux/?", "page": 3, "emoji": "😀",
        ]
        let expected =
            "emoji=%F0%9F%98%80&page=3&q=swift%20%26%20linux/?&user%5Bage%5D=42"
            + "&user%5Bemail%5D=jane%40example.com&user%5Bname%5D=Jane%20Doe"
            + "&user%5Btags%5D%5B%5D=a&user%5Btags%5D%5B%5D=b&user%5Btags%5D%5B%5D=c"
        #expect(try URLEncodedFormEncoder().encode(value) == expected)
        #expect(try compatible.encode(value) == expected)
        #expect(QueryStringEncoder().encode(parameters) == expected)
        #expect(try compatible.encodeBytes(value) == Array(expected.utf8))
    }

    @Test func matchesQueryStringEncoderOnRandomSharedParameters() throws {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var generator = QueryCorpusGenerator(seed: seed)
        for index in 0..<1_500 {
            let parameters = generator.parameters(sharedSubset: true)
            let expected = QueryStringEncoder().encode(parameters)
            let encoded = try compatible.encode(FormCorpusValue(value: .dictionary(parameters)))
            #expect(encoded == expected, "case \(index), seed \(seed)")
            if encoded != expected { return }
        }
    }

    @Test func encodesManyKeysLikeTheParameters() throws {
        var dictionary: [String: Int] = [:]
        var parameters: Parameters = [:]
        for index in 0..<40 {
            dictionary["k\(index)"] = index
            parameters["k\(index)"] = .int(index)
        }
        #expect(
            try URLEncodedFormEncoder().encode(["nested": dictionary])
                == QueryStringEncoder().encode(["nested": .dictionary(parameters)])
        )
    }

    @Test func keepsTheFirstPositionAndTheLastValueOfARepeatedKey() throws {
        #expect(try URLEncodedFormEncoder(alphabetizeKeyValuePairs: false).encode(RepeatedKey()) == "a=3&b=2")
    }

    @Test func encodesBooleansNumericallyOrLiterally() throws {
        #expect(try URLEncodedFormEncoder().encode(Flags(enabled: true, disabled: false)) == "disabled=0&enabled=1")
        #expect(
            try URLEncodedFormEncoder(boolEncoding: .literal).encode(Flags(enabled: true, disabled: false))
                == "disabled=false&enabled=true"
        )
    }

    @Test func encodesArraysInEachStyle() throws {
        let value = ["a": [1, 2]]
        #expect(try URLEncodedFormEncoder().encode(value) == "a%5B%5D=1&a%5B%5D=2")
        #expect(try URLEncodedFormEncoder(arrayEncoding: .noBrackets).encode(value) == "a=1&a=2")
        #expect(try URLEncodedFormEncoder(arrayEncoding: .indexInBrackets).encode(value) == "a%5B0%5D=1&a%5B1%5D=2")
        #expect(
            try URLEncodedFormEncoder(arrayEncoding: .indexInBrackets).encode(["a": [[1], [2, 3]]])
                == "a%5B0%5D%5B0%5D=1&a%5B1%5D%5B0%5D=2&a%5B1%5D%5B1%5D=3"
        )
    }

    @Test func encodesNilInEachStyle() throws {
        let value = Optionals(a: nil, b: nil, c: "x")
        #expect(try URLEncodedFormEncoder().encode(value) == "c=x")
        #expect(try URLEncodedFormEncoder(nilEncoding: .dropValue).encode(value) == "a&b&c=x")
        #expect(try URLEncodedFormEncoder(nilEncoding: .emptyValue).encode(value) == "a=&b=&c=x")
        #expect(try URLEncodedFormEncoder(nilEncoding: .null).encode(value) == "a=null&b=null&c=x")
        #expect(try URLEncodedFormEncoder().encode(Optionals(a: "y", b: 2, c: "x")) == "a=y&b=2&c=x")
        #expect(try URLEncodedFormEncoder().encode(["a": [1, nil, 2]]) == "a%5B%5D=1&a%5B%5D=2")
        #expect(try compatible.encode(["a": [1, nil, 2]]) == "a%5B%5D=1&a%5B%5D&a%5B%5D=2")
    }

    @Test func encodesSpacesAsPercentOrPlus() throws {
        #expect(try URLEncodedFormEncoder().encode(["a b": "c d+"]) == "a%20b=c%20d%2B")
        #expect(try URLEncodedFormEncoder(spaceEncoding: .plusReplaced).encode(["a b": "c d+"]) == "a+b=c+d%2B")
    }

    @Test func keepsEncodingOrderWhenNotAlphabetizing() throws {
        let value = Ordered(zeta: 1, alpha: 2, mid: ["only": 3])
        #expect(
            try URLEncodedFormEncoder(alphabetizeKeyValuePairs: false).encode(value) == "zeta=1&alpha=2&mid%5Bonly%5D=3"
        )
        #expect(try URLEncodedFormEncoder().encode(value) == "alpha=2&mid%5Bonly%5D=3&zeta=1")
    }

    @Test func rewritesKeysInEachStyle() throws {
        let value = Keys(myURLProperty: 1, oneTwoThree: 2, plain: 3)
        let unsorted = { (keyEncoding: URLEncodedFormEncoder.KeyEncoding) in
            try URLEncodedFormEncoder(alphabetizeKeyValuePairs: false, keyEncoding: keyEncoding).encode(value)
        }
        #expect(try unsorted(.useDefaultKeys) == "myURLProperty=1&oneTwoThree=2&plain=3")
        #expect(try unsorted(.convertToSnakeCase) == "my_url_property=1&one_two_three=2&plain=3")
        #expect(try unsorted(.convertToKebabCase) == "my-url-property=1&one-two-three=2&plain=3")
        #expect(try unsorted(.capitalized) == "MyURLProperty=1&OneTwoThree=2&Plain=3")
        #expect(try unsorted(.uppercased) == "MYURLPROPERTY=1&ONETWOTHREE=2&PLAIN=3")
        #expect(try unsorted(.lowercased) == "myurlproperty=1&onetwothree=2&plain=3")
        #expect(try unsorted(.custom { "x_" + $0 }) == "x_myURLProperty=1&x_oneTwoThree=2&x_plain=3")
        #expect(
            try URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase).encode(["userID": ["lastName": 1]])
                == "user_id%5Blast_name%5D=1"
        )
    }

    @Test func encodesDatesInEachStyle() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.5)
        let value = ["d": date]
        #expect(
            try URLEncodedFormEncoder().encode(["d": Date(timeIntervalSinceReferenceDate: 12.5)]) == "d=12.5"
        )
        #expect(try URLEncodedFormEncoder(dateEncoding: .secondsSince1970).encode(value) == "d=1700000000.5")
        #expect(try URLEncodedFormEncoder(dateEncoding: .millisecondsSince1970).encode(value) == "d=1700000000500")
        #expect(try URLEncodedFormEncoder(dateEncoding: .iso8601).encode(value) == "d=2023-11-14T22%3A13%3A20Z")
        #expect(try URLEncodedFormEncoder(dateEncoding: .custom { _ in "then" }).encode(value) == "d=then")
    }

    @Test func encodesDataInEachStyle() throws {
        let value = ["d": Data([0xFB, 0xFF, 0x00])]
        #expect(try URLEncodedFormEncoder().encode(value) == "d=%2B/8A")
        #expect(
            try URLEncodedFormEncoder(dataEncoding: .deferredToData).encode(value)
                == "d%5B%5D=251&d%5B%5D=255&d%5B%5D=0"
        )
        #expect(try URLEncodedFormEncoder(dataEncoding: .custom { "\($0.count) bytes" }).encode(value) == "d=3%20bytes")
    }

    @Test func encodesSetsAsArraysAndURLsAsText() throws {
        #expect(try URLEncodedFormEncoder().encode(["s": Set(["x"])]) == "s%5B%5D=x")
        let url = try #require(URL(string: "https://example.com/a?b=c"))
        #expect(try URLEncodedFormEncoder().encode(["u": url]) == "u=https%3A//example.com/a?b%3Dc")
    }

    @Test func writesWholeFloatingPointNumbersWithoutFraction() throws {
        #expect(try URLEncodedFormEncoder().encode(["d": 1.0, "e": 0.25]) == "d=1&e=0.25")
        #expect(try URLEncodedFormEncoder().encode(["f": Float(2), "g": Float(0.5)]) == "f=2&g=0.5")
    }

    @Test func dropsEmptyContainers() throws {
        #expect(try URLEncodedFormEncoder().encode(["a": [Int]()]).isEmpty)
        #expect(try URLEncodedFormEncoder().encode([String: Int]()).isEmpty)
        #expect(try URLEncodedFormEncoder().encode(["a": [String: Int](), "b": ["c": 1]]) == "b%5Bc%5D=1")
    }

    @Test func rejectsTopLevelValuesThatAreNotKeyed() {
        let cases: [any Encodable] = [[1, 2], "text", 42, Int?.none]
        for value in cases {
            let error = #expect(throws: SerializationError.self) { try URLEncodedFormEncoder().encode(value) }
            #expect(error?.code == .formEncodingFailed)
            #expect(error?.domain == .request)
        }
    }

    @Test func wrapsErrorsFromTheValueAndFromClosures() {
        let valueError = #expect(throws: SerializationError.self) {
            try URLEncodedFormEncoder().encode(["f": Failing()])
        }
        #expect(valueError?.code == .formEncodingFailed)
        #expect(valueError?.underlying is Failing.Boom)
        struct DateBoom: Error {}
        let closureError = #expect(throws: SerializationError.self) {
            try URLEncodedFormEncoder(dateEncoding: .custom { _ in throw DateBoom() }).encode(["d": Date()])
        }
        #expect(closureError?.code == .formEncodingFailed)
        #expect(closureError?.underlying is DateBoom)
    }
}
