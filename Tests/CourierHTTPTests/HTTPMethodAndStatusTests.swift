import CourierHTTP
import Testing

@Suite struct HTTPMethodTests {
    @Test func acceptsExtensionTokensAndKeepsCase() throws {
        #expect(HTTPMethod(rawValue: "PURGE")?.rawValue == "PURGE")
        #expect(HTTPMethod(rawValue: "get")?.rawValue == "get")
        #expect(HTTPMethod(rawValue: "GET") == .get)
        #expect(try HTTPMethod(validating: "PATCH") == .patch)
    }

    @Test(arguments: ["", "GET /", "GE\rT", "GÉT", "A,B"])
    func rejectsNonTokens(name: String) {
        #expect(HTTPMethod(rawValue: name) == nil)
        #expect(throws: HTTPValueError.self) { try HTTPMethod(validating: name) }
    }
}

@Suite struct HTTPStatusTests {
    @Test(arguments: [
        (200, "OK"), (204, "No Content"), (301, "Moved Permanently"), (404, "Not Found"),
        (418, "I'm a teapot"), (500, "Internal Server Error"), (511, "Network Authentication Required"),
        (299, "Success"), (499, "Client Error"), (599, "Server Error"), (600, "Unknown Status"),
        (99, "Unknown Status"),
    ])
    func hasRegisteredOrClassReasonPhrases(code: Int, phrase: String) {
        #expect(HTTPStatus(code: code).reasonPhrase == phrase)
    }

    @Test func classifiesByFirstDigit() {
        #expect(HTTPStatus(code: 101).kind == .informational)
        #expect(HTTPStatus.ok.kind == .successful)
        #expect(HTTPStatus.notModified.kind == .redirection)
        #expect(HTTPStatus.notFound.kind == .clientError)
        #expect(HTTPStatus.serviceUnavailable.kind == .serverError)
        #expect(HTTPStatus(code: 1000).kind == .invalid)
        #expect(HTTPStatus.notFound.description == "404 Not Found")
    }
}
