import CourierHTTP
import CourierSerialization
import CourierTestSupport
import FoundationEssentials

/// Responses, requests and bodies shared by the response-serializer suites.
enum ResponseTestFixtures {
    static let responseURL = URL(string: "https://api.example.com/items/7")!
    static let requestURL = URL(string: "https://api.example.com/request")!

    static func response(
        _ code: Int = 200,
        contentType: String? = nil,
        url: URL? = ResponseTestFixtures.responseURL
    ) throws -> HTTPResponse {
        var headers = HTTPHeaders()
        if let contentType { try headers.add(name: "Content-Type", value: contentType) }
        return HTTPResponse(status: HTTPStatus(code: code), headers: headers, url: url)
    }

    static func request(_ method: HTTPMethod = .get) -> HTTPRequest {
        HTTPRequest(method: method, url: requestURL)
    }

    static func body(_ text: String) -> Data { Data(text.utf8) }

    /// The chain of errors under `error`, outermost first (see `serializationErrorChain`).
    static func chain(_ error: (any Error)?) -> [String] { serializationErrorChain(error) }
}
