import CourierSerialization
import FoundationEssentials
import Testing

@Suite struct JSONValueTests {
    private let sample: JSONValue = [
        "name": "Ada", "born": 1815, "ratio": 0.25, "admin": false, "tags": ["math", nil], "extra": nil,
    ]

    @Test func readsMembersAndElements() {
        #expect(sample["name"]?.stringValue == "Ada")
        #expect(sample["born"]?.intValue == 1815)
        #expect(sample["born"]?.doubleValue == 1815)
        #expect(sample["ratio"]?.doubleValue == 0.25)
        #expect(sample["ratio"]?.intValue == nil)
        #expect(sample["admin"]?.boolValue == false)
        #expect(sample["tags"]?[0]?.stringValue == "math")
        #expect(sample["tags"]?[1]?.isNull == true)
        #expect(sample["tags"]?[2] == nil)
        #expect(sample["tags"]?[-1] == nil)
        #expect(sample["missing"] == nil)
        #expect(sample[0] == nil)
        #expect(sample["name"]?["x"] == nil)
        #expect(sample["tags"]?.arrayValue?.count == 2)
        #expect(sample.objectValue?.count == 6)
        #expect(JSONValue.string("x").objectValue == nil)
    }

    @Test func removesNullMembersAndElementsRecursively() {
        let value: JSONValue = ["a": nil, "b": [1, nil, ["c": nil, "d": [nil, nil]]], "e": "x"]
        #expect(value.removingNullValues() == ["b": [1, ["d": []]], "e": "x"])
        #expect(JSONValue.null.removingNullValues() == .null)
        #expect(JSONValue.array([nil, nil]).removingNullValues() == [])
        #expect(JSONValue.int(3).removingNullValues() == 3)
    }

    @Test func distinguishesIntegersFromDoublesForEquality() {
        #expect(JSONValue.int(1) != JSONValue.double(1))
        #expect(JSONValue.int(1).doubleValue == JSONValue.double(1).doubleValue)
    }

    @Test func encodesToCanonicalJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let value: JSONValue = ["b": 9_007_199_254_740_993, "a": [true, nil, 1.5, "x/\"y\"", -0.0], "c": [:]]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(text == #"{"a":[true,null,1.5,"x/\"y\"",-0],"b":9007199254740993,"c":{}}"#)
    }

    @Test func failsToEncodeNonFiniteNumbers() {
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(JSONValue.double(.nan)) }
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(JSONValue.array([.double(.infinity)])) }
    }

    @Test func decodesAsAMemberOfATypedModel() throws {
        struct Envelope: Decodable {
            let kind: String
            let payload: JSONValue
        }
        let envelope = try JSONDecoder().decode(
            Envelope.self,
            from: Data(#"{"kind":"k","payload":{"x":[1,"y"]}}"#.utf8)
        )
        #expect(envelope.payload == ["x": [1, "y"]])
    }
}

@Suite struct JSONValueDescriptionTests {
    @Test func describesItselfAsCompactSortedJSON() {
        let value: JSONValue = ["b": [1, 2.5, true], "a": nil, "c": "q\"\\\n\u{1}é"]
        #expect(value.description == #"{"a":null,"b":[1,2.5,true],"c":"q\"\\\n\u0001é"}"#)
        #expect(JSONValue.double(.infinity).description == "null")
    }
}
