import CourierHTTP
import CourierSerialization
import CourierTestSupport
import FoundationEssentials
import Testing

@Suite struct DecodableResponseSerializerTests {
    typealias Fixtures = ResponseTestFixtures

    struct Item: Decodable, Sendable, Equatable {
        let id: Int
        let name: String
    }

    struct Catalog: Decodable, Sendable, Equatable {
        let items: [Item]
    }

    private func decode<Value: Decodable & Sendable>(
        _ type: Value.Type,
        _ text: String,
        status: Int = 200,
        contentType: String? = "application/json",
        method: HTTPMethod = .get,
        serializer: DecodableResponseSerializer<Value> = DecodableResponseSerializer()
    ) throws -> SerializedResponse<Value> {
        serializer.serializedResponse(
            response: try Fixtures.response(status, contentType: contentType),
            data: Fixtures.body(text),
            request: Fixtures.request(method)
        )
    }

    @Test func decodesAModel() throws {
        let outcome = try decode(Catalog.self, #"{"items":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#)
        #expect(outcome.value == Catalog(items: [Item(id: 1, name: "a"), Item(id: 2, name: "b")]))
        #expect(outcome.error == nil)
    }

    @Test func namesTheCodingPathOfAMissingKey() throws {
        let outcome = try decode(Catalog.self, #"{"items":[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3}]}"#)
        #expect(outcome.value == nil)
        let error = try #require(outcome.error)
        #expect(error.code == .decodingFailed)
        #expect(error.domain == .response)
        #expect(error.urlErrorCode == 4865)
        #expect(
            error.localizedDescription == "Response could not be decoded as Catalog: key not found at $.items[2].name"
        )
        #expect(Fixtures.chain(error) == ["decodingFailed", "DecodingError"])
        #expect(error.failingURL == Fixtures.responseURL)
    }

    @Test func namesTheCodingPathOfATypeMismatch() throws {
        let outcome = try decode(Catalog.self, #"{"items":[{"id":"one","name":"a"}]}"#)
        #expect(outcome.error?.urlErrorCode == 4864)
        #expect(
            outcome.error?.localizedDescription
                == "Response could not be decoded as Catalog: expected Int but found another type at $.items[0].id"
        )
        #expect(outcome.error?.failureReason == "Expected to decode Int but found a string instead.")
    }

    @Test func namesTheCodingPathOfANull() throws {
        let outcome = try decode(Catalog.self, #"{"items":[{"id":null,"name":"a"}]}"#)
        #expect(outcome.error?.urlErrorCode == 4865)
        #expect(
            outcome.error?.localizedDescription
                == "Response could not be decoded as Catalog: expected Int but found null at $.items[0].id"
        )
    }

    @Test func reportsMalformedJSONAsADecodingFailure() throws {
        let outcome = try decode([Item].self, #"[{"id":1,"#)
        #expect(outcome.error?.code == .decodingFailed)
        #expect(outcome.error?.urlErrorCode == 4864)
        #expect(
            outcome.error?.localizedDescription == "Response could not be decoded as Array<Item>: data corrupted at $"
        )
        #expect(outcome.error?.failureReason == "The given data was not valid JSON.")
    }

    @Test func decodesDespiteAStatusFailure() throws {
        struct Problem: Decodable, Sendable, Equatable { let detail: String }
        let outcome = try decode(Problem.self, #"{"detail":"bad id"}"#, status: 422)
        #expect(outcome.value == Problem(detail: "bad id"))
        #expect(outcome.error?.localizedDescription == "Request failed: unprocessable content (422)")
        let failed = try decode(Item.self, #"{"detail":"bad id"}"#, status: 422)
        #expect(Fixtures.chain(failed.error) == ["decodingFailed", "unacceptableStatusCode", "DecodingError"])
    }

    @Test func stopsOnAContentTypeFailure() throws {
        let outcome = try decode(Item.self, #"{"id":1,"name":"a"}"#, contentType: "text/html")
        #expect(outcome.value == nil)
        #expect(Fixtures.chain(outcome.error) == ["unacceptableContentType"])
    }

    @Test(arguments: [(204, HTTPMethod.get), (205, .post), (200, .head)])
    func returnsTheEmptyValueWhereAnEmptyBodyIsAllowed(status: Int, method: HTTPMethod) throws {
        let outcome = try decode(EmptyResponseBody.self, "", status: status, contentType: nil, method: method)
        #expect(outcome.value == EmptyResponseBody())
        #expect(outcome.error == nil)
    }

    @Test func rejectsAnEmptyBodyWhereItIsNotAllowed() throws {
        let outcome = try decode(EmptyResponseBody.self, "", status: 200, contentType: nil)
        #expect(outcome.value == nil)
        let error = try #require(outcome.error)
        #expect(error.code == .emptyResponse)
        #expect(error.urlErrorCode == 0)
        #expect(error.localizedDescription == "Response could not be serialized, input data was nil or zero length.")
        let missing = DecodableResponseSerializer<Item>().serializedResponse(response: nil, data: nil, request: nil)
        #expect(missing.error?.code == .emptyResponse)
    }

    @Test func rejectsAnAllowedEmptyBodyForATypeWithoutAnEmptyValue() throws {
        let outcome = try decode(Item.self, "", status: 204, contentType: nil)
        #expect(outcome.value == nil)
        #expect(outcome.error?.code == .emptyResponse)
        #expect(
            outcome.error?.localizedDescription
                == "Empty response could not be serialized to type: Item. Use EmptyResponseBody as the expected type for such responses."
        )
    }

    @Test func chainsTheStatusErrorUnderAnEmptyBodyFailure() throws {
        let outcome = try decode(Item.self, "", status: 404, contentType: nil)
        #expect(Fixtures.chain(outcome.error) == ["emptyResponse", "unacceptableStatusCode"])
    }

    @Test func honoursACustomEmptyResponsePolicy() throws {
        let serializer = DecodableResponseSerializer<EmptyResponseBody>(
            emptyResponsePolicy: EmptyResponsePolicy(emptyResponseCodes: [201], emptyRequestMethods: [])
        )
        #expect(
            try decode(EmptyResponseBody.self, "", status: 201, contentType: nil, serializer: serializer).value != nil
        )
        #expect(
            try decode(EmptyResponseBody.self, "", status: 204, contentType: nil, serializer: serializer).error?.code
                == .emptyResponse
        )
        #expect(
            try decode(EmptyResponseBody.self, "", contentType: nil, method: .head, serializer: serializer).error?.code
                == .emptyResponse
        )
    }

    @Test func decodesTheEmptyValueFromAnEmptyObject() throws {
        #expect(try decode(EmptyResponseBody.self, "{}").value == EmptyResponseBody())
    }

    @Test func usesTheInjectedDecoder() throws {
        struct Account: Decodable, Sendable, Equatable { let displayName: String }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let serializer = DecodableResponseSerializer(Account.self, decoder: decoder)
        #expect(
            try decode(Account.self, #"{"display_name":"Ada"}"#, serializer: serializer).value
                == Account(displayName: "Ada")
        )
    }

    @Test func decodesPropertyListsWithAPropertyListDecoder() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>id</key><integer>7</integer><key>name</key><string>seven</string></dict></plist>
            """
        let serializer = DecodableResponseSerializer(
            Item.self,
            decoder: PropertyListDecoder(),
            validator: ResponseValidator(acceptableContentTypes: ["application/x-plist"])
        )
        let outcome = try decode(Item.self, plist, contentType: "application/x-plist", serializer: serializer)
        #expect(outcome.value == Item(id: 7, name: "seven"))
    }

    @Test func allowsAnEmptyBodyOnlyByPolicy() throws {
        let policy = EmptyResponsePolicy()
        #expect(policy.allowsEmptyBody(response: try Fixtures.response(204), request: nil))
        #expect(policy.allowsEmptyBody(response: nil, request: Fixtures.request(.head)))
        #expect(!policy.allowsEmptyBody(response: try Fixtures.response(200), request: Fixtures.request(.get)))
        #expect(!policy.allowsEmptyBody(response: nil, request: nil))
    }

    @Test func refusesTooDeepJSONBeforeTheDecoderCanCrash() throws {
        let outcome = try decode([Int].self, String(repeating: "[", count: 513))
        #expect(outcome.error?.code == .decodingFailed)
        #expect(outcome.error?.urlErrorCode == 4864)
        #expect(
            outcome.error?.localizedDescription == "Response could not be decoded as Array<Int>: data corrupted at $"
        )
        #expect(
            outcome.error?.failureReason
                == "Too many nested arrays or objects: more than 512 levels at byte offset 512."
        )
    }

    @Test func findsTheSameTooDeepBracketAsAByteByByteScanOnRandomInput() throws {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var generator = SeededRandom(seed: seed)
        // Mostly opening brackets, with strings now and then, so that more than half the inputs
        // cross the limit somewhere.
        let alphabet = Array(
            (String(repeating: "[", count: 30) + String(repeating: "{", count: 14) + "]]]]]]}}}}" + #""\aaaaaaaa"#)
                .utf8
        )
        var crossed = 0
        for index in 0..<300 {
            let count = Int.random(in: 513...4_000, using: &generator)
            let bytes = (0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            let reason = try decode([Int].self, String(decoding: bytes, as: UTF8.self)).error?.failureReason
            let expected = Self.tooDeepOffset(bytes).map {
                "Too many nested arrays or objects: more than 512 levels at byte offset \($0)."
            }
            if let expected {
                crossed += 1
                #expect(reason == expected, "case \(index), seed \(seed)")
            } else {
                #expect(reason?.hasPrefix("Too many nested") != true, "case \(index), seed \(seed)")
            }
        }
        #expect(crossed > 100, "seed \(seed)")
    }

    /// The depth scan as a plain state machine over every byte, to compare the guard with.
    private static func tooDeepOffset(_ bytes: [UInt8]) -> Int? {
        var (depth, inString, escaped) = (0, false, false)
        for (index, byte) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                depth += 1
                if depth > 512 { return index }
            } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                depth = max(depth - 1, 0)
            }
        }
        return nil
    }

    @Test func refusesTooDeepPropertyListsBeforeTheDecoderCanCrash() throws {
        let text =
            "<plist>" + String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000)
            + "</plist>"
        let serializer = DecodableResponseSerializer(
            [Int].self,
            decoder: PropertyListDecoder(),
            validator: ResponseValidator()
        )
        let outcome = try decode([Int].self, text, serializer: serializer)
        #expect(outcome.error?.failureReason == "Too many nested arrays or dictionaries: more than 512 levels.")
    }
}
