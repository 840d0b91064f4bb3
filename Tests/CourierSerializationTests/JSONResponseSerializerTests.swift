import CourierHTTP
import CourierSerialization
import FoundationEssentials
import Testing

@Suite struct JSONResponseSerializerTests {
    typealias Fixtures = ResponseTestFixtures

    private func serialize(
        _ text: String,
        status: Int = 200,
        contentType: String? = "application/json",
        serializer: JSONResponseSerializer = JSONResponseSerializer()
    ) throws -> SerializedResponse<JSONValue> {
        serializer.serializedResponse(
            response: try Fixtures.response(status, contentType: contentType),
            data: Fixtures.body(text),
            request: Fixtures.request()
        )
    }

    @Test func parsesAnObject() throws {
        let outcome = try serialize(#"{"name":"Ada","born":1815,"ratio":0.5,"tags":["a",true,null],"nested":{}}"#)
        #expect(
            outcome.value
                == .object([
                    "name": .string("Ada"), "born": .int(1815), "ratio": .double(0.5),
                    "tags": .array([.string("a"), .bool(true), .null]), "nested": .object([:]),
                ])
        )
        #expect(outcome.error == nil)
    }

    @Test(arguments: ["application/json", "text/json", "text/javascript", "application/json; charset=utf-8"])
    func acceptsAFNetworkingsJSONTypes(contentType: String) throws {
        #expect(try serialize("[1]", contentType: contentType).value == [1])
    }

    @Test func stopsOnAContentTypeFailure() throws {
        let outcome = try serialize(#"{"a":1}"#, contentType: "text/html")
        #expect(outcome.value == nil)
        #expect(outcome.error?.code == .unacceptableContentType)
        #expect(outcome.error?.localizedDescription == "Request failed: unacceptable content-type: text/html")
    }

    @Test func stopsWhenTheContentTypeFailureIsUnderAStatusFailure() throws {
        let outcome = try serialize(#"{"a":1}"#, status: 500, contentType: "text/html")
        #expect(outcome.value == nil)
        #expect(Fixtures.chain(outcome.error) == ["unacceptableStatusCode", "unacceptableContentType"])
    }

    @Test func parsesDespiteAStatusFailureAndReportsBoth() throws {
        let outcome = try serialize(#"{"error":"no such item"}"#, status: 404)
        #expect(outcome.value == ["error": "no such item"])
        #expect(outcome.error?.localizedDescription == "Request failed: not found (404)")
        #expect(outcome.error?.urlErrorCode == -1011)
        #expect(throws: SerializationError.self) { try outcome.get() }
    }

    @Test(arguments: ["", " "])
    func returnsNothingForAnEmptyOrOneSpaceBody(text: String) throws {
        let outcome = try serialize(text)
        #expect(outcome.value == nil)
        #expect(outcome.error == nil)
        #expect(try outcome.get() == nil)
        let missing = JSONResponseSerializer().serializedResponse(
            response: try Fixtures.response(204),
            data: nil,
            request: nil
        )
        #expect(missing.value == nil)
        #expect(missing.error == nil)
    }

    @Test(arguments: [(204, "text/html"), (200, "application/octet-stream")])
    func returnsNothingForAnEmptyBodyOfAnotherType(status: Int, contentType: String) throws {
        // A 204 labelled text/html, or a download whose bytes went to a file, so that the
        // serializer sees empty data: no value and no error, as in AFNetworking.
        let outcome = try serialize("", status: status, contentType: contentType)
        #expect(outcome.value == nil)
        #expect(outcome.error == nil)
        #expect(try outcome.get() == nil)
    }

    @Test func reportsOnlyTheStatusForAnEmptyErrorBody() throws {
        let outcome = try serialize("", status: 500)
        #expect(outcome.value == nil)
        #expect(Fixtures.chain(outcome.error) == ["unacceptableStatusCode"])
    }

    @Test(arguments: [
        #"{"a":"#, #"[1, 2"#, "  ", "\n", "nul", "[1]x", #"{"a" 1}"#, #""unterminated"#, "{'a':1}", "[01]", "[NaN]",
        "[1e400]", #"["\ud800"]"#, "// comment\n[1]", "[.5]",
    ])
    func rejectsMalformedJSON(text: String) throws {
        let outcome = try serialize(text)
        #expect(outcome.value == nil)
        let error = try #require(outcome.error)
        #expect(error.code == .invalidJSON)
        #expect(error.domain == .response)
        #expect(error.urlErrorCode == 3840)
        #expect(error.localizedDescription == "The data couldn’t be read because it isn’t in the correct format.")
        #expect(error.failureReason == "The given data was not valid JSON.")
        #expect(error.failingURL == Fixtures.responseURL)
        #expect(error.data == Fixtures.body(text))
        #expect(Fixtures.chain(error) == ["invalidJSON", "DecodingError"])
    }

    @Test func rejectsInvalidUTF8InsideAString() throws {
        let outcome = JSONResponseSerializer().serializedResponse(
            response: try Fixtures.response(contentType: "application/json"),
            data: Data([0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D]),
            request: nil
        )
        #expect(outcome.error?.code == .invalidJSON)
    }

    @Test func chainsParseErrorThenValidationErrorThenParserError() throws {
        let outcome = try serialize("{oops", status: 422)
        #expect(outcome.value == nil)
        #expect(Fixtures.chain(outcome.error) == ["invalidJSON", "unacceptableStatusCode", "DecodingError"])
        let status = try #require(outcome.error?.underlying as? SerializationError)
        #expect(status.localizedDescription == "Request failed: unprocessable content (422)")
        #expect(status.underlying is DecodingError)
    }

    @Test(arguments: ["123", #""text""#, "true", "null", "-1.5"])
    func rejectsTopLevelFragmentsByDefault(text: String) throws {
        let outcome = try serialize(text)
        #expect(outcome.value == nil)
        #expect(outcome.error?.code == .invalidJSON)
        #expect(outcome.error?.urlErrorCode == 3840)
        #expect(
            outcome.error?.failureReason
                == "JSON text did not start with array or object and option to allow fragments not set."
        )
        #expect(outcome.error?.underlying == nil)
    }

    @Test func acceptsFragmentsWhenAllowed() throws {
        let serializer = JSONResponseSerializer(allowsFragments: true)
        #expect(try serialize("123", serializer: serializer).value == .int(123))
        #expect(try serialize(#""text""#, serializer: serializer).value == .string("text"))
        #expect(try serialize("null", serializer: serializer).value == .null)
        #expect(try serialize("false", serializer: serializer).value == .bool(false))
    }

    @Test func removesNullValuesWhenAsked() throws {
        let text = #"{"a":null,"b":[1,null,{"c":null,"d":2}],"e":{"f":null}}"#
        let kept = try serialize(text).value
        #expect(kept?["a"] == .null)
        let removed = try serialize(text, serializer: JSONResponseSerializer(removesKeysWithNullValues: true)).value
        #expect(removed == ["b": [1, ["d": 2]], "e": [:]])
    }

    @Test func keepsIntegersExact() throws {
        let outcome = try serialize("[9007199254740993, -9223372036854775808, 9223372036854775807, 1.0, 1e2, -0, 0.1]")
        #expect(
            outcome.value
                == [
                    .int(9_007_199_254_740_993), .int(Int64.min), .int(Int64.max), .int(1), .int(100), .double(-0.0),
                    .double(0.1),
                ]
        )
        #expect(outcome.value?[5]?.doubleValue?.sign == .minus)
    }

    @Test func turnsIntegersBeyondInt64IntoTheNearestDouble() throws {
        let outcome = try serialize("[9223372036854775808, 123456789012345678901234567890, 1.5e308, 1e-400]")
        #expect(
            outcome.value == [
                .double(9.223_372_036_854_775_808e18), .double(1.234_567_890_123_456_8e29), .double(1.5e308), .int(0),
            ]
        )
    }

    @Test func readsAWholeNumberInExponentFormAsTheIntegerItDenotes() throws {
        // The shortest text of the double 1753744288335170560 denotes 1753744288335170600.
        #expect(
            try serialize("[1.7537442883351706e+18, 1e3, 2.5e1]").value == [.int(1_753_744_288_335_170_600), 1000, 25]
        )
    }

    @Test func keepsTheFirstOfDuplicateKeys() throws {
        #expect(try serialize(#"{"a":1,"a":2}"#).value == ["a": 1])
    }

    @Test func acceptsTheDecodersLenientSyntax() throws {
        // FoundationEssentials' parser accepts trailing commas and a leading byte-order mark.
        #expect(try serialize("[1,2,]").value == [1, 2])
        #expect(try serialize(#"{"a":1,}"#).value == ["a": 1])
        #expect(try serialize("\u{FEFF}[1]").value == [1])
    }

    @Test func parsesNestingUpToTheParsersLimit() throws {
        let depth = 512
        let outcome = try serialize(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        var value = try #require(outcome.value)
        var levels = 1
        while case .array(let elements) = value, let first = elements.first {
            value = first
            levels += 1
        }
        #expect(levels == depth)
    }

    @Test(arguments: [513, 10_000, 100_000])
    func rejectsDeeperNestingWithoutCrashing(depth: Int) throws {
        let arrays = try serialize(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        #expect(arrays.value == nil)
        #expect(arrays.error?.code == .invalidJSON)
        let objects = try serialize(
            String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        )
        #expect(objects.error?.code == .invalidJSON)
        let unclosed = try serialize(String(repeating: "[", count: depth))
        #expect(unclosed.error?.code == .invalidJSON)
    }

    @Test func parsesWithoutAResponse() {
        let outcome = JSONResponseSerializer().serializedResponse(response: nil, data: Data("[1]".utf8), request: nil)
        #expect(outcome.value == [1])
        #expect(outcome.error == nil)
    }

    @Test func throwingShortcutReturnsTheValue() throws {
        let response = try Fixtures.response(contentType: "application/json")
        #expect(
            try JSONResponseSerializer().serialize(response: response, data: Data(#"{"ok":true}"#.utf8)) == ["ok": true]
        )
    }

    @Test func refusesNestingThatCrossesTheLimitOnTheLastByte() throws {
        // FoundationEssentials' scanner traps on exactly this input; the guard answers first.
        let outcome = try serialize(String(repeating: "[", count: 513))
        #expect(outcome.value == nil)
        #expect(outcome.error?.code == .invalidJSON)
        #expect(
            outcome.error?.failureReason
                == "Too many nested arrays or objects: more than 512 levels at byte offset 512."
        )
        #expect(Fixtures.chain(outcome.error) == ["invalidJSON"])
        let objects = try serialize(String(repeating: #"{"a":"#, count: 512) + "{")
        #expect(
            objects.error?.failureReason
                == "Too many nested arrays or objects: more than 512 levels at byte offset 2560."
        )
    }

    @Test func ignoresBracketsInsideStringsWhenCountingDepth() throws {
        // The string holds an escaped backslash, an escaped quote and 1,200 brackets.
        let text = #"["\\\"["# + String(repeating: "[{", count: 600) + #""]"#
        let outcome = try serialize(text)
        #expect(outcome.error == nil)
        #expect(outcome.value?[0]?.stringValue == #"\"["# + String(repeating: "[{", count: 600))
    }
}
