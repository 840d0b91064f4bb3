internal import CourierHTTP
public import CourierSessionCore
public import CourierTransport
public import FoundationEssentials

extension MockSession {
    /// What a stub answers a call with: a response that goes through the call's serializer, as a
    /// server's would, or a failure.
    ///
    /// ```swift
    /// session.stub(url: "https://api.example.com/v1/me", answer: .response(status: 401))
    /// session.stub(url: "https://api.example.com/v1/me", answer: .transportFailure(.connectionFailed))
    /// ```
    public enum Answer: Sendable {
        /// A response: the call's serializer validates and decodes it, so a 401 fails a
        /// `decodable` call with the same `SessionError` a real session gives.
        case response(status: Int, headers: [String: String] = [:], body: Data = Data())
        /// A transport failure of this category, reported as the session reports one
        /// (`SessionError.Kind.transport`, or `.cancelled` for a cancellation).
        case transportFailure(TransportError.Category)
        /// This error, as given.
        case failure(SessionError)

        /// A JSON body with `Content-Type: application/json`.
        ///
        /// ```swift
        /// session.stub(url: "https://api.example.com/v1/me", answer: .json(#"{"id":1,"name":"Ada"}"#))
        /// ```
        /// - Parameters:
        ///   - text: The JSON text.
        ///   - status: The status code.
        /// - Returns: The answer.
        public static func json(_ text: String, status: Int = 200) -> Answer {
            .response(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
        }

        /// The response head and body, or the error, this answer gives `request`.
        func outcome(for request: HTTPRequest) -> (response: HTTPResponse?, body: Data?, error: SessionError?) {
            switch self {
            case .response(let status, let headers, let body):
                let fields = (try? HTTPHeaders(headers)) ?? HTTPHeaders()
                return (HTTPResponse(status: HTTPStatus(code: status), headers: fields, url: request.url), body, nil)
            case .transportFailure(let category):
                let error = TransportError(
                    category: category,
                    message: "MockSession answered with a \(category) failure",
                    url: request.url
                )
                return (nil, nil, .transport(error, url: request.url, response: nil, data: nil))
            case .failure(let error):
                return (error.response, error.data, error)
            }
        }
    }
}
