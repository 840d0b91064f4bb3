public import CourierHTTP
public import CourierTransport
public import FoundationEssentials

extension MockTransport {
    /// What a stub answers: a script of steps played in order through the transfer's events.
    ///
    /// The convenience initializers cover the common cases (a response with a body, a failure, a
    /// redirect); ``init(steps:)`` scripts anything a real transport can report, such as a failure
    /// in the middle of the body, progress with an unknown total, or metrics with a trust record.
    ///
    /// ```swift
    /// let flaky = MockTransport.Reply(steps: [
    ///     .response(HTTPResponse(status: .ok)),
    ///     .body(Data("partial".utf8)),
    ///     .fail(TransportError(category: .connectionLost, message: "reset by peer")),
    /// ])
    /// ```
    public struct Reply: Sendable {
        /// One step of a scripted reply.
        public enum Step: Sendable {
            /// The final response head; its URL is filled in from the request when `nil`.
            case response(HTTPResponse)
            /// A redirect head and its target; a body may follow, as from a real server.
            case redirect(HTTPResponse, location: URL)
            /// A chunk of the response body, delivered with backpressure (or written to the file of
            /// a `.file` destination). A download progress event follows each chunk.
            case body(Data)
            /// An upload progress event, beyond the one the mock sends after reading the body.
            case uploadProgress(TransferProgress)
            /// A download progress event, beyond the ones that follow each chunk.
            case downloadProgress(TransferProgress)
            /// A pause (a `Task.sleep`, never blocking), as a slow server's.
            case pause(Duration)
            /// The transfer fails here; nothing after it is played.
            case fail(TransportError)
            /// The transfer completes here with these metrics; nothing after it is played. A script
            /// without a terminal step completes with metrics the mock computes.
            case complete(TransferMetrics)
        }

        /// The steps, in order.
        public var steps: [Step]
        /// How long to wait before the first step (a `Task.sleep`, never blocking).
        public var delay: Duration?

        /// A scripted reply.
        ///
        /// ```swift
        /// let reply = MockTransport.Reply(steps: [.response(HTTPResponse(status: .noContent))])
        /// ```
        /// - Parameter steps: The steps, in order.
        public init(steps: [Step]) {
            self.steps = steps
        }

        /// A response with a body, split into chunks of `chunkSize` bytes when given.
        ///
        /// `Content-Length` is added as a server would, unless `headers` sets it (or
        /// `Transfer-Encoding`).
        ///
        /// ```swift
        /// let reply = MockTransport.Reply(status: 201, headers: ["Location": "/items/1"], body: Data())
        /// ```
        /// - Parameters:
        ///   - status: The status code.
        ///   - headers: The header fields; an invalid one is dropped rather than trapping.
        ///   - body: The body.
        ///   - chunkSize: The size of each body chunk; the whole body at once when `nil`.
        public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data(), chunkSize: Int? = nil) {
            let response = HTTPResponse(status: HTTPStatus(code: status), headers: Self.fields(headers, body: body))
            steps = [.response(response)] + Self.split(body, chunkSize: chunkSize).map(Step.body)
        }

        /// A failure before any response.
        ///
        /// ```swift
        /// let reply = MockTransport.Reply(error: TransportError(category: .timedOut, message: "slow"))
        /// ```
        /// - Parameter error: The failure.
        public init(error: TransportError) {
            steps = [.fail(error)]
        }

        /// A redirect to `location`, with a body when given.
        ///
        /// ```swift
        /// let moved = MockTransport.Reply.redirect(status: 301, to: URL(string: "https://example.com/new")!)
        /// ```
        /// - Parameters:
        ///   - status: The redirect status: 301, 302, 303, 307 or 308.
        ///   - location: The resolved target, also sent as `Location`.
        ///   - headers: More header fields.
        ///   - body: The redirect's body.
        /// - Returns: The reply.
        public static func redirect(
            status: Int = 302,
            to location: URL,
            headers: [String: String] = [:],
            body: Data = Data()
        ) -> Reply {
            var all = headers
            all["Location"] = location.absoluteString
            let response = HTTPResponse(status: HTTPStatus(code: status), headers: fields(all, body: body))
            return Reply(steps: [.redirect(response, location: location)] + split(body, chunkSize: nil).map(Step.body))
        }

        private static func fields(_ headers: [String: String], body: Data) -> HTTPHeaders {
            var fields = HTTPHeaders()
            for name in headers.keys.sorted() {
                // Stub headers come from test code; an invalid one is dropped rather than trapping.
                try? fields.add(name: name, value: headers[name] ?? "")
            }
            if !fields.contains(name: "Content-Length") && !fields.contains(name: "Transfer-Encoding") {
                try? fields.add(name: "Content-Length", value: String(body.count))
            }
            return fields
        }

        private static func split(_ body: Data, chunkSize: Int?) -> [Data] {
            guard !body.isEmpty else { return [] }
            guard let chunkSize, chunkSize > 0, chunkSize < body.count else { return [body] }
            return stride(from: body.startIndex, to: body.endIndex, by: chunkSize).map { start in
                body[start..<Swift.min(start + chunkSize, body.endIndex)]
            }
        }
    }
}
