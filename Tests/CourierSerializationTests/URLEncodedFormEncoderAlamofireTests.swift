import CourierSerialization
import CourierTestSupport
import Foundation
import Testing

// The expected strings below are Alamofire 5.12.0's output: the cases named after an Alamofire test
// repeat that test's value and expectation (Tests/ParameterEncoderTests.swift, URLEncodedFormEncoderTests);
// the others were checked against Alamofire 5.12.0's URLEncodedFormEncoder run on Linux.

/// Alamofire's test fixture `EncodableStruct`: scalars, an array, dictionaries and a nested struct.
private struct Mixed: Encodable {
    struct Inner: Encodable { let a = "a" }
    let one = "one"
    let two = 2
    let three = true
    let four = [1, 2, 3]
    let five = ["a": "a"]
    let six = ["a": ["b": "b"]]
    let seven = Inner()
}

/// Alamofire's `ManuallyEncodableStruct`: arrays nested three deep through unkeyed containers.
private struct NestedArrays: Encodable {
    enum CodingKeys: String, CodingKey { case root }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var root = container.nestedUnkeyedContainer(forKey: .root)
        try root.encode([1, 2, 3])
        try root.encode(["a": ["string": "string"]])
        var deeper = root.nestedUnkeyedContainer()
        try deeper.encode([1, 2, 3])
    }
}

/// Alamofire's `EncodableSuperclass` and `EncodableSubclass`.
private class Base: Encodable {
    let one = "one"
    let two = 2
    let three = true
}

private final class Derived: Base {
    enum CodingKeys: String, CodingKey { case four, five }
    let four = [1, 2, 3]
    let five = ["a": "a", "b": "b"]

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(four, forKey: .four)
        try container.encode(five, forKey: .five)
    }
}

/// Alamofire's `ManuallyEncodableSubclass`: every kind of super encoder, writing over `four`.
private final class SuperEncoders: Base {
    enum CodingKeys: String, CodingKey { case four, five }

    override func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: CodingKeys.self)
        try keyed.encode([1, 2, 3], forKey: .four)
        try keyed.encode(["a": "a", "b": "b"], forKey: .five)
        var sameLevel = keyed.superEncoder().container(keyedBy: CodingKeys.self)
        try sameLevel.encode("one", forKey: .four)
        var underFour = keyed.superEncoder(forKey: .four).container(keyedBy: CodingKeys.self)
        try underFour.encode(2, forKey: .five)
        var unkeyed = keyed.nestedUnkeyedContainer(forKey: .four)
        var fromUnkeyed = unkeyed.superEncoder().container(keyedBy: CodingKeys.self)
        try fromUnkeyed.encode("one", forKey: .four)
    }
}

/// A key that is written literally as `a[x]`, beside a real `a[x]` path.
private struct BracketedKey: Encodable {
    enum CodingKeys: String, CodingKey {
        case literal = "a[x]"
        case a
    }
    let literal = "5"
    let a = ["x": "1", "y": "2"]
}

private struct Pair: Encodable {
    let a = 1
    let b = 2
}

private struct Search: Encodable {
    let query: String
    let ratio: Double
    let tags: [String?]
}

@Suite struct URLEncodedFormEncoderAlamofireTests {
    private let alamofire = URLEncodedFormEncoder.alamofire5

    private func encoder(_ configure: (inout URLEncodedFormEncoder) -> Void) -> URLEncodedFormEncoder {
        var encoder = URLEncodedFormEncoder.alamofire5
        configure(&encoder)
        return encoder
    }

    // MARK: Alamofire's own tests

    /// testEncoderCanEncodeDouble, testEncoderCanEncodeFloat, testEncoderCanEncodeDecimal(WithHighPrecision).
    @Test func numbersPrintAsSwiftDescribesThem() throws {
        #expect(try alamofire.encode(["a": 1.0]) == "a=1.0")
        #expect(try alamofire.encode(["a": Float(1.0)]) == "a=1.0")
        #expect(try alamofire.encode(["a": Decimal(1)]) == "a=1")
        #expect(try alamofire.encode(["a": Decimal(string: "1.123456")]) == "a=1.123456")
        #expect(try alamofire.encode(["a": Int8(1)]) == "a=1")
        #expect(try alamofire.encode(["a": UInt64(1)]) == "a=1")
        // Checked against Alamofire: the sign of zero, exponents, and Date's own encoding.
        #expect(
            try alamofire.encode(["b": -0.0, "c": 1e16, "d": 0.1, "e": 123_456_789.0])
                == "b=-0.0&c=1e%2B16&d=0.1&e=123456789.0"
        )
        #expect(try alamofire.encode(["f": Float(-0.0), "g": Float(0.1)]) == "f=-0.0&g=0.1")
        #expect(try alamofire.encode(["d": Date(timeIntervalSinceReferenceDate: 0)]) == "d=0.0")
        let seconds = encoder { $0.dateEncoding = .secondsSince1970 }
        #expect(try seconds.encode(["d": Date(timeIntervalSince1970: 1_700_000_000)]) == "d=1700000000.0")
        let milliseconds = encoder { $0.dateEncoding = .millisecondsSince1970 }
        #expect(try milliseconds.encode(["d": Date(timeIntervalSince1970: 1.5)]) == "d=1500.0")
    }

    /// testThatEncodableStructCanBeEncoded, testThatEncodableSubclassCanBeEncodedInImplementationOrderWhenAlphabetizeKeysIsFalse.
    @Test func encodesAStructSortedOrInItsOwnOrder() throws {
        #expect(
            try alamofire.encode(Mixed())
                == "five%5Ba%5D=a&four%5B%5D=1&four%5B%5D=2&four%5B%5D=3&one=one&seven%5Ba%5D=a&six%5Ba%5D%5Bb%5D=b&three=1&two=2"
        )
        #expect(
            try encoder { $0.alphabetizeKeyValuePairs = false }.encode(Mixed())
                == "one=one&two=2&three=1&four%5B%5D=1&four%5B%5D=2&four%5B%5D=3&five%5Ba%5D=a&six%5Ba%5D%5Bb%5D=b&seven%5Ba%5D=a"
        )
    }

    /// testThatManuallyEncodableStructCanBeEncoded(WithIndexInBrackets): array elements sort with the rest.
    @Test func sortsArrayElementsAsText() throws {
        #expect(
            try alamofire.encode(NestedArrays())
                == "root%5B%5D%5B%5D%5B%5D=1&root%5B%5D%5B%5D%5B%5D=2&root%5B%5D%5B%5D%5B%5D=3&root%5B%5D%5B%5D=1"
                + "&root%5B%5D%5B%5D=2&root%5B%5D%5B%5D=3&root%5B%5D%5Ba%5D%5Bstring%5D=string"
        )
        #expect(
            try encoder { $0.arrayEncoding = .indexInBrackets }.encode(NestedArrays())
                == "root%5B0%5D%5B0%5D=1&root%5B0%5D%5B1%5D=2&root%5B0%5D%5B2%5D=3&root%5B1%5D%5Ba%5D%5Bstring%5D=string"
                + "&root%5B2%5D%5B0%5D%5B0%5D=1&root%5B2%5D%5B0%5D%5B1%5D=2&root%5B2%5D%5B0%5D%5B2%5D=3"
        )
        // Checked against Alamofire: elements sort by value, and index 10 before index 2.
        #expect(try alamofire.encode(["k": ["b", "a", "c"]]) == "k%5B%5D=a&k%5B%5D=b&k%5B%5D=c")
        let indexed = try encoder { $0.arrayEncoding = .indexInBrackets }.encode(["k": Array(0...11)])
        #expect(indexed.hasPrefix("k%5B0%5D=0&k%5B1%5D=1&k%5B10%5D=10&k%5B11%5D=11&k%5B2%5D=2"))
    }

    /// Checked against Alamofire: a nested value sorts as its joined text, so pairs stay in their parent's run.
    @Test func sortsNestedValuesAsTheirJoinedText() throws {
        #expect(try alamofire.encode(BracketedKey()) == "a%5Bx%5D=1&a%5By%5D=2&a%5Bx%5D=5")
    }

    /// testThatEncodableClassWithNoInheritanceCanBeEncoded, testThatEncodableSubclassCanBeEncoded(WithIndexInBrackets),
    /// testThatEncodableSuperclassCanBeEncodedWithIndexInBrackets.
    @Test func encodesClassesAndSubclasses() throws {
        #expect(try alamofire.encode(Base()) == "one=one&three=1&two=2")
        #expect(
            try alamofire.encode(Derived())
                == "five%5Ba%5D=a&five%5Bb%5D=b&four%5B%5D=1&four%5B%5D=2&four%5B%5D=3&one=one&three=1&two=2"
        )
        let indexed = encoder { $0.arrayEncoding = .indexInBrackets }
        #expect(
            try indexed.encode(Derived())
                == "five%5Ba%5D=a&five%5Bb%5D=b&four%5B0%5D=1&four%5B1%5D=2&four%5B2%5D=3&one=one&three=1&two=2"
        )
        #expect(
            try indexed.encode(["foo": [Base()]])
                == "foo%5B0%5D%5Bone%5D=one&foo%5B0%5D%5Bthree%5D=1&foo%5B0%5D%5Btwo%5D=2"
        )
    }

    /// testThatManuallyEncodableSubclassCanBeEncoded(WithIndexInBrackets): super encoders add no `super` key.
    @Test func superEncodersWriteAtTheirOwnPath() throws {
        let expected = "five%5Ba%5D=a&five%5Bb%5D=b&four%5Bfive%5D=2&four%5Bfour%5D=one"
        #expect(try alamofire.encode(SuperEncoders()) == expected)
        #expect(try encoder { $0.arrayEncoding = .indexInBrackets }.encode(SuperEncoders()) == expected)
    }

    /// testThatArrayNestedDictionary{Int,String,Bool}ValueCanBeEncodedWithIndexInBrackets, testThatArraysCanBeEncodedWithoutBrackets,
    /// testThatArraysCanBeEncodedWithCustomClosure.
    @Test func arrayEncodings() throws {
        let indexed = encoder { $0.arrayEncoding = .indexInBrackets }
        #expect(
            try indexed.encode(["foo": [["bar": 2], ["qux": 3], ["quy": 4]]])
                == "foo%5B0%5D%5Bbar%5D=2&foo%5B1%5D%5Bqux%5D=3&foo%5B2%5D%5Bquy%5D=4"
        )
        #expect(
            try indexed.encode(["foo": [["bar": true], ["qux": false], ["quy": true]]])
                == "foo%5B0%5D%5Bbar%5D=1&foo%5B1%5D%5Bqux%5D=0&foo%5B2%5D%5Bquy%5D=1"
        )
        #expect(try encoder { $0.arrayEncoding = .noBrackets }.encode(["array": [1, 2]]) == "array=1&array=2")
        let custom = encoder { $0.arrayEncoding = .custom { key, index in "\(key).\(index + 1)" } }
        #expect(try custom.encode(["array": [1, 2]]) == "array.1=1&array.2=2")
    }

    /// Checked against Alamofire: an element that writes nothing takes no index.
    @Test func indicesCloseUpOverDroppedNils() throws {
        let indexed = encoder { $0.arrayEncoding = .indexInBrackets }
        #expect(try indexed.encode(["k": [1, nil, 3] as [Int?]]) == "k%5B0%5D=1&k%5B1%5D=3")
        // After the gap, each key of the keyed element lands in an element of its own.
        #expect(
            try indexed.encode(["k": [nil, Pair()] as [Pair?]])
                == "k%5B0%5D%5Ba%5D=1&k%5B1%5D%5Bb%5D=2"
        )
        #expect(
            try indexed.encode(Search(query: "a b", ratio: 1, tags: ["x", nil, "y"]))
                == "query=a%20b&ratio=1.0&tags%5B0%5D=x&tags%5B1%5D=y"
        )
        // With a nil that writes something, the index is kept.
        let nulls = encoder {
            $0.arrayEncoding = .indexInBrackets
            $0.nilEncoding = .null
        }
        #expect(try nulls.encode(["k": [1, nil, 3] as [Int?]]) == "k%5B0%5D=1&k%5B1%5D=null&k%5B2%5D=3")
    }

    /// Checked against Alamofire: integer coding keys are array indices.
    @Test func integerKeysAreIndices() throws {
        #expect(try alamofire.encode(["u": URL(string: "https://x.org/a?b=c")]) == "u%5B%5D=https%3A//x.org/a?b%3Dc")
        #expect(try alamofire.encode(["x": [5: "a"]]) == "x%5B%5D=a")
        // A dictionary's string key that reads as an integer is one too, so this top level is an array.
        #expect(throws: SerializationError.self) { try alamofire.encode(["9": "x"]) }
    }

    /// testThatNestedDictionariesCanHave{BracketKeyPathsByDefault,ExplicitBracketKeyPaths,DottedKeyPaths,CustomKeyPaths}.
    @Test func keyPathEncodings() throws {
        let value = ["a": ["b": "b"]]
        #expect(try alamofire.encode(value) == "a%5Bb%5D=b")
        #expect(try encoder { $0.keyPathEncoding = .brackets }.encode(value) == "a%5Bb%5D=b")
        #expect(try encoder { $0.keyPathEncoding = .dots }.encode(value) == "a.b=b")
        #expect(try encoder { $0.keyPathEncoding = .init { "-\($0)" } }.encode(value) == "a-b=b")
    }

    /// testThatKeysCanBeEncodedInto{SnakeCase,KebabCase,ACapitalizedString,ALowercasedString,AnUppercasedString},
    /// testThatKeysCanBeCustomEncoded; the nested cases were checked against Alamofire.
    @Test func keyEncodingAppliesToTheWholeKeyPath() throws {
        let value = ["oneTwoThree": "oneTwoThree"]
        #expect(try encoder { $0.keyEncoding = .convertToSnakeCase }.encode(value) == "one_two_three=oneTwoThree")
        #expect(try encoder { $0.keyEncoding = .convertToKebabCase }.encode(value) == "one-two-three=oneTwoThree")
        #expect(try encoder { $0.keyEncoding = .capitalized }.encode(value) == "OneTwoThree=oneTwoThree")
        #expect(try encoder { $0.keyEncoding = .lowercased }.encode(value) == "onetwothree=oneTwoThree")
        #expect(try encoder { $0.keyEncoding = .uppercased }.encode(value) == "ONETWOTHREE=oneTwoThree")
        #expect(try encoder { $0.keyEncoding = .custom { _ in "A" } }.encode(value) == "A=oneTwoThree")
        let snake = encoder { $0.keyEncoding = .convertToSnakeCase }
        #expect(try snake.encode(["myObj": ["someKey": ["innerKey": 1]]]) == "my_obj%5Bsome_key%5D%5Binner_key%5D=1")
        #expect(
            try encoder { $0.keyEncoding = .capitalized }.encode(["abc": ["def": ["ghi": 1]]])
                == "Abc%5Bdef%5D%5Bghi%5D=1"
        )
        // The closure sees the whole unescaped path once.
        let wrapping = encoder { $0.keyEncoding = .custom { "<\($0)>" } }
        #expect(try wrapping.encode(["a": ["b": [1]]]) == "%3Ca%5Bb%5D%5B%5D%3E=1")
    }

    /// testThatNilCanBeEncoded{ByDroppingTheKey,AsNull,ByDroppingTheValue}(ByDefault), and the synthesized variants.
    @Test func nilEncodings() throws {
        struct WithNil: Encodable {
            let one = "one"
            let two: String? = nil
        }
        let value: [String: String?] = ["a": nil]
        #expect(try alamofire.encode(value) == "")
        #expect(try alamofire.encode(WithNil()) == "one=one")
        #expect(try encoder { $0.nilEncoding = .null }.encode(value) == "a=null")
        #expect(try encoder { $0.nilEncoding = .null }.encode(WithNil()) == "one=one&two=null")
        // Alamofire's `.dropValue` is `.emptyValue` here.
        #expect(try encoder { $0.nilEncoding = .emptyValue }.encode(value) == "a=")
        #expect(try encoder { $0.nilEncoding = .emptyValue }.encode(WithNil()) == "one=one&two=")
        #expect(try encoder { $0.nilEncoding = .custom { "none" } }.encode(value) == "a=none")
        #expect(try encoder { $0.nilEncoding = .custom { nil } }.encode(WithNil()) == "one=one")
    }

    /// testThatBoolsCanBeLiteralEncoded, testThatDataCanBeEncoded, testThatSpacesCanBeEncodedAsPluses,
    /// testThatEscapedCharactersCanBeCustomized, testThatDatesCanBeEncodedAsCustomFormatted.
    @Test func scalarOptions() throws {
        #expect(try encoder { $0.boolEncoding = .literal }.encode(["bool": true]) == "bool=true")
        #expect(try alamofire.encode(["data": Data("data".utf8)]) == "data=ZGF0YQ%3D%3D")
        #expect(
            try encoder { $0.spaceEncoding = .plusReplaced }.encode(["spaces": "replace with spaces"])
                == "spaces=replace+with+spaces"
        )
        var allowed = URLEncodedFormEncoder.AllowedCharacters.afURLQueryAllowed
        allowed.remove(charactersIn: "?/")
        #expect(try encoder { $0.allowedCharacters = allowed }.encode(["allowed": "?/"]) == "allowed=%3F%2F")
        let custom = encoder { $0.dateEncoding = .custom { "\($0.timeIntervalSinceReferenceDate)" } }
        #expect(try custom.encode(["date": Date(timeIntervalSinceReferenceDate: 123.456)]) == "date=123.456")
    }

    /// testThatReservedCharactersArePercentEscaped, testThatIllegalASCIICharactersArePercentEscaped,
    /// testThatAmpersandsInKeysAndValuesArePercentEscaped, testThatQuestionMarksInKeysAndValuesAreNotPercentEscaped,
    /// testThatPlusesInKeysAndValuesArePercentEscaped, testThatNonLatinCharactersArePercentEscaped.
    @Test func escaping() throws {
        #expect(
            try alamofire.encode(["reserved": ":#[]@!$&'()*+,;="])
                == "reserved=%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D"
        )
        #expect(
            try alamofire.encode(["illegal": " \"#%<>[]\\^`{}|"])
                == "illegal=%20%22%23%25%3C%3E%5B%5D%5C%5E%60%7B%7D%7C"
        )
        #expect(
            try alamofire.encode(["foo&bar": "baz&qux", "foobar": "bazqux"]) == "foo%26bar=baz%26qux&foobar=bazqux"
        )
        #expect(try alamofire.encode(["?foo?": "?bar?"]) == "?foo?=?bar?")
        #expect(try alamofire.encode(["+foo+": "+bar+"]) == "%2Bfoo%2B=%2Bbar%2B")
        #expect(
            try alamofire.encode(["french": "français", "japanese": "日本語", "emoji": "😃"])
                == "emoji=%F0%9F%98%83&french=fran%C3%A7ais&japanese=%E6%97%A5%E6%9C%AC%E8%AA%9E"
        )
    }

    /// testThatARootArrayCannotBeEncoded, testThatARootValueCannotBeEncoded; the empty cases were checked against Alamofire.
    @Test func topLevelValues() throws {
        #expect(throws: SerializationError.self) { try alamofire.encode([1]) }
        #expect(throws: SerializationError.self) { try alamofire.encode("string") }
        #expect(try alamofire.encode([Int]()) == "")
        #expect(try alamofire.encode([String: Int]?.none) == "")
        #expect(try alamofire.encodeBytes(["a": 1.0]) == Array("a=1.0".utf8))
    }

    // MARK: The default dialect is unchanged

    @Test func theDefaultStaysAFNetworkings() throws {
        #expect(try URLEncodedFormEncoder().encode(["a": 1.0, "b": -0.0]) == "a=1&b=0")
        #expect(try URLEncodedFormEncoder().encode(BracketedKey()) == "a%5Bx%5D=1&a%5By%5D=2&a%5Bx%5D=5")
        #expect(try URLEncodedFormEncoder().encode(["u": URL(string: "https://x.org/")]) == "u=https%3A//x.org/")
        #expect(
            try URLEncodedFormEncoder(arrayEncoding: .indexInBrackets).encode(["k": [1, nil, 3] as [Int?]])
                == "k%5B0%5D=1&k%5B2%5D=3"
        )
        #expect(try URLEncodedFormEncoder().encode(SuperEncoders()).contains("super"))
    }

    /// The options Alamofire has work in AFNetworking's dialect too, over its per-key sorting.
    @Test func alamofireOptionsInTheDefaultDialect() throws {
        let custom = URLEncodedFormEncoder(arrayEncoding: .custom { key, index in "\(key).\(index + 1)" })
        #expect(try custom.encode(["array": [1, 2]]) == "array.1=1&array.2=2")
        #expect(try custom.encode(["a": ["b": [1]]]) == "a%5Bb%5D.1=1")
        #expect(try URLEncodedFormEncoder(keyPathEncoding: .dots).encode(["a": ["b": ["c": 1]]]) == "a.b.c=1")
        var brackets = URLEncodedFormEncoder.AllowedCharacters.afURLQueryAllowed
        brackets.insert(charactersIn: "[] ")
        #expect(brackets.contains("[") && !brackets.contains(" ") && !brackets.contains("é"))
        #expect(try URLEncodedFormEncoder(allowedCharacters: brackets).encode(["a": ["b c": [1]]]) == "a[b%20c][]=1")
        #expect(try URLEncodedFormEncoder(nilEncoding: .custom { "-" }).encode(["a": Int?.none]) == "a=-")
    }

    // MARK: Properties

    /// A flat dictionary is its escaped pairs, sorted as strings; an array of strings likewise.
    @Test func flatValuesAreTheirSortedPairs() throws {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var generator = QueryCorpusGenerator(seed: seed)
        for _ in 0..<300 {
            var dictionary: [String: String] = [:]
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                // A key that reads as an integer would be an array index.
                dictionary["k" + generator.string()] = generator.string()
            }
            let pairs = dictionary.map { PercentEscaping.escape($0.key) + "=" + PercentEscaping.escape($0.value) }
            #expect(try alamofire.encode(dictionary) == pairs.sorted().joined(separator: "&"), "seed \(seed)")

            let values = (0..<Int.random(in: 0...5, using: &generator)).map { _ in generator.string() }
            let elements = values.map { "k%5B%5D=" + PercentEscaping.escape($0) }
            #expect(try alamofire.encode(["k": values]) == elements.sorted().joined(separator: "&"), "seed \(seed)")
        }
    }
}
