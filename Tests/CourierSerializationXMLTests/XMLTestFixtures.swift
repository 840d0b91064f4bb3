import CourierHTTP
import CourierSerialization
import CourierTestSupport
import FoundationEssentials

/// Responses and bodies shared by the XML suites.
enum XMLTestFixtures {
    static let url = URL(string: "https://api.example.com/feed.xml")!

    static func response(_ code: Int = 200, contentType: String? = "application/xml") throws -> HTTPResponse {
        var headers = HTTPHeaders()
        if let contentType { try headers.add(name: "Content-Type", value: contentType) }
        return HTTPResponse(status: HTTPStatus(code: code), headers: headers, url: url)
    }

    static func body(_ text: String) -> Data { Data(text.utf8) }

    /// The chain of errors under `error`, outermost first (see `serializationErrorChain`).
    static func chain(_ error: (any Error)?) -> [String] { serializationErrorChain(error) }
}
