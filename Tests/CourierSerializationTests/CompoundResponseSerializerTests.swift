import CourierHTTP
import CourierSerialization
import FoundationEssentials
import Testing

@Suite struct CompoundResponseSerializerTests {
    typealias Fixtures = ResponseTestFixtures

    private let compound = CompoundResponseSerializer([JSONResponseSerializer(), PropertyListResponseSerializer()])

    private func serialize(_ text: String, status: Int = 200, contentType: String?) throws -> SerializedResponse<
        any Sendable
    > {
        compound.serializedResponse(
            response: try Fixtures.response(status, contentType: contentType),
            data: Fixtures.body(text),
            request: nil
        )
    }

    @Test func returnsTheFirstChildsValue() throws {
        let outcome = try serialize(#"{"a":1}"#, contentType: "application/json")
        #expect(outcome.value as? JSONValue == ["a": 1])
        #expect(outcome.error == nil)
    }

    @Test func fallsThroughToALaterChild() throws {
        let outcome = try serialize("<plist><string>x</string></plist>", contentType: "application/x-plist")
        #expect(outcome.value as? PropertyListValue == .string("x"))
        #expect(outcome.error == nil)
    }

    @Test func reportsTheWinningChildsErrorWithItsValue() throws {
        let outcome = try serialize(#"{"error":"missing"}"#, status: 404, contentType: "application/json")
        #expect(outcome.value as? JSONValue == ["error": "missing"])
        #expect(outcome.error?.localizedDescription == "Request failed: not found (404)")
    }

    @Test func fallsBackToTheRawBodyWithItsOwnValidation() throws {
        let html = try serialize("<html>", contentType: "text/html")
        #expect(html.value as? Data == Fixtures.body("<html>"))
        #expect(html.error == nil)

        let failed = try serialize("<html>", status: 500, contentType: "text/html")
        #expect(failed.value as? Data == Fixtures.body("<html>"))
        #expect(Fixtures.chain(failed.error) == ["unacceptableStatusCode"])

        let strict = CompoundResponseSerializer([], validator: ResponseValidator(acceptableContentTypes: ["text/csv"]))
        let rejected = strict.serializedResponse(
            response: try Fixtures.response(contentType: "text/html"),
            data: Fixtures.body("x"),
            request: nil
        )
        #expect(rejected.value as? Data == Fixtures.body("x"))
        #expect(rejected.error?.code == .unacceptableContentType)
    }

    @Test func fallsBackWhenAChildProducesNoValue() throws {
        // The JSON child yields nothing for an empty body; the fallback returns the empty body.
        let outcome = try serialize("", contentType: "application/json")
        #expect(outcome.value as? Data == Data())
        #expect(outcome.error == nil)
    }
}

@Suite struct DataResponseSerializerTests {
    typealias Fixtures = ResponseTestFixtures

    @Test func returnsTheBodyEvenWhenValidationFails() throws {
        let serializer = DataResponseSerializer()
        let outcome = serializer.serializedResponse(
            response: try Fixtures.response(500),
            data: Fixtures.body("oops"),
            request: nil
        )
        #expect(outcome.value == Fixtures.body("oops"))
        #expect(outcome.error?.localizedDescription == "Request failed: internal server error (500)")
        #expect(throws: SerializationError.self) { try outcome.get() }
        #expect(outcome.map(\.count).value == 4)
    }

    @Test func keepsAMissingBodyMissing() throws {
        let outcome = DataResponseSerializer().serializedResponse(
            response: try Fixtures.response(204),
            data: nil,
            request: nil
        )
        #expect(outcome.value == nil)
        #expect(outcome.error == nil)
        #expect(try DataResponseSerializer().serialize(response: try Fixtures.response(204), data: Data()) == Data())
    }
}
