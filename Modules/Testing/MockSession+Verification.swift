extension MockSession {
    /// The recorded calls' requests that match, in call order.
    ///
    /// ```swift
    /// let puts = session.requests(matching: .method(.put) && .path("/v1/me"))
    /// ```
    /// - Parameter matcher: The condition.
    /// - Returns: The matching requests, with their bodies.
    public func requests(matching matcher: RequestMatcher) -> [RecordedRequest] {
        requests.filter(matcher.matches)
    }

    /// Checks how many recorded calls match, and says why when the count is wrong: the
    /// expectation, then every call's request with the reasons it does not match.
    ///
    /// ```swift
    /// #expect(session.verify(.method(.put) && .body(json: #"{"name":"Grace"}"#), called: 1) == nil)
    /// ```
    /// - Parameters:
    ///   - matcher: The condition; every call when left out.
    ///   - count: How many matching calls are expected; at least one by default.
    /// - Returns: `nil` when the count is right, else the description of the mismatch.
    public func verify(_ matcher: RequestMatcher = .any, called count: CallCount = .atLeast(1)) -> String? {
        matcher.verify(requests, called: count, receiver: "the session")
    }
}
