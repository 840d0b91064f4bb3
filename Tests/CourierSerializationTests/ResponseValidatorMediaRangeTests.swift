import CourierHTTP
import CourierSerialization
import FoundationEssentials
import Testing

/// ``ResponseValidator/ContentTypeMatching/mediaRanges`` against Alamofire 5.12's ValidationTests and
/// Validation.swift's rules.
@Suite struct ResponseValidatorMediaRangeTests {
    typealias Fixtures = ResponseTestFixtures

    private func validator(_ types: Set<String>) -> ResponseValidator {
        ResponseValidator(acceptableContentTypes: types, contentTypeMatching: .mediaRanges)
    }

    private func error(_ types: Set<String>, contentType: String?, body: String = "{}") throws -> SerializationError? {
        validator(types).validate(
            response: try Fixtures.response(200, contentType: contentType),
            data: Fixtures.body(body),
            request: Fixtures.request()
        )
    }

    @Test func exactMatchingStaysTheDefault() throws {
        #expect(ResponseValidator().contentTypeMatching == .exact)
        let exact = ResponseValidator(acceptableContentTypes: ["application/*"])
        let response = try Fixtures.response(200, contentType: "application/json")
        #expect(
            exact.validate(response: response, data: Fixtures.body("{}"), request: nil)?.code
                == .unacceptableContentType
        )
    }

    /// testThatValidationForRequestWithAcceptableContentTypeResponseSucceeds: parameters on either side are ignored.
    @Test func ignoresParametersOnBothSides() throws {
        for accepted in [
            "application/json", "application/json; charset=utf-8", "application/json; q=0.8; charset=utf-8",
        ] {
            #expect(try error([accepted], contentType: "application/json; charset=utf-8") == nil)
            #expect(try error([accepted], contentType: "application/json") == nil)
        }
    }

    /// testThatValidationForRequestWithAcceptableWildcardContentTypeResponseSucceeds.
    @Test func acceptsMediaRanges() throws {
        for accepted in ["*/*", "application/*", "*/json"] {
            #expect(try error([accepted], contentType: "application/json") == nil)
        }
        #expect(try error(["text/*"], contentType: "text/html; charset=utf-8") == nil)
        #expect(try error(["text/*"], contentType: "application/json")?.code == .unacceptableContentType)
    }

    /// Courier's deliberate differences: case and whitespace before `;` do not matter.
    @Test func comparesCaseInsensitively() throws {
        #expect(try error(["Application/JSON"], contentType: "application/json") == nil)
        #expect(try error(["TEXT/*"], contentType: "Text/Plain") == nil)
        #expect(try error(["text/html ; charset=utf-8"], contentType: "text/html") == nil)
    }

    /// testThatValidationForRequestWithUnacceptableContentTypeResponseFails,
    /// testThatContentTypeValidationFailureSortsPossibleContentTypes: AF's error, Alamofire's reason with sorted types.
    @Test func failsWithAFNetworkingsErrorAndAlamofiresReason() throws {
        let failure = try #require(
            try error(["text/*", "application/octet-stream", "application/xml"], contentType: "application/json")
        )
        #expect(failure.code == .unacceptableContentType)
        #expect(failure.domain == .response)
        #expect(failure.urlErrorCode == -1016)
        #expect(failure.localizedDescription == "Request failed: unacceptable content-type: application/json")
        #expect(
            failure.failureReason
                == "Response Content-Type \"application/json\" does not match any acceptable types: "
                + "application/octet-stream,application/xml,text/*."
        )
        #expect(failure.failingURL == Fixtures.responseURL)
    }

    /// testThatValidationForRequestWithNoAcceptableContentTypeResponseFails and ...SucceedsWhenNoDataIsReturned.
    @Test func anEmptySetFailsOnlyWithABody() throws {
        #expect(try error([], contentType: "application/json")?.code == .unacceptableContentType)
        let response = try Fixtures.response(200, contentType: "application/json")
        #expect(validator([]).validate(response: response, data: nil, request: nil) == nil)
        #expect(validator([]).validate(response: response, data: Data(), request: nil) == nil)
    }

    /// Validation.swift: with no MIME type, only `*/*` passes; with no body, everything does.
    @Test func aMissingTypePassesOnlyTheFullWildcard() throws {
        #expect(try error(["*/*"], contentType: nil) == nil)
        #expect(try error(["*/*; q=0.1"], contentType: nil) == nil)
        #expect(try error(["*/*"], contentType: "text") == nil)
        let failure = try #require(try error(["text/*", "application/json"], contentType: nil))
        #expect(failure.localizedDescription == "Request failed: unacceptable content-type: (null)")
        #expect(
            failure.failureReason
                == "Response Content-Type was missing and acceptable content types (application/json,text/*) do not match \"*/*\"."
        )
        #expect(try error(["text/plain"], contentType: "text")?.code == .unacceptableContentType)
        let response = try Fixtures.response(200)
        #expect(validator(["text/plain"]).validate(response: response, data: nil, request: nil) == nil)
    }

    @Test func statusFailuresStillComeFirst() throws {
        let response = try Fixtures.response(404, contentType: "text/html")
        let failure = validator(["application/*"]).validate(
            response: response,
            data: Fixtures.body("<p>"),
            request: nil
        )
        #expect(failure?.code == .unacceptableStatusCode)
        #expect((failure?.underlying as? SerializationError)?.code == .unacceptableContentType)
    }

    @Test func serializersForwardTheMode() throws {
        var serializer = StringResponseSerializer()
        serializer.contentTypeMatching = .mediaRanges
        serializer.acceptableContentTypes = ["text/*"]
        #expect(serializer.validator.contentTypeMatching == .mediaRanges)
        let response = try Fixtures.response(200, contentType: "text/csv; charset=utf-8")
        #expect(try serializer.serialize(response: response, data: Fixtures.body("a,b"), request: nil) == "a,b")
    }
}
