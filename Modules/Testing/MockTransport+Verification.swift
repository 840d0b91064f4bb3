extension MockTransport {
    /// The recorded requests that match, in start order.
    ///
    /// ```swift
    /// let posts = transport.requests(matching: .method(.post) && .path("/v1/items"))
    /// #expect(posts.first?.request.headers["Content-Type"] == "application/json")
    /// ```
    /// - Parameter matcher: The condition.
    /// - Returns: The matching requests, with their bodies.
    public func requests(matching matcher: RequestMatcher) -> [RecordedRequest] {
        requests.filter(matcher.matches)
    }

    /// How many recorded requests match.
    ///
    /// ```swift
    /// #expect(transport.callCount(matching: .path("/v1/me")) == 2)  // the first try and one retry
    /// ```
    /// - Parameter matcher: The condition.
    /// - Returns: The number of matching requests.
    public func callCount(matching matcher: RequestMatcher) -> Int {
        requests(matching: matcher).count
    }

    /// Checks how many recorded requests match, and says why when the count is wrong.
    ///
    /// The message names the expectation and lists every recorded request with the reasons it does
    /// not match, so a test shows what was sent instead:
    ///
    /// ```text
    /// expected exactly 1 request matching POST and path /v1/items; 0 of 1 matched
    ///   1. GET https://api.example.com/v1/items: method is GET, not POST
    /// ```
    ///
    /// ```swift
    /// #expect(transport.verify(.method(.post) && .path("/v1/items"), called: 1) == nil)
    /// ```
    /// (`CourierTestingExpectations` records the message as a test issue instead:
    /// `transport.expect(.method(.post), called: 1)`.)
    /// - Parameters:
    ///   - matcher: The condition; every request when left out.
    ///   - count: How many matching requests are expected; at least one by default.
    /// - Returns: `nil` when the count is right, else the description of the mismatch.
    public func verify(_ matcher: RequestMatcher = .any, called count: CallCount = .atLeast(1)) -> String? {
        matcher.verify(requests, called: count, receiver: "the transport")
    }
}

extension RequestMatcher {
    /// Whether `count` of `recorded` match, and, when not, the expectation and every recorded
    /// request with the reasons it does not match: the message of the doubles' `verify`.
    func verify(_ recorded: [MockTransport.RecordedRequest], called count: CallCount, receiver: String) -> String? {
        let matching = recorded.filter(matches).count
        guard !count.accepts(matching) else { return nil }
        let noun = count.number == 1 ? "request" : "requests"
        var message = "expected \(count) \(noun) matching \(self); "
        if recorded.isEmpty {
            message += "\(receiver) received no request"
            return message
        }
        message += "\(matching) of \(recorded.count) matched"
        for (index, request) in recorded.enumerated() {
            let reasons = mismatches(request)
            let verdict = reasons.isEmpty ? "matches" : reasons.joined(separator: "; ")
            message += "\n  \(index + 1). \(request.request): \(verdict)"
        }
        return message
    }
}
