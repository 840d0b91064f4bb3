import CourierHTTP
import CourierSerialization
import FoundationEssentials
import Testing

@Suite struct ResponseValidatorTests {
    typealias Fixtures = ResponseTestFixtures

    @Test func acceptsSuccessfulStatusOfAnyTypeByDefault() throws {
        let validator = ResponseValidator()
        #expect(validator.acceptableStatusCodes == Set(200...299))
        #expect(validator.acceptableContentTypes == nil)
        for code in [200, 204, 299] {
            #expect(
                validator.validate(response: try Fixtures.response(code, contentType: "x/y"), data: nil, request: nil)
                    == nil
            )
        }
    }

    @Test func rejectsUnacceptableStatusWithAppleLowercaseText() throws {
        let response = try Fixtures.response(404, contentType: "application/json")
        let body = Fixtures.body("{}")
        let error = try #require(
            ResponseValidator().validate(response: response, data: body, request: Fixtures.request())
        )
        #expect(error.code == .unacceptableStatusCode)
        #expect(error.domain == .response)
        #expect(error.domain.rawValue == "com.alamofire.error.serialization.response")
        #expect(error.urlErrorCode == -1011)
        #expect(error.localizedDescription == "Request failed: not found (404)")
        #expect(error.failureReason == nil)
        #expect(error.failingURL == Fixtures.responseURL)
        #expect(error.response == response)
        #expect(error.data == body)
        #expect(error.underlying == nil)
    }

    @Test(arguments: [
        (500, "Request failed: internal server error (500)"),
        (401, "Request failed: unauthorized (401)"),
        (301, "Request failed: moved permanently (301)"),
        (418, "Request failed: i'm a teapot (418)"),
        (499, "Request failed: client error (499)"),
        (199, "Request failed: informational (199)"),
        (600, "Request failed: unknown status (600)"),
    ])
    func describesStatusFailures(code: Int, description: String) throws {
        let error = ResponseValidator().validate(response: try Fixtures.response(code), data: nil, request: nil)
        #expect(error?.localizedDescription == description)
    }

    @Test func takesTheFailingURLFromTheRequestWhenTheResponseHasNone() throws {
        let response = try Fixtures.response(500, url: nil)
        let error = ResponseValidator().validate(response: response, data: nil, request: Fixtures.request())
        #expect(error?.failingURL == Fixtures.requestURL)
        let bare = ResponseValidator().validate(response: response, data: nil, request: nil)
        #expect(bare?.failingURL == nil)
        #expect(bare?.code == .unacceptableStatusCode)
    }

    @Test func rejectsUnacceptableContentType() throws {
        let validator = ResponseValidator(acceptableContentTypes: ["application/json"])
        let response = try Fixtures.response(200, contentType: "text/html; charset=utf-8")
        let body = Fixtures.body("<html>")
        let error = try #require(validator.validate(response: response, data: body, request: nil))
        #expect(error.code == .unacceptableContentType)
        #expect(error.urlErrorCode == -1016)
        #expect(error.localizedDescription == "Request failed: unacceptable content-type: text/html")
        #expect(error.failingURL == Fixtures.responseURL)
        #expect(error.response == response)
        #expect(error.data == body)
        #expect(error.underlying == nil)
    }

    @Test func nestsTheContentTypeErrorUnderTheStatusError() throws {
        let validator = ResponseValidator(acceptableContentTypes: ["application/json"])
        let response = try Fixtures.response(503, contentType: "text/html")
        let error = try #require(validator.validate(response: response, data: Fixtures.body("down"), request: nil))
        #expect(Fixtures.chain(error) == ["unacceptableStatusCode", "unacceptableContentType"])
        #expect(error.localizedDescription == "Request failed: service unavailable (503)")
        let inner = try #require(error.underlying as? SerializationError)
        #expect(inner.localizedDescription == "Request failed: unacceptable content-type: text/html")
        #expect(inner.urlErrorCode == -1016)
        #expect(error.contains(.unacceptableContentType))
        #expect(error.contains(.unacceptableStatusCode))
        #expect(!inner.contains(.unacceptableStatusCode))
    }

    @Test func acceptsAResponseWithNoTypeAndNoBody() throws {
        let validator = ResponseValidator(acceptableContentTypes: ["application/json"])
        let response = try Fixtures.response(204)
        #expect(validator.validate(response: response, data: nil, request: nil) == nil)
        #expect(validator.validate(response: response, data: Data(), request: nil) == nil)
        // An empty Content-Type is no type at all.
        #expect(
            validator.validate(response: try Fixtures.response(204, contentType: ""), data: nil, request: nil) == nil
        )
    }

    @Test func rejectsABodyWithoutATypeAsAFNetworkingPrintsIt() throws {
        let validator = ResponseValidator(acceptableContentTypes: ["application/json"])
        let error = validator.validate(response: try Fixtures.response(200), data: Fixtures.body("{}"), request: nil)
        #expect(error?.localizedDescription == "Request failed: unacceptable content-type: (null)")
    }

    @Test func ignoresAContentTypeMismatchWhenThereIsNoBody() throws {
        // AFNetworking's validateResponse:data:error: makes no error object for an empty body.
        let validator = ResponseValidator(acceptableContentTypes: ["application/json"])
        let response = try Fixtures.response(204, contentType: "text/html")
        #expect(validator.validate(response: response, data: Data(), request: nil) == nil)
        #expect(validator.validate(response: response, data: nil, request: nil) == nil)
        // One byte is a body: the mismatch is an error again.
        let error = validator.validate(response: response, data: Fixtures.body(" "), request: nil)
        #expect(error?.code == .unacceptableContentType)
    }

    @Test func stillChecksTheStatusOfAMismatchedEmptyResponse() throws {
        let validator = ResponseValidator(acceptableContentTypes: ["application/json"])
        let response = try Fixtures.response(404, contentType: "text/html")
        let error = validator.validate(response: response, data: Data(), request: nil)
        #expect(Fixtures.chain(error) == ["unacceptableStatusCode"])
    }

    @Test func comparesContentTypesCaseInsensitivelyWithoutParameters() throws {
        let validator = ResponseValidator(acceptableContentTypes: ["Application/JSON"])
        let response = try Fixtures.response(200, contentType: " APPLICATION/json ; charset=UTF-8")
        #expect(validator.validate(response: response, data: Fixtures.body("{}"), request: nil) == nil)
    }

    @Test(arguments: [
        ("\tapplication/json\t;x", ["application/json"], true), (" ;charset=utf-8", ["application/json"], false),
        ("application/jsonx", ["application/json"], false), ("application/js", ["application/json"], false),
        ("TEXT/JSON", ["text/javascript", "Text/Json"], true), ("application/JSÖN", ["application/jsön"], true),
        ("application/jsön", ["Application/JSÖN"], true), ("application/json", ["application/jsön"], false),
        ("application/json;\u{301}", ["application/json"], false),
    ])
    func matchesTheMediaTypeLowerCasedAndTrimmedAsAFNetworkingDoes(
        contentType: String,
        types: [String],
        accepted: Bool
    ) throws {
        let validator = ResponseValidator(acceptableContentTypes: Set(types))
        let response = try Fixtures.response(200, contentType: contentType)
        let error = validator.validate(response: response, data: Fixtures.body("{}"), request: nil)
        #expect((error == nil) == accepted)
        #expect(error == nil || error?.code == .unacceptableContentType)
    }

    @Test func skipsChecksThatAreNotSet() throws {
        let validator = ResponseValidator(acceptableStatusCodes: nil, acceptableContentTypes: nil)
        let response = try Fixtures.response(500, contentType: "text/html")
        #expect(validator.validate(response: response, data: Fixtures.body("x"), request: nil) == nil)
    }

    @Test func validatesNothingWithoutAResponse() {
        let validator = ResponseValidator(acceptableStatusCodes: [], acceptableContentTypes: [])
        #expect(validator.validate(response: nil, data: Fixtures.body("x"), request: Fixtures.request()) == nil)
    }

    @Test func honoursCustomStatusCodes() throws {
        let validator = ResponseValidator(acceptableStatusCodes: [304])
        #expect(validator.validate(response: try Fixtures.response(304), data: nil, request: nil) == nil)
        #expect(
            validator.validate(response: try Fixtures.response(200), data: nil, request: nil)?.localizedDescription
                == "Request failed: ok (200)"
        )
    }

    @Test func forwardsAFNetworkingPropertyNames() {
        var serializer = JSONResponseSerializer()
        #expect(serializer.acceptableContentTypes == ["application/json", "text/json", "text/javascript"])
        #expect(serializer.acceptableStatusCodes == Set(200...299))
        serializer.acceptableContentTypes?.insert("application/problem+json")
        serializer.acceptableStatusCodes = [200]
        #expect(serializer.validator.acceptableContentTypes?.contains("application/problem+json") == true)
        #expect(serializer.validator.acceptableStatusCodes == [200])
    }
}
